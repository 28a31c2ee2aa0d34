/// The append protocol (`--mode append`), as Wikimedia EventStreams and Mastodon's
/// streaming API speak it: every item event's data is one JSON item, not a document.
/// feedweb keeps the newest ``keep`` items as the document `{"items":[…]}`, newest first
/// (see ``FeedStore/prependItem(_:keep:)``).
///
/// - `message` (named, as EventStreams and ntfy send it, or unnamed), and Mastodon's
///   `update` (a new post) and `notification`: one item, any JSON value; a CouchDB change
///   (its `feed=eventsource`) edits the set of documents (``CouchChanges``). Data that is not
///   JSON is counted and ignored: there is no snapshot to resynchronise from, and a
///   reconnect without `Last-Event-ID` would only lose events.
/// - `status.update` (Mastodon: a post edited): the whole item again, put in place of the
///   kept item with its key (``FeedStore/replaceItem(_:position:arrival:)``).
/// - `delete` (Mastodon: a post deleted): the data is the item's id, as text, a JSON string
///   or a number; the kept item with that key is taken out
///   (``FeedStore/removeItem(keyed:position:arrival:)``).
/// - `error`: an upstream error object, reported like in the document protocol.
/// - `monitor`: ignored (logged at debug level).
/// - any other name (`event: trade`, `event: alert`): while no item has come on the
///   connection, the first such event whose data is a JSON object, and not a heartbeat
///   (``MessageProtocol/isHeartbeat(_:)``, an event named for liveness:
///   ``DocumentProtocol/livenessNames``), is an item, and so is every later event of that
///   name (``itemEvents``).
/// - With `--event NAME` (``chosenEvents``), the events so named are the items, and only
///   they: nothing is learned, and `update` and `notification` are items only when named.
///   A `message` (an unnamed event) is one when named, or when its data's own kind
///   (``MessageProtocol/kinds(of:)``: `{"type":"ticker",…}`) is. The other events keep their
///   meaning (Mastodon's edits and deletes, `error`); the rest are ignored, not counted.
/// - anything else (ntfy's `open` and `keepalive`): counted and ignored.
///
/// The event `id` is opaque (EventStreams sends a JSON array of Kafka offsets); the
/// connection keeps it and sends it back as `Last-Event-ID` when it reconnects.
public struct AppendProtocol: Sendable {
    /// How many items the document keeps (`--keep`), at least 1.
    public let keep: Int
    /// The events whose data is an item, as `--event` names them; empty: ``itemTypes`` and
    /// the one learned (``itemEvents``).
    public let chosenEvents: Set<String>
    /// The name of the events whose data is an item on this connection when it is none of
    /// ``itemTypes``; `nil` until one is learned. Set at most once per connection, and never
    /// after an item came by one of ``itemTypes``.
    public private(set) var itemEvents: String?
    /// Whether an item came on this connection (by any event).
    private var hasItem = false

    /// The event types whose data is a new item.
    public static let itemTypes: Set<String> = ["message", "update", "notification"]

    /// The document protocol's events (``DocumentProtocol``): never items.
    static let documentTypes: Set<String> = ["data", "snapshot", "patch"]

    /// The other events of Mastodon's streaming API: never items, so never learned as
    /// ``itemEvents``.
    static let mastodonsOthers: Set<String> = [
        "announcement", "announcement.reaction", "announcement.delete", "conversation", "filters_changed",
        "encrypted_message", "notifications_merged",
    ]

    public init(keep: Int, chosenEvents: Set<String> = []) {
        self.keep = max(1, keep)
        self.chosenEvents = chosenEvents
    }

    /// Whether an event of `type` is an item: one of ``chosenEvents`` when any are, else one
    /// of ``itemTypes`` or the learned ``itemEvents``.
    func isItemEvent(_ type: String) -> Bool {
        chosenEvents.isEmpty ? Self.itemTypes.contains(type) || type == itemEvents : chosenEvents.contains(type)
    }

    public mutating func interpret(_ event: SSEEvent) -> UpstreamCommand {
        guard let command = command(forKnown: event) else { return named(event) }
        if Self.itemTypes.contains(event.type) { hasItem = true }
        return command
    }

    /// The command for an event of a type this protocol reads (``itemTypes``, the learned
    /// ``itemEvents``, Mastodon's edits and deletes, `error`, `monitor`); `nil` for any
    /// other type.
    func command(forKnown event: SSEEvent) -> UpstreamCommand? {
        switch event.type {
        case "message" where !chosenEvents.isEmpty && !chosenEvents.contains("message"):
            // An unnamed event: its data's own kind (`{"type":"ticker",…}`) may be the one chosen.
            guard let item = try? JSONValue(parsing: event.data),
                MessageProtocol.kinds(of: item).contains(where: chosenEvents.contains)
            else { return .ignore(reason: "a message whose kind is not one --event names", counted: false) }
            return CouchChanges.command(for: item, keep: keep) ?? .prependItem(item, keep: keep)
        case _ where isItemEvent(event.type):
            let item: JSONValue
            do {
                item = try JSONValue(parsing: event.data)
            } catch {
                return .ignore(reason: "\(event.type) event is not JSON: \(error)", counted: true)
            }
            // CouchDB's `feed=eventsource`: its changes, as in its continuous feed.
            return CouchChanges.command(for: item, keep: keep) ?? .prependItem(item, keep: keep)
        case "status.update":
            guard let item = try? JSONValue(parsing: event.data), item.objectValue != nil else {
                return .ignore(reason: "status.update event is not a JSON object", counted: true)
            }
            return .replaceItem(item)
        case "delete":
            guard let key = Self.id(in: event.data) else {
                return .ignore(reason: "delete event names no id", counted: true)
            }
            return .removeItem(key: key)
        case "error":
            return .reportError(DocumentProtocol.describeError(event.data))
        case "monitor":
            return .ignore(reason: "monitor", counted: false)
        default:
            return nil
        }
    }

    /// An event of a name the protocol does not know.
    private mutating func named(_ event: SSEEvent) -> UpstreamCommand {
        let name = event.type
        if DocumentProtocol.livenessNames.contains(name.lowercased()) {
            return .ignore(reason: "\(name) (no item)", counted: false)
        }
        if !chosenEvents.isEmpty {
            return .ignore(
                reason: "\(name) events are not items: --event names "
                    + chosenEvents.sorted().joined(separator: ", "), counted: false)
        }
        if Self.documentTypes.contains(name) {
            return .ignore(
                reason: "\(name) events are the document protocol's, whole documents and their patches: "
                    + "feedweb reads them in --mode document", counted: true)
        }
        guard itemEvents == nil, !hasItem, !Self.mastodonsOthers.contains(name),
            let item = try? JSONValue(parsing: event.data), item.objectValue?.isEmpty == false,
            !MessageProtocol.isHeartbeat(item)
        else {
            let read =
                itemEvents.map { "\($0) events are" }
                ?? "feedweb reads message, update and notification events, and the first other events whose data is "
                + "a JSON object"
            return .ignore(reason: "\(name) events are not read in --mode append: \(read)", counted: true)
        }
        itemEvents = name
        hasItem = true
        return CouchChanges.command(for: item, keep: keep) ?? .prependItem(item, keep: keep)
    }

    /// The id a `delete` event's data names: Mastodon's bare `113000000000000001`, a JSON
    /// string's text or a whole number's digits; `nil` for anything else (an object, an
    /// empty line).
    static func id(in data: String) -> String? {
        let text = data.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { return nil }
        // Digits are the id as written, however long (a JSON number would round them).
        if text.allSatisfy({ $0.isASCII && $0.isNumber }) { return text }
        switch try? JSONValue(parsing: text) {
        case .string(let id): return id.isEmpty ? nil : id
        case .some: return nil
        case .none: return text.contains(where: { $0.isWhitespace || $0 == "{" || $0 == "[" }) ? nil : text
        }
    }
}
