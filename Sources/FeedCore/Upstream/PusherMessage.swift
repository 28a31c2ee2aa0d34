/// One message of a Pusher Channels server (Pusher itself, Laravel Reverb, Soketi: the
/// protocol pusher-js speaks at `/app/KEY?protocol=7`), read from its JSON. Pure:
/// ``MessageProtocol`` reads it, the WebSocket transport sends ``pongText`` back.
///
/// Every message is an object with a text `event`:
/// - `pusher:connection_established`, `pusher:pong`, `pusher_internal:…` (a subscription
///   succeeded, a presence member added or removed): the server's own, no item;
/// - `pusher:ping`: which the client must answer with `pusher:pong`, or be dropped (close
///   code 4201);
/// - `pusher:error` and `pusher:subscription_error`: `{"message":…,"code":…}` in `data`
///   (an object, or its JSON text);
/// - any other event is the application's: `{"event":"App\\Events\\PriceUpdated",
///   "channel":"prices","data":"{\"symbol\":\"BTC\",…}"}`, its `data` the JSON text of what
///   was broadcast (a `user_id` beside it on a presence channel). The text is read as
///   JSON; text that is not JSON stays the text.
///
/// A message is Pusher's when its event is one of the server's own, or when it has exactly
/// these members and its `data` is text, so no other feed's message is taken for one (a
/// Mastodon envelope has a `payload`, a Bitstamp message an object in `data`).
enum PusherMessage: Equatable {
    /// The server's own message, no item.
    case own
    /// The server's ping, which ``pongText`` answers.
    case ping
    /// An error, in words (`CODE: message`).
    case error(String)
    /// The application's event `name` on `channel`, its data read as JSON.
    case event(name: String, channel: String?, value: JSONValue)

    /// The answer to the server's ping.
    static let pongText = #"{"event":"pusher:pong","data":{}}"#

    /// The members of an application's event.
    private static let eventMembers: Set<String> = ["event", "channel", "data", "user_id"]

    /// The message `value` is, or `nil` when it is not a Pusher server's.
    init?(_ value: JSONValue) {
        guard let members = value.objectValue, let name = members["event"]?.stringValue, !name.isEmpty else {
            return nil
        }
        if name.hasPrefix("pusher:") || name.hasPrefix("pusher_internal:") {
            switch name {
            case "pusher:ping": self = .ping
            case "pusher:error", "pusher:subscription_error": self = .error(Self.problem(members["data"]))
            default: self = .own
            }
            return
        }
        guard case .string(let data)? = members["data"], members.keys.allSatisfy(Self.eventMembers.contains) else {
            return nil
        }
        let parsed = (try? JSONValue(parsing: data)) ?? .string(data)
        self = .event(name: name, channel: members["channel"]?.stringValue, value: parsed)
    }

    /// Whether the event `name` is one of `chosen` (`--event`): by its whole name, or, for a
    /// Laravel event broadcast by its class (`App\Events\PriceUpdated`), by the class's own
    /// name (`PriceUpdated`), as Laravel Echo listens to it.
    static func isChosen(_ name: String, in chosen: Set<String>) -> Bool {
        if chosen.contains(name) { return true }
        guard let slash = name.lastIndex(of: "\\") else { return false }
        return chosen.contains(String(name[name.index(after: slash)...]))
    }

    /// An error's `data` in words, `CODE: message`, from an object or its JSON text:
    /// `pusher:error`'s `code` and `message`, `pusher:subscription_error`'s `status` and
    /// `error`.
    private static func problem(_ data: JSONValue?) -> String {
        var data = data ?? .null
        if case .string(let text) = data, let parsed = try? JSONValue(parsing: text) { data = parsed }
        let message =
            ItemExtractor.text(data["message"]) ?? ItemExtractor.text(data["error"]) ?? ItemExtractor.text(data)
            ?? "an error"
        let code = (ItemExtractor.text(data["code"]) ?? ItemExtractor.text(data["status"])).map { "\($0): " } ?? ""
        return code + DocumentProtocol.oneLine(message)
    }
}
