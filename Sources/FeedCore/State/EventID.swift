/// feedweb's own SSE event id, `EPOCH-SEQ`.
///
/// `epoch` is random per process start, so an id handed out by an earlier process (or
/// another instance) never matches this one's history; `seq` counts accepted changes
/// from 1.
public struct EventID: Hashable, Sendable, CustomStringConvertible {
    /// The process's random epoch: lowercase letters and digits, no `-`.
    public let epoch: String
    /// The sequence number of the change this id names.
    public let seq: UInt64

    public init(epoch: String, seq: UInt64) {
        self.epoch = epoch
        self.seq = seq
    }

    /// Parses `EPOCH-SEQ` exactly as ``description`` writes it (SEQ in decimal digits, no
    /// sign, no leading zero); `nil` for anything else (ids from other sources are opaque).
    public init?(parsing text: String) {
        guard let dash = text.lastIndex(of: "-") else { return nil }
        let epoch = text[..<dash]
        let digits = text[text.index(after: dash)...]
        guard Self.isValidEpoch(epoch), !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
            digits == "0" || digits.first != "0", let seq = UInt64(digits)
        else { return nil }
        self.epoch = String(epoch)
        self.seq = seq
    }

    public var description: String { "\(epoch)-\(seq)" }

    /// Whether `text` can be an epoch: ASCII letters and digits only, at least one.
    public static func isValidEpoch(_ text: some StringProtocol) -> Bool {
        !text.isEmpty && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
    }

    /// A new random epoch of 10 base-36 characters.
    public static func randomEpoch() -> String {
        let alphabet = Array("0123456789abcdefghijklmnopqrstuvwxyz")
        var generator = SystemRandomNumberGenerator()
        return String((0..<10).map { _ in alphabet[Int(generator.next(upperBound: UInt64(alphabet.count)))] })
    }
}
