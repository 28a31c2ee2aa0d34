/// What `Fuzz/`'s targets drive of an MQTT broker's bytes, reachable only through
/// `@_spi(Fuzzing) import FeedCore`: not API, and nothing else in the package uses it.
@_spi(Fuzzing)
public enum MQTTFuzzing {
    /// What reading `bytes` as a broker's gives: each packet in words, each message's
    /// command (as ``MQTTMessages`` in `mode` makes it), and the error that ended the
    /// reading, if any; the bytes arriving `piece` at a time.
    public static func read(_ bytes: [UInt8], piece: Int, limit: Int, mode: MessageProtocol.Mode)
        -> (packets: [String], commands: [UpstreamCommand], error: String?)
    {
        var reader = MQTTPacketReader(limit: limit)
        let messages = MQTTMessages(mode: mode)
        var packets: [String] = []
        var commands: [UpstreamCommand] = []
        var start = 0
        do {
            while start < bytes.count {
                let end = min(bytes.count, start + max(1, piece))
                reader.append(bytes[start..<end])
                start = end
                while let packet = try reader.next() {
                    packets.append(String(describing: packet))
                    if case .publish(let topic, let payload, _, _, _) = packet {
                        commands.append(messages.command(topic: topic, payload: payload))
                    }
                }
            }
        } catch {
            return (packets, commands, error.description)
        }
        return (packets, commands, nil)
    }
}
