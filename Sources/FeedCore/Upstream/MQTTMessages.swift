import Foundation

/// How an MQTT broker's messages become ``UpstreamCommand``s, without I/O
/// (`--upstream mqtt://HOST/TOPIC-FILTER`, or `mqtts://`).
///
/// - `append` (`--mode append`): the topics are the items, each its latest message, as a
///   dashboard of sensors shows them: a message on `home/kitchen` is put in place of the
///   kept item with that `topic` (first when none has it). A JSON object is the item with
///   the `topic` member first (`{"topic":"home/kitchen","temperature":21.5,…}`; its own
///   `topic`, if it has one, stays as `value`'s); anything else is `{"topic":…,"value":…}`,
///   the value as JSON when it is (`21.5`, `"ON"` as text, `true`), else as text, or, not
///   UTF-8, as its size. An empty message (a retained message cleared) takes the topic out.
/// - `document` (`--mode document`): each message is a whole JSON document (one topic that
///   carries a state); one that is not JSON is counted as an upstream error.
///
/// The broker sends each topic's retained message on subscribing: the dashboard starts
/// with the state as it is.
public struct MQTTMessages: Sendable, Equatable {
    let mode: MessageProtocol.Mode

    /// Where an item keeps its topic.
    static let topicPath = JSONPointer(tokens: ["topic"])

    /// The command for a message of `payload` on `topic`.
    func command(topic: String, payload: [UInt8]) -> UpstreamCommand {
        let text = String(validating: payload, as: UTF8.self)
        let json = text.flatMap { try? JSONValue(parsing: $0) }
        switch mode {
        case .document:
            guard let json else {
                return .reportError("a message on \(DocumentProtocol.oneLine(topic)) is not JSON")
            }
            return .replaceDocument(json)
        case .append(let keep):
            if payload.isEmpty { return .removeItemByID(.string(topic), idAt: Self.topicPath) }
            let item: JSONValue
            if case .object(let members)? = json, members["topic"] == nil {
                var object: JSONObject = ["topic": .string(topic)]
                for (name, value) in members { object[name] = value }
                item = .object(object)
            } else {
                let value = json ?? text.map(JSONValue.string) ?? .string("(\(payload.count) bytes)")
                item = .object(["topic": .string(topic), "value": value])
            }
            return .putItem(item, idAt: Self.topicPath, keep: keep)
        }
    }

    /// The topic filter an `mqtt://` URL names: its path without the first `/`, percent
    /// escapes read, and its fragment after a `#` (so `mqtt://broker/sensors/#`, whose `#`
    /// a URL takes for a fragment, is `sensors/#`); `#`, every topic, when it names none.
    public static func topicFilter(of url: URL) -> String {
        let path = url.path(percentEncoded: false)
        var filter = path.hasPrefix("/") ? String(path.dropFirst()) : path
        if let fragment = url.fragment(percentEncoded: false) { filter += "#" + fragment }
        return filter.isEmpty ? "#" : filter
    }
}
