/// Makes an item's URL-safe key from its id, stable across restarts.
///
/// - An id made only of unreserved URL characters (`A–Z a–z 0–9 - _ .`, not starting with
///   `.`), at most 96 bytes, is its own key (`12345`, `zyTCAlFPjgYC`).
/// - An id whose last `/`- or `:`-separated segment is a long opaque token — at least 16
///   hex digits and dashes, like the UUID of `nyt://article/3f1c…` — has that segment as
///   its key. Such tokens are unique by themselves, so keys of distinct ids stay distinct.
/// - Any other id (a URL, text with spaces or non-ASCII letters, a long id) is hashed: `h`
///   followed by its 64-bit FNV-1a hash in base 32 (13 characters). Its last segment is not
///   used, since two URLs often end alike (`…/2024/05/01/briefing.html`,
///   `…/2024/05/02/briefing.html`).
/// - An id that is an object (a series' labels) is hashed, its members in sorted order.
/// - An item without an id is keyed by a hash of its JSON (stable while it is unchanged).
///
/// Keys only ever contain `A–Z a–z 0–9 - _ .`.
public enum ItemKey {
    /// The key for an item whose id (at the key path) is `id`, or whose JSON is `item`.
    public static func make(id: JSONValue?, item: JSONValue) -> String {
        let text: String
        switch id {
        case .string(let s) where !s.isEmpty: text = s
        case .int(let i): text = String(i)
        case .double(let d): text = String(d)
        case .object(let members) where !members.isEmpty:
            // Labels: the same labels in any order are the same id.
            return hashed(JSONValue.object(members).serializedBytes(sortedKeys: true))
        default: return hashed(item.serializedBytes(sortedKeys: true))
        }
        if isUnreserved(text.utf8) && text.utf8.count <= 96 { return text }
        if let cut = text.utf8.lastIndex(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: ":") }) {
            let segment = text.utf8[text.utf8.index(after: cut)...]
            if isOpaqueToken(segment) { return String(decoding: segment, as: UTF8.self) }
        }
        return hashed(Array(text.utf8))
    }

    /// 16 to 96 hex digits and dashes, at least 16 of them digits: a UUID or a hash.
    private static func isOpaqueToken(_ bytes: some Collection<UInt8>) -> Bool {
        guard bytes.count >= 16 && bytes.count <= 96 else { return false }
        var digits = 0
        for b in bytes {
            if (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66) {
                digits += 1
            } else if b != UInt8(ascii: "-") {
                return false
            }
        }
        return digits >= 16
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
