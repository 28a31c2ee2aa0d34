/// The mirror document as the store holds it: a JSON value, or append mode's
/// `{"items": […]}` with its items in chunks.
///
/// Append mode puts items on top and drops the oldest at every change; as one `JSONValue`
/// each change would copy every item of the array (and the version it replaced would
/// release every one). As ``itemList`` the next document shares every chunk the change did
/// not touch. The JSON value is made only when a reader asks for it (``FeedSnapshot``
/// caches it per change).
enum MirrorDocument: Sendable {
    /// Any document.
    case value(JSONValue)
    /// The document `{"items": items}`.
    case itemList(ChunkedArray<JSONValue>)

    /// The token of the items member in an ``itemList`` document.
    static let itemsMember = "items"

    /// The document as one JSON value: for an ``itemList``, made here (a pass over every
    /// item; callers cache it).
    var json: JSONValue {
        switch self {
        case .value(let value): return value
        case .itemList(let items): return .object([Self.itemsMember: .array(Array(items))])
        }
    }

    /// The value at `pointer`; for an ``itemList``, without making the whole document
    /// unless `pointer` names it or its items array.
    func value(at pointer: JSONPointer) -> JSONValue? {
        switch self {
        case .value(let value):
            return value.value(at: pointer)
        case .itemList(let items):
            let tokens = pointer.tokens
            guard tokens.count >= 2 else { return json.value(at: pointer) }
            guard tokens[0] == Self.itemsMember, let index = JSONPointer.arrayIndex(tokens[1]), index < items.count
            else { return nil }
            return items[index].value(at: JSONPointer(tokens: Array(tokens[2...])))
        }
    }

    /// The elements of the array at `pointer`, read in place (an ``itemList``'s items are
    /// not copied); `nil` when there is no array there.
    func elements(at pointer: JSONPointer) -> ArrayElements? {
        if case .itemList(let items) = self, pointer.tokens == [Self.itemsMember] {
            return ArrayElements(items)
        }
        return value(at: pointer)?.arrayValue.map(ArrayElements.init)
    }

    /// The elements of one array of the document, whichever way it is held.
    struct ArrayElements {
        private enum Storage {
            case array([JSONValue])
            case chunked(ChunkedArray<JSONValue>)
        }

        private let storage: Storage

        init(_ array: [JSONValue]) { storage = .array(array) }
        init(_ items: ChunkedArray<JSONValue>) { storage = .chunked(items) }

        var count: Int {
            switch storage {
            case .array(let array): array.count
            case .chunked(let items): items.count
            }
        }

        subscript(position: Int) -> JSONValue {
            switch storage {
            case .array(let array): array[position]
            case .chunked(let items): items[position]
            }
        }

        func map<T>(_ transform: (JSONValue) -> T) -> [T] {
            switch storage {
            case .array(let array): array.map(transform)
            case .chunked(let items): items.map(transform)
            }
        }
    }
}
