/// The named values of one object (``ItemsForm/values(nameMember:valueMember:)``): what a
/// feed that describes one thing (a service's health, a position, a device's readings)
/// shows, one value to a row.
///
/// An object's named values are, in its order:
/// - each member that is a plain value (`"status": "ok"`) or a list of plain values
///   (`"load": [0.42, 0.35, 0.3]`), under its own name;
/// - each plain value of a member that is a small object of plain values, a part of the
///   thing (a host's `memory`, a position's `iss_position`, a weather's `wind`: at most
///   ``maxPartValues``), under both names joined by a dot (`memory.rss_bytes`). A larger
///   object is a collection of its own (exchange `rates`), not a part, and is left out, as
///   are arrays of objects and deeper objects;
/// - but no value for programs (``ItemShapeDetector/isForPrograms(_:samples:)``: a GitHub
///   repository's `node_id` and its API addresses, `…/keys{/key_id}`), as no column shows
///   them.
///
/// A pure function of the object: the shape detector counts them, the extractor makes the
/// items from them, and both agree.
enum NamedValues {
    /// The most values an object may hold to be read as a part of the object it is in.
    static let maxPartValues = 8

    /// Whether `value` is a part: an object of 1 ... ``maxPartValues`` plain values.
    static func isPart(_ value: JSONValue) -> Bool {
        guard case .object(let members) = value else { return false }
        return (1...maxPartValues).contains(members.count) && members.values.allSatisfy(ItemMemberPaths.isPlain)
    }

    /// Whether the member `name` with `value` gives the object named values (itself, or
    /// its parts').
    static func isRead(_ name: String, _ value: JSONValue) -> Bool {
        var read = false
        forEach(in: [name: value]) { _, _ in read = true }
        return read
    }

    /// How many named values `members` hold: `own`, the plain values and lists among them;
    /// `total`, those and their parts' values.
    static func count(in members: JSONObject) -> (own: Int, total: Int) {
        var own = 0
        var total = 0
        forEach(in: members) { _, _, isOwn in
            total += 1
            if isOwn { own += 1 }
        }
        return (own, total)
    }

    /// Calls `body` with each named value of `members` and its name, in order.
    static func forEach(in members: JSONObject, _ body: (_ name: String, _ value: JSONValue) -> Void) {
        forEach(in: members) { name, value, _ in body(name, value) }
    }

    /// Calls `body` with each named value, its name, and whether it is the object's own
    /// (not a part's).
    private static func forEach(
        in members: JSONObject, _ body: (_ name: String, _ value: JSONValue, _ isOwn: Bool) -> Void
    ) {
        for (name, member) in members {
            if ItemMemberPaths.isPlain(member) || isNonEmptyPlainList(member) {
                if shows(name, member) { body(name, member, true) }
            } else if isPart(member), let inner = member.objectValue {
                for (innerName, innerValue) in inner where shows(innerName, innerValue) {
                    body(name + "." + innerName, innerValue, false)
                }
            }
        }
    }

    /// Whether a value is for people: not for programs.
    private static func shows(_ name: String, _ value: JSONValue) -> Bool {
        !ItemShapeDetector.isForPrograms(name, samples: [value])
    }

    private static func isNonEmptyPlainList(_ value: JSONValue) -> Bool {
        guard case .array(let elements) = value else { return false }
        return !elements.isEmpty && elements.allSatisfy(ItemMemberPaths.isPlain)
    }
}
