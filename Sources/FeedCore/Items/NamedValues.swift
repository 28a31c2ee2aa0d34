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
///   are arrays of objects and deeper objects.
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

    /// Whether the member `value` gives the object named values (itself, or its parts').
    static func isRead(_ value: JSONValue) -> Bool {
        ItemMemberPaths.isPlain(value) || isNonEmptyPlainList(value) || isPart(value)
    }

    /// How many named values `members` hold: `own`, the plain values and lists among them;
    /// `total`, those and their parts' values.
    static func count(in members: JSONObject) -> (own: Int, total: Int) {
        var own = 0
        var total = 0
        for member in members.values {
            if ItemMemberPaths.isPlain(member) || isNonEmptyPlainList(member) {
                own += 1
                total += 1
            } else if isPart(member), let inner = member.objectValue {
                total += inner.count
            }
        }
        return (own, total)
    }

    /// Calls `body` with each named value of `members` and its name, in order.
    static func forEach(in members: JSONObject, _ body: (_ name: String, _ value: JSONValue) -> Void) {
        for (name, member) in members {
            if ItemMemberPaths.isPlain(member) || isNonEmptyPlainList(member) {
                body(name, member)
            } else if isPart(member), let inner = member.objectValue {
                for (innerName, innerValue) in inner { body(name + "." + innerName, innerValue) }
            }
        }
    }

    private static func isNonEmptyPlainList(_ value: JSONValue) -> Bool {
        guard case .array(let elements) = value else { return false }
        return !elements.isEmpty && elements.allSatisfy(ItemMemberPaths.isPlain)
    }
}
