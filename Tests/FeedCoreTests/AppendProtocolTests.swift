import FeedCore
import Testing

@Suite("Append protocol")
struct AppendProtocolTests {
    private func json(_ text: String) throws -> JSONValue {
        try JSONValue(parsing: text)
    }

    @Test("a message event is one item to put first, whatever its id")
    func messageIsAnItem() throws {
        var append = AppendProtocol(keep: 3)
        let event = SSEEvent(
            type: "message", data: #"{"title":"A","meta":{"id":"x"}}"#, id: #"[{"topic":"rc","offset":7}]"#)
        guard case .prependItem(let item, let keep) = append.interpret(event) else {
            Issue.record("not an item")
            return
        }
        #expect(item == (try json(#"{"title":"A","meta":{"id":"x"}}"#)))
        #expect(keep == 3)
    }

    @Test("data that is not JSON is counted and ignored, never a resync")
    func notJSONIgnored() {
        var append = AppendProtocol(keep: 5)
        guard case .ignore(_, let counted) = append.interpret(SSEEvent(data: "{oops")) else {
            Issue.record("not ignored")
            return
        }
        #expect(counted)
    }

    @Test("error, monitor and other types")
    func otherTypes() {
        var append = AppendProtocol(keep: 5)
        guard case .reportError(let message) = append.interpret(SSEEvent(type: "error", data: #"{"message":"m"}"#))
        else {
            Issue.record("error event not reported")
            return
        }
        #expect(message.contains("m"))
        guard case .ignore(_, false) = append.interpret(SSEEvent(type: "monitor", data: "{}")) else {
            Issue.record("monitor not ignored quietly")
            return
        }
        guard case .ignore(_, true) = append.interpret(SSEEvent(type: "data", data: "{}")) else {
            Issue.record("unknown type not counted")
            return
        }
    }

    @Test("a feed's own event name carries its items: learned from the first whose data is an object")
    func namedItems() {
        var append = AppendProtocol(keep: 5)
        func read(_ type: String, _ data: String) -> UpstreamCommand {
            append.interpret(SSEEvent(type: type, data: data))
        }
        guard case .ignore(_, false) = read("open", #"{"id":"x","topic":"t"}"#) else {
            Issue.record("an open event was counted")
            return
        }
        guard case .ignore(let document, true) = read("data", #"{"results":[]}"#) else {
            Issue.record("a document event was read as an item")
            return
        }
        #expect(document.contains("--mode document"), "\(document)")
        // A heartbeat, and Mastodon's announcements, are no items.
        guard case .ignore = read("status", #"{"event":"heartbeat"}"#),
            case .ignore = read("announcement", #"{"id":"1","content":"hi"}"#)
        else {
            Issue.record("a heartbeat or an announcement was read")
            return
        }
        #expect(append.itemEvents == nil)
        guard case .prependItem(let first, 5) = read("trade", #"{"s":"BTCUSDT","p":"1.5"}"#),
            case .prependItem(let second, 5) = read("trade", #"{"s":"ETHUSDT","p":"2"}"#)
        else {
            Issue.record("trades are not items")
            return
        }
        #expect(first["s"] == .string("BTCUSDT") && second["s"] == .string("ETHUSDT"))
        #expect(append.itemEvents == "trade")
        guard case .ignore(let reason, true) = read("alert", #"{"level":"high"}"#) else {
            Issue.record("a second name was read")
            return
        }
        #expect(reason.contains("alert") && reason.contains("trade events are"), "\(reason)")
    }

    @Test("--event names the items: only its events are, none is learned, message too is named or ignored")
    func chosenItems() {
        var append = AppendProtocol(keep: 5, chosenEvents: ["quote", "message"])
        func read(_ type: String, _ data: String) -> UpstreamCommand {
            append.interpret(SSEEvent(type: type, data: data))
        }
        // The trade came first: learned without --event, ignored (not counted) with it.
        guard case .ignore(let reason, false) = read("trade", #"{"s":"BTCUSDT","p":"1.5"}"#) else {
            Issue.record("a trade was read")
            return
        }
        #expect(reason.contains("--event names message, quote"), "\(reason)")
        guard case .prependItem(let quote, 5) = read("quote", #"{"s":"BTCUSDT","bid":1.4}"#),
            case .prependItem = read("message", #"{"s":"ETHUSDT","bid":2}"#),
            case .ignore(_, false) = read("trade", #"{"s":"ETHUSDT","p":"2"}"#)
        else {
            Issue.record("the chosen events are not the items")
            return
        }
        #expect(quote["bid"] == .double(1.4))
        #expect(append.itemEvents == nil, "nothing learned")
        // The other events keep their meaning.
        guard case .reportError = read("error", #"{"message":"slow down"}"#),
            case .ignore(_, true) = read("quote", "{broken")
        else {
            Issue.record("error or a broken quote")
            return
        }
        var updates = AppendProtocol(keep: 5, chosenEvents: ["trade"])
        guard case .ignore(_, false) = updates.interpret(SSEEvent(type: "message", data: #"{"a":1}"#)) else {
            Issue.record("message is an item though --event names only trade")
            return
        }
        // An unnamed event whose data says its kind: an item when that kind is chosen.
        guard case .prependItem = updates.interpret(SSEEvent(data: #"{"type":"trade","p":1}"#)),
            case .ignore(_, false) = updates.interpret(SSEEvent(data: #"{"type":"quote","b":1}"#))
        else {
            Issue.record("an unnamed event's kind is not read")
            return
        }
    }

    @Test("a stream whose items came as message learns no other name")
    func namesAfterMessage() {
        var append = AppendProtocol(keep: 5)
        guard case .prependItem = append.interpret(SSEEvent(data: #"{"a":1}"#)),
            case .ignore(_, true) = append.interpret(SSEEvent(type: "trade", data: #"{"b":2}"#))
        else {
            Issue.record("a name after message items was read")
            return
        }
        #expect(append.itemEvents == nil)
    }

    @Test("keep is at least 1")
    func keepAtLeastOne() {
        #expect(AppendProtocol(keep: 0).keep == 1)
        #expect(AppendProtocol(keep: -5).keep == 1)
    }

    @Test("the store keeps the newest N, newest first, and each change is add /items/0 plus removes")
    func storeKeepsNewest() throws {
        let store = FeedStore(configuration: .init(profile: .wikimediaRecentChange), epoch: "t")
        var previous: JSONValue?
        for n in 1...7 {
            let change = store.prependItem(.object(["n": .int(Int64(n))]), keep: 3)
            let document = change.snapshot.document
            let expected = (max(1, n - 2)...n).reversed().map { JSONValue.object(["n": .int(Int64($0))]) }
            #expect(document == .object(["items": .array(expected)]))
            switch change.kind {
            case .snapshot:
                #expect(n == 1, "only the first item makes a snapshot")
            case .patch(let patch, let encoded):
                let previousDocument = try #require(previous)
                #expect(try patch.applied(to: previousDocument) == document, "the patch leads to the new document")
                #expect(try JSONPatch(parsing: encoded) == patch)
                #expect(
                    patch.operations.first
                        == .add(path: try JSONPointer("/items/0"), value: .object(["n": .int(Int64(n))])))
                if n > 3 {
                    #expect(patch.operations.dropFirst() == [.remove(path: try JSONPointer("/items/3"))])
                } else {
                    #expect(patch.operations.count == 1)
                }
            }
            #expect(change.snapshot.id.seq == UInt64(n))
            previous = document
        }
        #expect(store.snapshot?.published.items.count == 3)
    }

    @Test("a smaller keep trims a longer restored list in one patch")
    func smallerKeepTrims() throws {
        let store = FeedStore(configuration: .init(profile: .wikimediaRecentChange), epoch: "t")
        let restored = try json(#"{"items":[{"n":5},{"n":4},{"n":3},{"n":2},{"n":1}]}"#)
        store.restore(document: restored, seq: 9)
        let change = store.prependItem(try json(#"{"n":6}"#), keep: 2)
        #expect(change.snapshot.document == (try json(#"{"items":[{"n":6},{"n":5}]}"#)))
        #expect(change.snapshot.id.seq == 10)
        guard case .patch(let patch, _) = change.kind else {
            Issue.record("not a patch")
            return
        }
        #expect(try patch.applied(to: restored) == change.snapshot.document)
    }

    @Test("a document without an items array is replaced through a diff")
    func foreignDocumentReplaced() throws {
        let store = FeedStore(configuration: .init(profile: .wikimediaRecentChange), epoch: "t")
        let old = try json(#"{"results":[1,2]}"#)
        store.replaceDocument(old)
        let change = store.prependItem(.int(1), keep: 5)
        #expect(change.snapshot.document == (try json(#"{"items":[1]}"#)))
        guard case .patch(let patch, _) = change.kind else {
            Issue.record("not a patch")
            return
        }
        #expect(try patch.applied(to: old) == change.snapshot.document)
    }

    @Test(
        "items that arrived together are one change: newest first, the newest keep of them, counted each",
        arguments: [(batch: 3, keep: 4, before: 3), (batch: 6, keep: 4, before: 3), (batch: 2, keep: 10, before: 0)])
    func batchIsOneChange(batch: Int, keep: Int, before: Int) throws {
        let store = FeedStore(configuration: .init(profile: .wikimediaRecentChange), epoch: "t")
        func item(_ n: Int) -> JSONValue {
            .object(["meta": .object(["id": .string("id-\(n)")]), "n": .int(Int64(n))])
        }
        if before > 0 { store.prependItems((1...before).map(item), keep: keep) }
        let previous = store.snapshot
        let arrived = (before + 1...before + batch).map(item)
        let change = store.prependItems(arrived, keep: keep)

        // The document: everything so far, newest first, the newest `keep`.
        let expected = Array((1...before + batch).reversed().prefix(keep)).map(item)
        #expect(change.snapshot.document == .object(["items": .array(expected)]))
        #expect(change.upstreamChanges == batch)
        #expect(change.snapshot.id.seq == (before > 0 ? 2 : 1))
        #expect(change.snapshot.encodedByteCount == change.snapshot.document.serializedBytes().count)
        // The items added: every arrived one still in the document, and only those.
        let shown = Set(expected.compactMap { $0["n"]?.int64Value })
        let added = change.snapshot.published.itemChanges.filter { $0.kind == .added }.map(\.item.key)
        #expect(
            Set(added) == Set(arrived.compactMap { $0["n"]?.int64Value }.filter(shown.contains).map { "id-\($0)" }))
        guard let previous else {
            guard case .snapshot = change.kind else { throw Failure("a first batch is a snapshot") }
            return
        }
        guard case .patch(let patch, let encoded) = change.kind else { throw Failure("not a patch") }
        #expect(try patch.applied(to: previous.document) == change.snapshot.document)
        #expect(try JSONPatch(parsing: encoded) == patch)
        #expect(patch.operations.filter { if case .add = $0 { true } else { false } }.count == min(batch, keep))
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    @Test("Mastodon's events: update and notification are items, status.update an edit, delete an id")
    func mastodonsEvents() throws {
        var append = AppendProtocol(keep: 5)
        for type in ["update", "notification"] {
            guard case .prependItem(let item, 5) = append.interpret(SSEEvent(type: type, data: #"{"id":"1"}"#)) else {
                Issue.record("\(type) is not an item")
                continue
            }
            #expect(item == (try json(#"{"id":"1"}"#)))
        }
        guard case .replaceItem(let edited) = append.interpret(SSEEvent(type: "status.update", data: #"{"id":"1"}"#))
        else {
            Issue.record("status.update is not an edit")
            return
        }
        #expect(edited == (try json(#"{"id":"1"}"#)))
        guard case .ignore(_, true) = append.interpret(SSEEvent(type: "status.update", data: "[1]")) else {
            Issue.record("an edit that is no object is not ignored")
            return
        }
        // Mastodon writes the id bare; a JSON string, and digits past a double's, work too.
        let ids = ["113000000000000042", " 113000000000000042\n", #""abc-1""#, "99999999999999999999999"]
        let keys = ids.map { data -> String? in
            guard case .removeItem(let key) = append.interpret(SSEEvent(type: "delete", data: data)) else { return nil }
            return key
        }
        #expect(keys == ["113000000000000042", "113000000000000042", "abc-1", "99999999999999999999999"])
        for data in ["", #"{"id": 1}"#, "two words", #""""#] {
            guard case .ignore(_, true) = append.interpret(SSEEvent(type: "delete", data: data)) else {
                Issue.record("a delete of \(data) is not ignored")
                continue
            }
        }
    }
}
