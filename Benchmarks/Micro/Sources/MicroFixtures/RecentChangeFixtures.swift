import FeedCore

/// The inputs of the append-mode micro-benchmarks, shaped like what `timed_upstream --append`
/// sends (its `next_item`): Wikimedia EventStreams `recentchange` events of about 1.3 KB,
/// kept by feedweb's append mode as `{"items": […]}` with the `wikimedia-recentchange`
/// profile (keyed by `/meta/id`, sectioned by `/wiki`).
public enum RecentChangeFixtures {
    private static let types = ["edit", "new", "log", "categorize"]
    private static let wikis = ["enwiki", "dewiki", "frwiki", "commonswiki", "wikidatawiki"]

    /// Event number `n` as upstream writes it (compact JSON, about 1.3 KB); its type and wiki
    /// cycle with `n` where `timed_upstream` draws them at random.
    public static func itemText(_ n: Int) -> String {
        let hex = String(n, radix: 16)
        func padded(_ width: Int) -> String { String(repeating: "0", count: max(0, width - hex.count)) + hex }
        let comment = String(repeating: "x", count: 200)
        let parsedComment = String(repeating: "y", count: 300)
        let sentNs = "1732270000123456789"
        return #"{"$schema":"/mediawiki/recentchange/1.0.0","meta":{"uri":"https://en.wikipedia.org/wiki/Page_\#(n)","#
            + #""request_id":"\#(padded(32))","id":"\#(padded(8))-0000-4000-8000-\#(padded(12))","#
            + #""dt":"2026-11-24T03:00:00Z","domain":"en.wikipedia.org","stream":"mediawiki.recentchange","#
            + #""topic":"eqiad.mediawiki.recentchange","partition":0,"offset":\#(n)},"#
            + #""id":\#(n),"seq":\#(n),"type":"\#(types[n % types.count])","namespace":0,"#
            + #""title":"Page \#(n) about something sent_ns=\#(sentNs)","#
            + #""title_url":"https://en.wikipedia.org/wiki/Page_\#(n)","comment":"\#(comment)","#
            + #""timestamp":\#(1_700_000_000 + n),"user":"User\#(n % 97)","bot":false,"minor":false,"#
            + #""patrolled":true,"length":{"old":1234,"new":1300},"revision":{"old":\#(n),"new":\#(n + 1)},"#
            + #""server_url":"https://en.wikipedia.org","server_name":"en.wikipedia.org","#
            + #""server_script_path":"/w","wiki":"\#(wikis[n % wikis.count])","#
            + #""parsedcomment":"\#(parsedComment)","sent_ns":\#(sentNs)}"#
    }

    /// Event number `n`, parsed (as the upstream connection hands it to the store).
    public static func item(_ n: Int) -> JSONValue {
        do {
            return try JSONParser.parse(Array(itemText(n).utf8))
        } catch {
            fatalError("the recentchange fixture does not parse: \(error)")
        }
    }

    /// A new append-mode store (`wikimedia-recentchange`) holding events 1…`count`, newest
    /// first, as after `count` appends with `keep: count`.
    public static func store(count: Int) -> FeedStore {
        let store = FeedStore(configuration: .init(profile: .wikimediaRecentChange), epoch: "bench")
        store.replaceDocument(.object(["items": .array((1...count).reversed().map(item))]))
        return store
    }
}
