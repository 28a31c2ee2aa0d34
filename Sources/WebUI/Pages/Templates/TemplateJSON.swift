import FeedCore
import Mustache

/// An item's own JSON as the templates read it: `{{item.price}}`, `{{item.owner.login}}`,
/// `{{#item.tags}}{{.}}{{/item.tags}}`. A member that is an object is another
/// ``TemplateJSON``; an array, a list of them; a string, a number or a boolean, itself; a
/// missing member or `null`, nothing (a `{{^item.x}}` section shows). Rendered whole
/// (`{{item.owner}}`), an object or array is its compact JSON text (escaped as any value).
struct TemplateJSON: MustacheParent, CustomStringConvertible, Sendable {
    let value: JSONValue

    init(_ value: JSONValue) {
        self.value = value
    }

    func child(named name: String) -> Any? {
        guard case .object(let members) = value, let member = members[name] else { return nil }
        return Self.template(member)
    }

    /// `value` as the templates read it.
    static func template(_ value: JSONValue) -> Any? {
        switch value {
        case .null: return nil
        case .bool(let flag): return flag
        case .int(let number): return number
        case .double(let number): return number
        case .string(let text): return text
        case .array(let elements): return elements.map { element -> Any in template(element) ?? "" }
        case .object: return TemplateJSON(value)
        }
    }

    var description: String { value.serializedString() }
}
