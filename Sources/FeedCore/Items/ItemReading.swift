/// How the store reads items from its documents: the profile, how it came to be the one,
/// and why, in words (for the log and `/inspect`).
///
/// Decided once: from the options (`--profile`), or from the first document that holds
/// items (``ItemShapeDetector``); until then ``origin`` is ``Origin/undecided`` and the
/// pages say what the document holds instead.
public struct ItemReading: Sendable, Equatable {
    public enum Origin: String, Sendable, Equatable {
        /// Named by the options (`--profile`, or the demo's own).
        case given
        /// A built-in profile whose shape the first document has.
        case recognised
        /// Found in the first document: its array of objects, their key, their fields.
        case found
        /// No document with items yet: ``notes`` says what the last one held.
        case undecided
    }

    public let profile: ItemProfile
    public let origin: Origin
    /// What was chosen and why, a line each ("items: /quotes, the largest array of objects
    /// (8)"); for an undecided reading, what the document holds instead of items.
    public let notes: [String]

    public init(profile: ItemProfile, origin: Origin, notes: [String] = []) {
        self.profile = profile
        self.origin = origin
        self.notes = notes
    }

    /// A reading of `profile`, as the options named it.
    public static func given(_ profile: ItemProfile) -> ItemReading {
        ItemReading(profile: profile, origin: .given)
    }

    /// Whether the profile is settled (not waiting for a document with items).
    public var isDecided: Bool { origin != .undecided }

    /// `reading`, worked out again from a later document, when it reads the same items as
    /// this found reading (the same path, form and key, so every item keeps its identity
    /// and its address) and shows every column this one shows and more: the columns a feed's
    /// items gained since this reading was found. `nil` otherwise: a reading whose columns
    /// would drop one, or read the items another way, is not taken, so that a page's columns
    /// only grow. The reading returned says why in its last note.
    func widened(by reading: ItemReading, gaining members: [JSONPointer]) -> ItemReading? {
        let (old, new) = (profile, reading.profile)
        guard origin == .found, reading.origin == .found, old.itemsPath == new.itemsPath,
            old.itemsForm == new.itemsForm, old.keyPath == new.keyPath
        else { return nil }
        let shown = Set(old.columns.map(\.pointer))
        let shownNow = Set(new.columns.map(\.pointer))
        guard shown.isSubset(of: shownNow), shownNow.count > shown.count else { return nil }
        let gained = new.columns.filter { !shown.contains($0.pointer) }.map(\.label)
        let names = members.prefix(5).map(\.description).joined(separator: ", ")
        let more = members.count > 5 ? " and \(members.count - 5) more" : ""
        return ItemReading(
            profile: new.keepingDecimals(of: old), origin: .found,
            notes: reading.notes + [
                "columns gained: \(gained.joined(separator: ", ")), when the items gained \(names)\(more)"
            ])
    }

    /// How many items a found reading is sure of: one worked out from fewer (an append
    /// stream's first event, where any member is unique and every value one of a kind) is
    /// read again, once, when the feed holds this many (``settled(by:items:)``).
    public static let settlingItems = 8

    /// `reading`, worked out again from `items` items, when it reads the same items as this
    /// found reading (the same path, form and key, so every item keeps its identity and its
    /// address): its title, filter and columns, chosen from enough items (a log's `message`
    /// titles it, not its `service`; its `level` filters it). `nil` otherwise, or when
    /// nothing changed. The reading returned says why in its last note.
    func settled(by reading: ItemReading, items: Int) -> ItemReading? {
        let (old, new) = (profile, reading.profile)
        guard origin == .found, reading.origin == .found, old.itemsPath == new.itemsPath,
            old.itemsForm == new.itemsForm, old.keyPath == new.keyPath, old != new
        else { return nil }
        return ItemReading(
            profile: new.keepingDecimals(of: old), origin: .found,
            notes: reading.notes + ["read again from \(items) items"])
    }

    /// This reading with `columns`, whose decimals a change raised
    /// (``ColumnDecimalsWatch``), saying which in its last note.
    func raisingDecimals(to columns: [ItemColumn]) -> ItemReading {
        let raised = zip(profile.columns, columns).filter { $0.decimals != $1.decimals }.map { _, column in
            "\(column.label) to \(column.decimals)"
        }
        var profile = profile
        profile.columns = columns
        return ItemReading(
            profile: profile, origin: origin,
            notes: notes.filter { !$0.hasPrefix("decimals raised: ") } + [
                "decimals raised: " + raised.joined(separator: ", ")
            ])
    }

    /// What the document holds at the profile's items path when that is not an array (an
    /// object, for items that are an object's members), in words (`nil`: the items are read
    /// from what is there). What a page says in place of a list that would be blank.
    ///
    /// Else, when `hidden` items share their key with one before them (a key that was
    /// unique when the items were read, and no longer is), that they are not shown, and
    /// how to key them otherwise.
    func problem(in document: MirrorDocument, hidden: Int = 0) -> String? {
        guard isDecided else { return notes.first }
        if let unread = unread(in: document) { return unread }
        guard hidden > 0 else { return nil }
        let key = profile.keyPath.map { " (\($0.description))" } ?? ""
        let counted = hidden == 1 ? "1 item is not shown: it has" : "\(hidden) items are not shown: each has"
        return "\(counted) the key\(key) of an item before it. --key-path can name a member unique to each."
    }

    /// What the document holds at the items path, in words, when the items cannot be read
    /// from it; `nil` when they can.
    private func unread(in document: MirrorDocument) -> String? {
        let holdsItems =
            switch profile.itemsForm {
            case .elements: document.elements(at: profile.itemsPath) != nil
            case .rows, .texts: document.value(at: profile.itemsPath)?.arrayValue != nil
            case .members, .series, .values: document.value(at: profile.itemsPath)?.objectValue != nil
            }
        if holdsItems { return nil }
        let pointer = profile.itemsPath.description.isEmpty ? "the document's root" : profile.itemsPath.description
        return "The feed's items were at \(pointer), but the document now has "
            + ItemShapeDetector.describe(document.value(at: profile.itemsPath)) + " there."
    }
}
