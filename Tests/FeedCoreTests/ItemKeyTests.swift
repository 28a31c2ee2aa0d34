import FeedCore
import Testing

@Suite("Item keys")
struct ItemKeyTests {
    private static let urlSafe = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.")

    private func key(_ id: String) -> String {
        ItemKey.make(id: .string(id), item: .null)
    }

    /// Ids as real feeds send them.
    private static let realisticIDs = [
        "nyt://article/4a1b9c2e-5d6f-5e7a-8b9c-0d1e2f3a4b5c",
        "nyt://article/0b6f1d2e-3c4d-5e6f-7a8b-9c0d1e2f3a4b",
        "nyt://interactive/9f8e7d6c-5b4a-5392-8171-6f5e4d3c2b1a",
        "nyt://video/1d2c3b4a-5f6e-5d7c-8b9a-0f1e2d3c4b5a",
        "https://www.nytimes.com/2024/05/01/briefing/evening-briefing.html",
        "https://www.nytimes.com/2024/05/02/briefing/evening-briefing.html",
        "http://www.nytimes.com/2024/05/01/briefing/evening-briefing.html",
        "https://www.nytimes.com/2024/05/01/world/europe/north-election.html?smid=url-share",
        "https://www.nytimes.com/2024/05/01/world/europe/north-election.html",
        "zyTCAlFPjgYC", "8U2oAAAAQBAJ", "1749347218", "1749347219",
        "c4a9d6f2-1b3e-4f5a-9c8d-7e6f5a4b3c2d",
        "tag:example.com,2024:item-18", "tag:example.com,2024:item-19",
        "Ünïcödé id", "id with spaces", "a/b", "a/b/", "/a/b", "..", ".hidden", "-", "_",
        String(repeating: "x", count: 96), String(repeating: "x", count: 97),
    ]

    @Test("keys use only URL-safe characters, never start with a dot, and are not empty")
    func urlSafe() {
        let ids =
            Self.realisticIDs + ["", "💥", "a\u{0}b", "?&=#%", "../../etc/passwd", String(repeating: "é", count: 300)]
        for id in ids {
            let k = key(id)
            #expect(!k.isEmpty, "\(id.debugDescription)")
            #expect(k.allSatisfy(Self.urlSafe.contains), "\(id.debugDescription) → \(k)")
            #expect(!k.hasPrefix("."), "\(id.debugDescription) → \(k)")
            #expect(k.utf8.count <= 96, "\(id.debugDescription) → \(k)")
        }
    }

    @Test("distinct ids give distinct keys (also URLs that end alike)")
    func unique() {
        let keys = Self.realisticIDs.map(key)
        #expect(Set(keys).count == Self.realisticIDs.count, "\(Array(zip(Self.realisticIDs, keys)))")
    }

    @Test("distinct ids of a large feed give distinct keys")
    func uniqueAtScale() {
        var keys = Set<String>()
        for n in 0..<5000 {
            keys.insert(key("https://example.com/feed/item?id=\(n)"))
            keys.insert(key("tag:example.com:\(n)"))
        }
        #expect(keys.count == 10_000)
    }

    @Test("the same id gives the same key, computed independently (stable across restarts)")
    func stable() {
        // Values fixed by the algorithm (FNV-1a 64 in base 32), so a restart, another
        // process or another machine computes the same keys.
        #expect(key("nyt://article/4a1b9c2e-5d6f-5e7a-8b9c-0d1e2f3a4b5c") == "4a1b9c2e-5d6f-5e7a-8b9c-0d1e2f3a4b5c")
        #expect(key("zyTCAlFPjgYC") == "zyTCAlFPjgYC")
        #expect(ItemKey.make(id: .int(1_749_347_218), item: .null) == "1749347218")
        // Hashed ids: the expected keys were computed outside Swift (a 10-line Python
        // FNV-1a 64 over the UTF-8 bytes, base 32 from the top bit down, `h` in front).
        #expect(key("https://www.nytimes.com/2024/05/01/briefing/evening-briefing.html") == "hieodwpbhf3j42")
        #expect(key("https://www.nytimes.com/2024/05/02/briefing/evening-briefing.html") == "hpzkfy4y7l4a6z")
        #expect(key("tag:example.com,2024:item-18") == "hhzp6e76lliupv")
        #expect(key("id with spaces") == "hj74z2rm3c3w3h")
        // No id: the hash of the item's JSON (here `null`).
        #expect(key("") == "hfxg6exjjicche")
        #expect(ItemKey.make(id: nil, item: .null) == "hfxg6exjjicche")
    }

    @Test("a key does not depend on the rest of the item when there is an id")
    func independentOfItem() throws {
        let id = JSONValue.string("https://example.com/a")
        let one = ItemKey.make(id: id, item: try JSONValue(parsing: #"{"title":"one"}"#))
        let two = ItemKey.make(id: id, item: try JSONValue(parsing: #"{"title":"two"}"#))
        #expect(one == two)
    }

    @Test("hashed keys look like h + 13 base-32 characters")
    func hashShape() {
        for id in ["id with spaces", "https://example.com/x", String(repeating: "x", count: 97)] {
            let k = key(id)
            #expect(k.count == 14)
            #expect(k.first == "h")
            #expect(k.dropFirst().allSatisfy { "abcdefghijklmnopqrstuvwxyz234567".contains($0) })
        }
    }

    /// An independent implementation of the documented hash, for the stability check.
}
