/// One value read across the objects of an array an item holds (a Kubernetes pod's
/// `status.containerStatuses`): how many of them say yes (`ready`: `1/2`), or the sum of
/// their numbers (`restartCount`: `3`), as `kubectl get pods` shows a pod's READY and
/// RESTARTS. The format of such a column (``ItemColumn/Format/tally(_:)``; `--column
/// 'Ready=/status/containerStatuses:count(ready)'`, `sum(restartCount)`).
public struct ItemTally: Sendable, Equatable {
    /// What is worked out across the objects.
    public enum Kind: String, Sendable, Equatable {
        /// How many objects have the member `true` (or the text `"true"`, any case), of how
        /// many objects there are.
        case count
        /// The sum of the member's numbers (numbers sent as text too).
        case sum
    }

    /// The member read in each object.
    public let member: String
    public let kind: Kind

    public init(member: String, kind: Kind) {
        self.member = member
        self.kind = kind
    }

    /// The tally written as `--column` takes it: `count(ready)`, `sum(restartCount)`.
    public var name: String { "\(kind.rawValue)(\(member))" }

    /// The tally `name` writes (``name``), or `nil`.
    public init?(name: String) {
        guard name.hasSuffix(")"), let open = name.firstIndex(of: "("),
            let kind = Kind(rawValue: String(name[..<open]))
        else { return nil }
        let member = String(name[name.index(after: open)...].dropLast())
        guard !member.isEmpty, !member.contains("("), !member.contains(")") else { return nil }
        self.init(member: member, kind: kind)
    }

    /// The tally of `value`: for ``Kind/count`` the objects saying yes and how many objects
    /// there are, for ``Kind/sum`` the sum (and how many objects there are). `nil` when
    /// `value` is no array, or no object in it has the member (a sum), or holds no object (a
    /// count).
    public func of(_ value: JSONValue?) -> (value: Double, of: Int)? {
        guard let elements = value?.arrayValue else { return nil }
        var objects = 0
        var total = 0.0
        var found = false
        for case .object(let members) in elements {
            objects += 1
            switch (kind, members[member]) {
            case (.count, .bool(true)?):
                total += 1
            case (.count, .string(let text)?) where text.lowercased() == "true":
                total += 1
            case (.sum, let number?):
                guard let figure = number.doubleValue ?? number.stringValue.flatMap(Double.init), figure.isFinite
                else { continue }
                total += figure
                found = true
            default:
                continue
            }
        }
        switch kind {
        case .count: return objects > 0 ? (total, objects) : nil
        case .sum: return found ? (total, objects) : nil
        }
    }
}
