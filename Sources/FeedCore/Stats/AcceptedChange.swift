/// What ``FeedStatistics`` needs to know of one accepted change: a summary of a
/// ``FeedChange`` that holds no document.
public struct AcceptedChange: Sendable, Equatable {
    /// The story the ticker shows after this change.
    public struct Headline: Sendable, Equatable {
        public var title: String
        public var key: String
        /// Whether the story is new to the published view (`false`: it changed).
        public var isNew: Bool

        public init(title: String, key: String, isNew: Bool) {
            self.title = title
            self.key = key
            self.isNew = isNew
        }
    }

    /// An item that came to match a chart mark (``ItemMark``, ``ItemChange/newMarks``).
    public struct Mark: Sendable, Equatable {
        /// The mark's label.
        public var label: String
        /// The item's title, or its key when it has none.
        public var item: String

        public init(label: String, item: String) {
            self.label = label
            self.item = item
        }
    }

    /// The mirror's size after the change, in bytes of compact JSON: what one poll of the
    /// full document would download.
    public var documentBytes: Int
    /// Whether the published view advanced (the version guard let the change through).
    public var published: Bool
    /// How many upstream changes it carries (``FeedChange/upstreamChanges``), at least 1.
    public var upstreamChanges: Int
    /// Items added to, changed in and removed from the published view (0 unless published).
    public var added: Int
    public var updated: Int
    public var removed: Int
    /// The distinct sections of the items this change added or updated, in feed order
    /// (empty unless published): every section that can be new to the statistics, without
    /// a pass over the whole view. For a first view, all of its sections.
    public var sections: [String]
    /// The newest added story with a title, else the first changed one (`nil` unless
    /// published).
    public var headline: Headline?
    /// The mirror's version after the change, when the profile has a version path.
    public var version: Double?
    /// The published view's version after the change.
    public var publishedVersion: Double?
    /// Whether the profile has a version path, so that an unpublished change was held back
    /// by the guard.
    public var guarded: Bool
    /// The chart marks the items this change added or updated came to match
    /// (``ItemChange/newMarks``), in feed order (empty unless published). A first view's items are all added: in append mode they are the
    /// first messages, which may arrive together.
    public var marks: [Mark]

    public init(
        documentBytes: Int, published: Bool, upstreamChanges: Int = 1, added: Int = 0, updated: Int = 0,
        removed: Int = 0,
        sections: [String] = [], headline: Headline? = nil, version: Double? = nil, publishedVersion: Double? = nil,
        guarded: Bool = false, marks: [Mark] = []
    ) {
        self.documentBytes = documentBytes
        self.published = published
        self.upstreamChanges = max(1, upstreamChanges)
        self.added = added
        self.updated = updated
        self.removed = removed
        self.sections = sections
        self.headline = headline
        self.version = version
        self.publishedVersion = publishedVersion
        self.guarded = guarded
        self.marks = marks
    }

    /// The summary of `change`; `versionPath` is the profile's (`nil`: no guard).
    public init(_ change: FeedChange, versionPath: JSONPointer?) {
        let view = change.snapshot.published
        var added = 0
        var updated = 0
        var removed = 0
        var headline: Headline?
        var sections: [String] = []
        var marks: [Mark] = []
        if change.publishedChanged {
            var firstUpdated: Headline?
            var seen = Set<String>()
            for item in view.itemChanges(since: change.previousPublished) {
                switch item.kind {
                case .added:
                    added += 1
                    if headline == nil, let title = item.item.title {
                        headline = Headline(title: title, key: item.item.key, isNew: true)
                    }
                case .updated:
                    updated += 1
                    if firstUpdated == nil, let title = item.item.title {
                        firstUpdated = Headline(title: title, key: item.item.key, isNew: false)
                    }
                case .removed:
                    removed += 1
                }
                if item.kind != .removed, let section = item.item.section, seen.insert(section).inserted {
                    sections.append(section)
                }
                for label in item.newMarks {
                    marks.append(Mark(label: label, item: item.item.title ?? item.item.key))
                }
            }
            headline = headline ?? firstUpdated
        }
        self.init(
            documentBytes: change.snapshot.encodedByteCount, published: change.publishedChanged,
            upstreamChanges: change.upstreamChanges, added: added,
            updated: updated, removed: removed, sections: sections, headline: headline,
            version: versionPath.flatMap { change.snapshot.value(at: $0)?.doubleValue },
            publishedVersion: view.version, guarded: versionPath != nil, marks: marks)
    }

    /// Whether the guard held this change back because the mirror went back to an older
    /// version than the published one (a lagging cache), not merely because it did not
    /// raise the version.
    public var isGuardRegression: Bool {
        guard guarded, !published, let publishedVersion else { return false }
        guard let version else { return true }
        return version < publishedVersion
    }
}
