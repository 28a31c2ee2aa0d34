/// Home Assistant's WebSocket API (`ws://HOST:8123/api/websocket`), read in append mode once
/// asked with `--send`: its `auth` message with an access token, then a `subscribe_events`
/// (`{"id":1,"type":"subscribe_events","event_type":"state_changed"}`). Its messages:
///
/// - `auth_required`, `auth_ok`: the handshake; neither an item nor counted;
/// - `auth_invalid`: shown as upstream's error (`auth_invalid: Invalid access token or
///   password`);
/// - `result`: the answer to a request; one that did not succeed is shown as upstream's
///   error (`result 1: unknown_command: Unknown command.`). The answer to `get_states` (a
///   list of every entity's state, sent before the `subscribe_events` so that the page
///   starts with them all) puts each state in place of the kept one of its entity;
/// - `event` of `state_changed`: the entity's new state, `{"entity_id":…,"state":…,
///   "attributes":{…},…}`, in place of the kept state of that entity (``idPath``), or first
///   when none is kept; a `null` new state (the entity was removed) takes the kept one out;
/// - `event` of any other kind (a `subscribe_events` without an `event_type`): the event
///   itself, first.
///
/// Any other message is not Home Assistant's (``commands(for:keep:)`` returns `nil`).
enum HomeAssistantEvents {
    /// What one of its events read in document mode is shown as: the way to read them.
    static let inDocumentMode =
        "a Home Assistant event, not a document: --mode append keeps the entities' states in step"

    /// Where an entity's state keeps the entity's id.
    static let idPath = JSONPointer(tokens: ["entity_id"])

    /// The members each kind of message may have, by its `type`.
    static let memberNames: [String: Set<String>] = [
        "auth_required": ["type", "ha_version"], "auth_ok": ["type", "ha_version"],
        "auth_invalid": ["type", "message"], "result": ["id", "type", "success", "result", "error"],
        "event": ["id", "type", "event"],
    ]

    /// The commands for `message`, or `nil` when it is none of the API's messages: an object
    /// of nothing but its members, whose `type` is `auth_required`, `auth_ok` or
    /// `auth_invalid`, or a `result` or an `event` (with its `event_type`) beside the
    /// request's `id`. A feed's own item that says `"type":"event"` among members of its own
    /// is not one.
    static func commands(for message: JSONValue, keep: Int) -> [UpstreamCommand]? {
        guard let members = message.objectValue, let type = members["type"]?.stringValue,
            let names = memberNames[type], members.keys.allSatisfy(names.contains)
        else { return nil }
        switch type {
        case "auth_required", "auth_ok":
            return [.ignore(reason: "Home Assistant's \(type)", counted: false)]
        case "auth_invalid":
            return [
                .reportError("auth_invalid: " + DocumentProtocol.oneLine(ItemExtractor.text(members["message"]) ?? ""))
            ]
        case "result" where members["id"] != nil && members["success"]?.boolValue != nil:
            guard members["success"]?.boolValue == true else {
                let error = members["error"]
                let words = [ItemExtractor.text(error?["code"]), ItemExtractor.text(error?["message"])]
                let id = ItemExtractor.text(members["id"]) ?? ""
                return [
                    .reportError(
                        "result \(id): " + DocumentProtocol.oneLine(words.compactMap { $0 }.joined(separator: ": ")))
                ]
            }
            // `get_states`' answer: every entity's state, the last first: each new one goes
            // first, so the page lists them in Home Assistant's order.
            let states = members["result"]?.arrayValue?.filter { $0[idPath.tokens[0]]?.stringValue != nil } ?? []
            guard !states.isEmpty else { return [.ignore(reason: "Home Assistant's answer", counted: false)] }
            return states.reversed().map { .putItem($0, idAt: idPath, keep: keep) }
        case "event" where members["id"] != nil:
            guard let event = members["event"], event["event_type"]?.stringValue != nil else { return nil }
            guard event["event_type"]?.stringValue == "state_changed", let data = event["data"],
                let entity = data["entity_id"], entity.stringValue != nil
            else { return [.prependItem(event, keep: keep)] }
            if let state = data["new_state"], state.objectValue != nil {
                return [.putItem(state, idAt: idPath, keep: keep)]
            }
            return [.removeItemByID(entity, idAt: idPath)]
        default:
            return nil
        }
    }
}
