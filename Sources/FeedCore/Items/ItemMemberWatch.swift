/// The members a found reading's items have shown so far: what tells ``FeedStore`` that a
/// change brought one they had not (a build's `duration` once it finishes, an alert's
/// `endsAt` once it resolves), so that the columns, decided from the first document with
/// items, are worked out again (``ItemShapeDetector/reading(of:overrides:)``) and the table
/// gains it.
///
/// A member is named relative to its item: one token for the item's own (`/duration`), two
/// for a plain value or an object one level down (`/status/phase`; a Jira issue's
/// `/fields/assignee` once it has one, which ``ItemMemberPaths/namedThings`` reads), as
/// ``ItemMemberPaths`` reads them. Only values other than `null` count: a member that is
/// `null` everywhere tells nothing yet.
///
/// Invariants: ``names`` never shrinks and holds at most ``maxNames`` members; ``readings``
/// counts the times the items were read again and never passes ``maxReadings``. Once either
/// bound is reached the watch is spent and finds nothing new: a feed whose member names keep
/// changing (a map keyed by time, say) is not a set of columns, and its pages are not
/// reloaded for each.
public struct ItemMemberWatch: Sendable, Equatable {
    /// The most members remembered.
    public static let maxNames = 4096
    /// The most times the items are read again for new members.
    public static let maxReadings = 64

    /// The members seen so far, relative to an item.
    public private(set) var names: Set<JSONPointer>
    /// How many times the items were read again.
    public private(set) var readings = 0

    /// The members of every item of `items`.
    public init(items: some Sequence<JSONValue>) {
        var names = Set<JSONPointer>()
        for item in items where names.count < Self.maxNames {
            Self.members(ofItem: item) { names.insert($0) }
        }
        self.names = names
    }

    /// The members of every item `collection` holds, laid out as `form` (the document's
    /// value at its profile's items path).
    public init(itemsOf collection: JSONValue?, form: ItemsForm) {
        self.init(items: ItemExtractor.elements(of: collection, form: form) ?? [])
    }

    /// Whether the watch finds nothing more (one of its bounds is reached).
    public var isSpent: Bool { names.count >= Self.maxNames || readings >= Self.maxReadings }

    /// The members `patch` gives the items at `itemsPath` (laid out as `form`) that the watch
    /// has not seen, each once, in the patch's order; `document` is the document after the
    /// patch, read where an operation moves or copies a value. Only items that are an
    /// array's elements or an object's members are watched: a series', a table's rows' and
    /// named values' members are fixed by their form.
    public func newMembers(
        in patch: JSONPatch, itemsPath: JSONPointer, form: ItemsForm, document: (JSONPointer) -> JSONValue?
    ) -> [JSONPointer] {
        guard Self.watches(form), !isSpent else { return [] }
        var found: [JSONPointer] = []
        var seen = Set<JSONPointer>()
        func note(_ member: JSONPointer) {
            if !names.contains(member), seen.insert(member).inserted { found.append(member) }
        }
        let depth = itemsPath.tokens.count
        for operation in patch.operations {
            let path = operation.path
            guard let value = operation.valueLeft(in: document), !value.isNull else { continue }
            if path.isProperPrefix(of: itemsPath) || path == itemsPath {
                // The items themselves, or what holds them, given anew.
                let collection = path == itemsPath ? value : document(itemsPath)
                for item in ItemExtractor.elements(of: collection, form: form) ?? [] {
                    Self.members(ofItem: item, note)
                }
                continue
            }
            guard itemsPath.isProperPrefix(of: path) else { continue }
            let inside = path.tokens[(depth + 1)...]
            switch inside.count {
            case 0:
                Self.members(ofItem: value, note)
            case 1:
                let name = inside[inside.startIndex]
                note(JSONPointer(tokens: [name]))
                for (inner, member) in value.objectValue ?? [:] where Self.isWatched(inner: member) {
                    note(JSONPointer(tokens: [name, inner]))
                }
            case 2:
                if Self.isWatched(inner: value) { note(JSONPointer(tokens: Array(inside))) }
            default:
                continue
            }
        }
        return found
    }

    /// The members of the items `collection` holds (laid out as `form`) that the watch has
    /// not seen, each once: what a whole new document brings.
    public func newMembers(inItemsOf collection: JSONValue?, form: ItemsForm) -> [JSONPointer] {
        guard Self.watches(form), !isSpent else { return [] }
        var found: [JSONPointer] = []
        var seen = Set<JSONPointer>()
        for item in ItemExtractor.elements(of: collection, form: form) ?? [] {
            Self.members(ofItem: item) { member in
                if !names.contains(member), seen.insert(member).inserted { found.append(member) }
            }
        }
        return found
    }

    /// Remembers `members` (as many as ``maxNames`` allows) and counts one reading more.
    public mutating func learn(_ members: [JSONPointer]) {
        for member in members where names.count < Self.maxNames { names.insert(member) }
        readings += 1
    }

    /// Whether items laid out as `form` can gain members by name.
    static func watches(_ form: ItemsForm) -> Bool {
        switch form {
        case .elements, .members: true
        case .series, .rows, .values, .texts: false
        }
    }

    /// Whether a member's value says something: not `null`.
    private static func counts(_ value: JSONValue) -> Bool { !value.isNull }

    /// Whether a value one level down is watched: a plain value other than `null`, or an
    /// object (a thing that may name itself).
    private static func isWatched(inner value: JSONValue) -> Bool {
        counts(value) && (ItemMemberPaths.isPlain(value) || value.objectValue != nil)
    }

    /// Calls `note` with each member of `item` that has a value: its own members, and the
    /// plain members and objects of those that are objects.
    private static func members(ofItem item: JSONValue, _ note: (JSONPointer) -> Void) {
        guard case .object(let members) = item else { return }
        for (name, value) in members where counts(value) {
            note(JSONPointer(tokens: [name]))
            guard case .object(let inner) = value else { continue }
            for (innerName, innerValue) in inner where isWatched(inner: innerValue) {
                note(JSONPointer(tokens: [name, innerName]))
            }
        }
    }
}
