/// A JSON-RPC 2.0 notification, what a subscription over JSON-RPC sends
/// (`{"jsonrpc":"2.0","method":…,"params":{…}}`, no `id`), read as the data it carries:
/// - an Ethereum node's `eth_subscription` (`eth_subscribe` to `newHeads`, `logs`, …):
///   `params.result`, a block header or a log;
/// - Deribit's `subscription`: `params.data`, a ticker or a list of trades, its kind
///   `params.channel` (`ticker.BTC-PERPETUAL.100ms`);
/// - Solana's `…Notification`s: `params.result` (a slot, an account's value with its context);
/// - any other notification: its `params` when they are an object.
///
/// Its kinds (for `--event`) are its method and its params' `channel`. An answer to a
/// request (with an `id`) is none: ``MessageProtocol/isSubscriptionAnswer(_:)`` reads it.
struct JSONRPCNotification: Equatable {
    /// What the notification carries.
    let value: JSONValue
    /// Its method, and the channel its params name when they do.
    let kinds: [String]

    /// The notification `message` is, or `nil` when it is none: an object of `jsonrpc`
    /// `2.0`, a text `method` and `params`, and no `id`.
    init?(_ message: JSONValue) {
        guard let members = message.objectValue, members["jsonrpc"] == .string("2.0"), members["id"] == nil,
            let method = members["method"]?.stringValue, let params = members["params"]
        else { return nil }
        let carried = params["result"] ?? params["data"] ?? (params.objectValue != nil ? params : nil)
        guard let carried else { return nil }
        value = carried
        kinds = [method] + [params["channel"]?.stringValue].compactMap { $0 }
    }
}
