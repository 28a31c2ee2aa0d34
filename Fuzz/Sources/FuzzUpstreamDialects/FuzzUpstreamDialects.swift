@_spi(Fuzzing) import FeedCore
import FuzzSupport

/// Each upstream dialect's message handling on any input, carried out on a store as the
/// upstream connection carries it out:
/// - document protocol: an SSE stream's events interpreted by ``DocumentProtocol``; a
///   snapshot replaces the mirror, a patch that applies moves it exactly as applying the
///   patch to it does, one that fails leaves it as it was;
/// - append protocol: events interpreted by ``AppendProtocol``; the document never holds
///   more than `keep` items, the newest first;
/// - polling: an answer (status, headers, body) interpreted by ``PollingProtocol``, as the
///   answer to a GET or to a POSTed query; a new document becomes a diff from the last one
///   that the store applies to give it exactly; each header value is read as an HTTP date;
/// - Firebase: an SSE stream's `put`/`patch` events interpreted by ``FirebaseProtocol``;
///   every patch it returns applies to the mirror, which is always the document the stream
///   has built; anything else leaves the mirror as it was;
/// - WebSocket: messages (split at NUL bytes; one starting with `0x01` is binary)
///   interpreted by ``MessageProtocol`` in document or append mode, plain (Pusher's,
///   Phoenix's and Action Cable's messages among them), as a Socket.IO server's packets or
///   as a SignalR hub's records; what the client would send back is one of the protocols'
///   own texts;
/// - a JSON stream over HTTP: the bytes split into texts by ``JSONTextSplitter`` (the same
///   texts whole and byte by byte), each interpreted by ``MessageProtocol``;
/// - an MQTT broker's bytes: its packets (the same whole and byte by byte), each message
///   carried out as ``MQTTMessages`` makes it.
///
/// Input: a byte choosing the dialect (its value modulo 5, in the order above, the fifth
/// being WebSocket below 160, a JSON stream from 160 and an MQTT broker's bytes from 240;
/// the rest of it picks `keep` for append, the mode, a WebSocket's framing and a JSON
/// stream's), then the stream or, for polling, a status byte, header lines `Name: value` up
/// to an empty line, and the body.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzUpstreamDialects(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    var input = FuzzInput(start, count)
    let choice = input.byte()
    let variant = Int(choice / 5)
    switch choice % 5 {
    case 0: readDocumentProtocol(input.rest())
    case 1: readAppendProtocol(input.rest(), keep: variant % 8 + 1)
    case 2: readPollingAnswer(&input)
    case 3: readFirebaseProtocol(input.rest())
    default:
        if variant < 32 {
            let mode: MessageProtocol.Mode = variant % 2 == 0 ? .document : .append(keep: variant / 2 % 8 + 1)
            let framing: MessageProtocol.Framing =
                variant / 16 % 2 == 1 ? .socketIO : variant / 8 % 2 == 1 ? .signalR : .plain
            readWebSocketMessages(input.rest(), mode: mode, framing: framing)
        } else if variant < 48 {
            let mode: MessageProtocol.Mode = variant % 2 == 0 ? .document : .append(keep: variant / 4 % 8 + 1)
            readJSONStream(input.rest(), framing: variant / 2 % 2 == 0 ? .lines : .values, mode: mode)
        } else {
            readMQTT(input.rest(), mode: variant % 2 == 0 ? .document : .append(keep: 5))
        }
    }
    return 0
}

/// A broker's bytes read whole and byte by byte, which must give the same packets and the
/// same end; each message carried out as a command.
func readMQTT(_ bytes: [UInt8], mode: MessageProtocol.Mode) {
    let whole = MQTTFuzzing.read(bytes, piece: bytes.count, limit: 64 * 1024, mode: mode)
    let pieces = MQTTFuzzing.read(bytes, piece: 1, limit: 64 * 1024, mode: mode)
    invariant(whole.packets == pieces.packets, "the packets depend on how the bytes arrive")
    invariant(whole.error == pieces.error, "the end depends on how the bytes arrive")
    let store = newStore()
    for command in whole.commands { carryOut(command, mode: mode, on: store) }
}

/// The events of `stream` (read whole, then ended), up to an event too large for 64 KiB.
func events(of stream: [UInt8]) -> [SSEEvent] {
    var parser = SSEParser(maxEventBytes: 64 * 1024)
    var events: [SSEEvent] = []
    try? parser.parse(stream, into: &events)
    parser.finish()
    return events
}

func newStore() -> FeedStore {
    FeedStore(configuration: .init(profile: .nytNewswire, historyCount: 16))
}

func readDocumentProtocol(_ stream: [UInt8]) {
    let store = newStore()
    var dialect = DocumentProtocol()
    for event in events(of: stream) {
        let before = store.snapshot?.document
        let learned = dialect.documentEvents
        let command = dialect.interpret(event)
        invariant(
            learned == nil || dialect.documentEvents == learned, "the document's event name changed on one connection")
        switch command {
        case .replaceDocument(let document):
            _ = store.replaceDocument(document)
            invariant(store.snapshot?.document == document, "a snapshot did not replace the mirror")
        case .applyPatch(let patch):
            let expected = before.flatMap { try? patch.applied(to: $0) }
            do {
                _ = try store.apply(patch)
                invariant(expected != nil, "the store applied a patch that does not apply to its mirror")
                invariant(store.snapshot?.document == expected, "the store's mirror is not the patched document")
            } catch {
                invariant(expected == nil, "the store refused a patch that applies to its mirror: \(error)")
                invariant(store.snapshot?.document == before, "a refused patch changed the mirror")
            }
        case .prependItem, .replaceItem, .removeItem, .putItem, .removeItemByID:
            invariant(false, "the document protocol edited an item")
        case .reportError, .endStream, .ignore, .reject:
            invariant(store.snapshot?.document == before, "a message that changes nothing changed the mirror")
        }
    }
}

func readAppendProtocol(_ stream: [UInt8], keep: Int) {
    let store = newStore()
    var dialect = AppendProtocol(keep: keep)
    for event in events(of: stream) {
        let learned = dialect.itemEvents
        let command = dialect.interpret(event)
        invariant(learned == nil || dialect.itemEvents == learned, "the items' event name changed on one connection")
        if editKeptItem(command, in: store, keep: keep) { continue }
        guard case .prependItem(let item, let itemKeep) = command else { continue }
        invariant(itemKeep == keep, "the append protocol changed keep")
        _ = store.prependItem(item, keep: itemKeep)
        let items = store.snapshot?.document["items"]?.arrayValue ?? []
        invariant(items.count <= keep, "the document holds \(items.count) items, keep is \(keep)")
        invariant(items.first == item, "the newest item is not first")
    }
}

/// Carries out an edit of a kept item (Mastodon's `status.update` and `delete`, a
/// Kubernetes watch's events) and checks what it may change: an edit keeps the number of
/// items, a put adds one at most, a delete takes one out at most, and none does anything
/// but change, add or remove the item with the key. Returns whether `command` was such an
/// edit.
func editKeptItem(_ command: UpstreamCommand, in store: FeedStore, keep: Int) -> Bool {
    let before = store.snapshot?.document["items"]?.arrayValue ?? []
    switch command {
    case .replaceItem(let item):
        let change = store.replaceItem(item)
        let after = store.snapshot?.document["items"]?.arrayValue ?? []
        invariant(after.count == before.count, "an edit changed the number of items")
        invariant(change == nil || after.contains(item), "an edit that changed the items does not hold the item")
        invariant(zip(before, after).filter { $0 != $1 }.count <= 1, "an edit changed more than one item")
    case .removeItem(let key):
        let change = store.removeItem(keyed: key)
        let after = store.snapshot?.document["items"]?.arrayValue ?? []
        invariant(after.count == before.count - (change == nil ? 0 : 1), "a delete took out other than one item")
        invariant(after.allSatisfy(before.contains), "a delete brought an item in")
    case .putItem(let item, let idPath, let itemKeep):
        invariant(itemKeep == keep, "a put item with another keep")
        let change = store.putItem(item, idAt: idPath, keep: keep)
        let after = store.snapshot?.document["items"]?.arrayValue ?? []
        invariant(change == nil || after.contains(item), "a put that changed the items does not hold the item")
        invariant(after.count <= before.count + 1, "a put added more than one item")
        invariant(after.count >= min(before.count, keep), "a put took items out")
    case .removeItemByID(let id, let idPath):
        let change = store.removeItem(withID: id, at: idPath)
        let after = store.snapshot?.document["items"]?.arrayValue ?? []
        invariant(after.count == before.count - (change == nil ? 0 : 1), "a delete took out other than one item")
        invariant(after.allSatisfy(before.contains), "a delete brought an item in")
    default:
        return false
    }
    let items = store.snapshot?.document["items"]?.arrayValue ?? []
    invariant(items.count <= keep, "the document holds \(items.count) items, keep is \(keep)")
    return true
}

func readFirebaseProtocol(_ stream: [UInt8]) {
    let store = newStore()
    var dialect = FirebaseProtocol()
    for event in events(of: stream) {
        let before = store.snapshot?.document
        switch dialect.interpret(event) {
        case .replaceDocument(let document):
            _ = store.replaceDocument(document)
            invariant(store.snapshot?.document == document, "a put at / did not replace the mirror")
        case .applyPatch(let patch):
            do {
                _ = try store.apply(patch)
            } catch {
                invariant(false, "a patch of the Firebase stream does not apply to the mirror it built: \(error)")
            }
        case .prependItem, .replaceItem, .removeItem, .putItem, .removeItemByID:
            invariant(false, "the Firebase protocol edited an item")
        case .reportError, .endStream, .ignore, .reject:
            invariant(store.snapshot?.document == before, "a message that changes nothing changed the mirror")
        }
        if let built = dialect.document {
            invariant(store.snapshot?.document == built, "the mirror is not the document the Firebase stream built")
        }
    }
}

func readWebSocketMessages(_ stream: [UInt8], mode: MessageProtocol.Mode, framing: MessageProtocol.Framing) {
    let store = newStore()
    let dialect = MessageProtocol(mode: mode, framing: framing)
    for bytes in stream.split(separator: 0, omittingEmptySubsequences: false) {
        let message: MessageProtocol.Message =
            bytes.first == 1 ? .binary(byteCount: bytes.count - 1) : .text(String(decoding: bytes, as: UTF8.self))
        let reading = dialect.read(message)
        // What the client sends is a pong (Engine.IO's `3`, Pusher's `pusher:pong`), a
        // Phoenix heartbeat or a SignalR ping, never the input's.
        if let reply = reading.reply {
            let pong = reply == "3" || (try? JSONValue(parsing: reply))?["event"] == .string("pusher:pong")
            invariant(pong, "a reply that is no pong: \(reply)")
        }
        if let heartbeat = reading.heartbeat {
            let signalR = framing == .signalR
            let text = signalR && heartbeat.text.last == "\u{1E}" ? String(heartbeat.text.dropLast()) : heartbeat.text
            let value = (try? JSONValue(parsing: text)) ?? .null
            let topic = value.arrayValue.map { $0.count == 5 ? $0[2] : .null } ?? value["topic"]
            let phoenix = topic == .string("phoenix") && framing == .plain
            invariant(
                phoenix || (signalR && value == .object(["type": .int(6)])), "a heartbeat of the input's: \(text)")
            invariant(heartbeat.longestInterval > .zero, "a heartbeat that is never sent")
        }
        for command in reading.commands { carryOut(command, mode: mode, on: store) }
    }
}

/// The texts of `stream` split whole, which must be the texts split byte by byte, each
/// carried out as a message.
func readJSONStream(_ stream: [UInt8], framing: JSONTextSplitter.Framing, mode: MessageProtocol.Mode) {
    func texts(inChunksOf size: Int) -> [[UInt8]] {
        var splitter = JSONTextSplitter(framing: framing, maxTextBytes: 64 * 1024)
        var texts: [[UInt8]] = []
        var start = 0
        while start < stream.count {
            let end = min(stream.count, start + size)
            let failed = stream[start..<end].withUnsafeBytes { raw in
                do throws(JSONTextSplitterError) {
                    try splitter.split(raw, into: &texts)
                    return false
                } catch {
                    return true
                }
            }
            if failed { return texts }
            start = end
        }
        splitter.finish(into: &texts)
        return texts
    }
    let whole = texts(inChunksOf: max(1, stream.count))
    invariant(whole == texts(inChunksOf: 1), "the texts depend on how the bytes are split")
    let store = newStore()
    let dialect = MessageProtocol(mode: mode)
    for text in whole {
        invariant(!text.isEmpty, "an empty text")
        for command in dialect.interpret(.text(String(decoding: text, as: UTF8.self))) {
            carryOut(command, mode: mode, on: store)
        }
    }
}

/// Carries out a message's command on `store` and checks what it may change.
func carryOut(_ command: UpstreamCommand, mode: MessageProtocol.Mode, on store: FeedStore) {
    let before = store.snapshot?.document
    switch command {
    case .replaceDocument(let document):
        invariant(mode == .document, "a whole document in append mode")
        _ = store.replaceDocument(document)
        invariant(store.snapshot?.document == document, "a message did not replace the mirror")
    case .prependItem(let item, let keep):
        invariant(mode == .append(keep: keep), "an item outside append mode, or with another keep")
        _ = store.prependItem(item, keep: keep)
        let items = store.snapshot?.document["items"]?.arrayValue ?? []
        invariant(items.count <= keep, "the document holds \(items.count) items, keep is \(keep)")
        invariant(items.first == item, "the newest item is not first")
    case .replaceItem, .removeItem, .putItem, .removeItemByID:
        guard case .append(let keep) = mode else {
            invariant(false, "an edit of an item outside append mode")
            break
        }
        _ = editKeptItem(command, in: store, keep: keep)
    case .applyPatch:
        invariant(false, "a WebSocket message became a patch")
    case .reportError, .endStream, .ignore, .reject:
        invariant(store.snapshot?.document == before, "a message that changes nothing changed the mirror")
    }
}

func readPollingAnswer(_ input: inout FuzzInput) {
    let statuses = [200, 200, 200, 201, 203, 204, 206, 301, 302, 303, 304, 307, 308, 400, 404, 500, 503]
    let status = statuses[Int(input.byte()) % statuses.count]
    let flags = input.byte()
    let sent = PollingProtocol.Validators(etag: flags & 1 == 0 ? nil : "\"v1\"")
    // A POSTed query's answer (`--poll-body`) is read as a GraphQL result when it is one.
    let posted = flags & 2 != 0
    let lines = input.rest().split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
    let blank = lines.firstIndex { $0.isEmpty } ?? lines.endIndex
    let headers = lines[..<blank].map { line -> (name: String, value: String) in
        let parts = line.split(separator: UInt8(ascii: ":"), maxSplits: 1, omittingEmptySubsequences: false)
        return (
            String(decoding: parts[0], as: UTF8.self), parts.count > 1 ? String(decoding: parts[1], as: UTF8.self) : ""
        )
    }
    let body =
        lines.index(blank, offsetBy: 1, limitedBy: lines.endIndex).map {
            Array(lines[$0...].joined(separator: [UInt8(ascii: "\n")]))
        } ?? []
    // Every header value read as an HTTP date (`Retry-After`): whatever it is, no trap, and a
    // date it reads is a whole second.
    for header in headers {
        if let date = WallTime(httpDate: header.value.trimmingCharacters(in: .whitespaces)) {
            invariant(date.microseconds % 1_000_000 == 0, "an HTTP date with a fraction of a second")
        }
    }
    switch PollingProtocol.interpret(status: status, headers: headers, body: body, sent: sent, posted: posted) {
    case .document(let document, _):
        invariant(PollingProtocol.wantsBody(status: status), "a document from an answer without a body: \(status)")
        let store = newStore()
        _ = store.replaceDocument(previousPolledDocument)
        do {
            _ = try store.apply(JSONDiff.diff(from: previousPolledDocument, to: document))
        } catch {
            invariant(false, "the diff from the last document did not apply: \(error)")
        }
        invariant(store.snapshot?.document == document, "the diffed mirror is not the polled document")
    case .notModified:
        invariant(status == 304 && !sent.isEmpty, "not modified without a conditional 304")
    case .failure(let reason):
        invariant(!reason.isEmpty, "a failure without a reason")
    }
}

/// The document polled before this answer.
let previousPolledDocument: JSONValue = longLived {
    (try? JSONValue(parsing: #"{"num_results":2,"results":[{"uri":"a","title":"A"},{"uri":"b","title":"B"}]}"#))
        ?? .null
}
