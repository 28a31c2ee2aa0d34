/// Where a feed's items keep their values, read from a sample of them: their own members,
/// and one level down the plain members of an object that (nearly) every item has (a
/// Kubernetes object's `metadata.name`, a build's `status.phase`). What
/// ``ItemShapeDetector`` chooses a key, a title, a filter and columns from.
///
/// Invariants: ``top``'s pointers are one token long, ``nested``'s two, ``namedThings``' three;
/// ``top`` in order of first appearance over the sample, each name once; ``nested`` grouped
/// by their object in the order of ``top``, each inner name once per object, only plain
/// values (no object, no array) in at least one sampled item, or inside an envelope
/// (``envelopeNames``) a list of plain values too (an Airtable record's `fields/Tags`), as
/// the item's own would be; no member of an envelope both in ``nested`` and in
/// ``namedThings``.
struct ItemMemberPaths {
    /// Object members whose members are the item's own in all but depth: a Kubernetes
    /// object's `metadata`, a JSON:API resource's `attributes`, a GeoJSON feature's
    /// `properties`, a GraphQL edge's `node`, an Elasticsearch hit's `_source`, a Reddit
    /// listing child's `data`. Their members may key and name an item; another object's
    /// (an author's `id`) may not: it names something the item refers to.
    static let envelopeNames: Set<String> = [
        "metadata", "meta", "attributes", "properties", "node", "_source", "fields", "data", "record", "resource",
        "snippet",
    ]

    /// The items' own members, as one-token pointers.
    let top: [JSONPointer]
    /// The plain members of each member that is an object in nearly every item (9 in 10),
    /// as two-token pointers.
    let nested: [JSONPointer]
    /// The things an envelope refers to that name themselves, each by the member that names
    /// it (a Jira issue's `fields/status/name`, its `fields/assignee/displayName`): what the
    /// item's own object would show by that name. An envelope's member is one when, in
    /// every sampled item that has it, it is an object or `null`, an object in one at least,
    /// and 9 in 10 of its objects hold the same one of ``ItemShapeDetector/referenceNames``
    /// as non-empty text.
    let namedThings: [JSONPointer]

    /// The paths of `items`, read from the first `sample` of them.
    init(of items: [JSONValue], sample: Int) {
        let sampled = items.prefix(sample)
        var names: [String] = []
        var seen = Set<String>()
        for item in sampled {
            for name in item.objectValue?.keys ?? [] where seen.insert(name).inserted {
                names.append(name)
            }
        }
        top = names.map { JSONPointer(tokens: [$0]) }
        var nested: [JSONPointer] = []
        var namedThings: [JSONPointer] = []
        for name in names {
            let objects = sampled.compactMap { $0[name]?.objectValue }
            guard !objects.isEmpty, objects.count * 10 >= sampled.count * 9 else { continue }
            let envelope = Self.isEnvelope(name)
            let things = envelope ? Self.namedThings(in: objects) : [:]
            var inner = Set<String>()
            for object in objects {
                for (member, value) in object where inner.insert(member).inserted {
                    if let naming = things[member] {
                        namedThings.append(JSONPointer(tokens: [name, member, naming]))
                    } else if Self.isPlain(value) || envelope && Self.isPlainList(value) {
                        nested.append(JSONPointer(tokens: [name, member]))
                    } else {
                        // Plain in a later item, perhaps: looked at again there.
                        inner.remove(member)
                    }
                }
            }
        }
        self.nested = nested
        self.namedThings = namedThings
    }

    /// The members of `envelopes` that are things naming themselves (``namedThings``), each
    /// with the name of the member that names it.
    private static func namedThings(in envelopes: [JSONObject]) -> [String: String] {
        var values: [String: [JSONValue]] = [:]
        for envelope in envelopes {
            for (member, value) in envelope { values[member, default: []].append(value) }
        }
        var found: [String: String] = [:]
        for (member, held) in values {
            guard held.allSatisfy({ $0.isNull || $0.objectValue != nil }) else { continue }
            if let naming = namingMember(of: held.compactMap(\.objectValue)) { found[member] = naming }
        }
        return found
    }

    /// The member of ``ItemShapeDetector/referenceNames`` (the first in its order) that 9 in
    /// 10 of `objects` hold as non-empty text: what they name themselves by; `nil` for none,
    /// or no objects.
    static func namingMember(of objects: [JSONObject]) -> String? {
        guard !objects.isEmpty else { return nil }
        return ItemShapeDetector.referenceNames.first { name in
            let named = objects.filter { object in
                guard case .string(let text)? = object[name] else { return false }
                return !text.isEmpty
            }
            return named.count * 10 >= objects.count * 9
        }
    }

    /// The items' own member names, in order of first appearance.
    var names: [String] { top.compactMap(\.tokens.first) }

    /// The nested paths inside an envelope (``envelopeNames``): members that are the item's
    /// own.
    var enveloped: [JSONPointer] { nested.filter { Self.isEnvelope($0.tokens[0]) } }

    /// Whether the member `name` holds the item's own members (``envelopeNames``).
    static func isEnvelope(_ name: String) -> Bool {
        envelopeNames.contains(name.lowercased())
    }

    /// Whether `value` is an array of plain values (``isPlain(_:)``), empty included: shown
    /// as a list (`web, urgent`).
    static func isPlainList(_ value: JSONValue) -> Bool {
        value.arrayValue?.allSatisfy(isPlain) ?? false
    }

    /// Whether `value` is shown as it is: not an object, not an array.
    static func isPlain(_ value: JSONValue) -> Bool {
        switch value {
        case .object, .array: false
        default: true
        }
    }
}

extension JSONPointer {
    /// The member the pointer ends at, lowercased: what a detector's lists of names are
    /// compared with (`""` for the root).
    var memberName: String { tokens.last?.lowercased() ?? "" }
}
