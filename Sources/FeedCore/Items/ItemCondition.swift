/// One condition of a thing that lists its conditions as Kubernetes does (a node's
/// `status.conditions`: `[{"type": "Ready", "status": "True"}, …]`): what `kubectl get nodes`
/// shows as a node's STATUS, `Ready` or `NotReady`. The format of such a column
/// (``ItemColumn/Format/condition(_:)``; `--column 'Ready=/status/conditions:condition(Ready)'`).
public enum ItemCondition {
    /// The `status` text of the first object in `value` (an array) whose `type` is `type`;
    /// `nil` when `value` is no array or holds no such object with a text status.
    public static func status(in value: JSONValue?, type: String) -> String? {
        guard let conditions = value?.arrayValue else { return nil }
        for case .object(let members) in conditions where members["type"]?.stringValue == type {
            return members["status"]?.stringValue
        }
        return nil
    }

    /// Whether `value` is an array of conditions: objects each with a text `type` and a
    /// `status` of `True`, `False` or `Unknown`, one object at least.
    public static func isConditions(_ value: JSONValue?) -> Bool {
        guard let conditions = value?.arrayValue, !conditions.isEmpty else { return false }
        return conditions.allSatisfy { condition in
            guard case .object(let members) = condition, members["type"]?.stringValue != nil,
                let status = members["status"]?.stringValue
            else { return false }
            return status == "True" || status == "False" || status == "Unknown"
        }
    }

    /// The types of condition a table shows, in order of preference: a node's or a pod's
    /// `Ready`, a deployment's `Available`.
    public static let shownTypes = ["Ready", "Available"]
}
