/// Makes an item's URL-safe key from its id, stable across restarts.
///
/// An id made only of unreserved URL characters is its own key. Otherwise the last
/// segment of the id is used when it is unreserved and at least 6 characters long
/// (`nyt://article/3f1c…` → `3f1c…`); else the key is `h` followed by a 64-bit FNV-1a
/// hash in base 32 of the id's text (or of the item's JSON when it has no id).
public enum ItemKey {
    /// The key for an item whose id (at the key path) is `id`, or whose JSON is `item`.
    public static func make(id: JSONValue?, item: JSONValue) -> String {
        let text: String
        switch id {
        case .string(let s) where !s.isEmpty: text = s
        case .int(let i): text = String(i)
        case .double(let d): text = String(d)
        default: return hashed(item.serializedBytes())
        }
        if isUnreserved(text.utf8) && text.utf8.count <= 96 { return text }
        if let cut = text.utf8.lastIndex(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: ":") }) {
            let segment = text.utf8[text.utf8.index(after: cut)...]
            if segment.count >= 6 && segment.count <= 96 && isUnreserved(segment) {
                return String(decoding: segment, as: UTF8.self)
            }
        }
        return hashed(Array(text.utf8))
    }

    private static func isUnreserved(_ bytes: some Collection<UInt8>) -> Bool {
        !bytes.isEmpty
            && bytes.allSatisfy { b in
                (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
                    || b == UInt8(ascii: "-") || b == UInt8(ascii: "_") || b == UInt8(ascii: ".")
            } && bytes.first != UInt8(ascii: ".")
    }

    private static func hashed(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz234567".utf8)
        var out: [UInt8] = [UInt8(ascii: "h")]
        for shift in stride(from: 60, through: 0, by: -5) {
            out.append(alphabet[Int((hash >> UInt64(shift)) & 31)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
