import FeedCore

/// Mutates HTTP requests at random, reproducibly from a seed: bytes replaced (at random or
/// by ones that mean something to a parser: CR, LF, NUL, `:`, `%`, DEL, bytes over 0x7F),
/// inserted, deleted or repeated; tokens that change a request's meaning inserted (`%00`,
/// `../`, a second request line, another version, a header line without a colon, a huge
/// header); lines swapped; the request cut short.
///
/// The head always ends: when the mutations took its closing blank line away, CRLF CRLF is
/// appended, and when they left nothing but line breaks, the original request line is put
/// back. A head cut short is a slow client, which the server's deadlines deal with, not a
/// malformed request. For the same reason no mutation promises a body it does not send
/// (`Content-Length: 3`, `Transfer-Encoding: chunked`): libmicrohttpd waits for it.
public struct RequestMutator {
    private var random: SplitMix64

    public init(seed: UInt64) {
        random = SplitMix64(seed: seed)
    }

    static let meaningfulBytes: [UInt8] = [
        0, 9, 10, 13, 32, 0x3A, 0x25, 0x3F, 0x2F, 0x7F, 0x80, 0xC3, 0xFF, 0x22, 0x3B,
    ]
    static let tokens: [String] = [
        "%00", "%", "%zz", "%2e%2e%2f", "../", "\r\n", "\n", "\r", " ", "\t", "HTTP/2.0", "HTTP/0.9", "HTTP/1.1",
        "\r\nHost: second\r\n", "\r\nNo colon here\r\n", "\r\nContent-Length: -1\r\n",
        "\r\nContent-Length: 99999999999999999999999\r\n",
        "\r\nExpect: 100-continue\r\n", "\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n",
        "\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\n\r\n", "?section=", "&section=%ff", "/items/", "\u{FEFF}", "é",
        "\r\nLast-Event-ID: \u{0}\r\n", "\r\nAccept: application/json\r\n",
    ]

    /// `request` changed by one to four mutations, its head ended.
    public mutating func mutate(_ request: [UInt8]) -> [UInt8] {
        var bytes = request
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            mutateOnce(&bytes)
        }
        if bytes.allSatisfy({ $0 == 13 || $0 == 10 }) {
            bytes = Array(request.prefix { $0 != 13 && $0 != 10 })
        }
        let end: [UInt8] = [13, 10, 13, 10]
        if !bytes.reversed().starts(with: end.reversed()) { bytes += end }
        return bytes
    }

    private mutating func index(in bytes: [UInt8], end: Bool = false) -> Int {
        let upper = end ? bytes.count : max(0, bytes.count - 1)
        return Int.random(in: 0...upper, using: &random)
    }

    private mutating func mutateOnce(_ bytes: inout [UInt8]) {
        guard !bytes.isEmpty else {
            bytes = Array("GET / HTTP/1.1\r\n\r\n".utf8)
            return
        }
        switch Int.random(in: 0..<10, using: &random) {
        case 0:
            bytes[index(in: bytes)] = UInt8.random(in: 0...255, using: &random)
        case 1:
            bytes[index(in: bytes)] = Self.meaningfulBytes.randomElement(using: &random) ?? 0
        case 2:
            let count = Int.random(in: 1...8, using: &random)
            bytes.insert(
                contentsOf: (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) },
                at: index(in: bytes, end: true))
        case 3:
            let start = index(in: bytes)
            let end = min(bytes.count, start + Int.random(in: 1...16, using: &random))
            bytes.removeSubrange(start..<end)
        case 4:
            let start = index(in: bytes)
            let end = min(bytes.count, start + Int.random(in: 1...32, using: &random))
            bytes.insert(contentsOf: bytes[start..<end], at: end)
        case 5, 6:
            let token = Self.tokens.randomElement(using: &random) ?? ""
            bytes.insert(contentsOf: Array(token.utf8), at: index(in: bytes, end: true))
        case 7:
            // A long run: a long path, header value or header name (past the server's limits).
            let count = [100, 1_000, 5_000, 20_000, 70_000].randomElement(using: &random) ?? 100
            let runs: [UInt8] = Array("a/% ".utf8)
            let byte = runs.randomElement(using: &random) ?? runs[0]
            let at = index(in: bytes, end: true)
            bytes.insert(contentsOf: [UInt8](repeating: byte, count: count), at: at)
        case 8:
            var lines: [[UInt8]] = bytes.split(separator: 10, omittingEmptySubsequences: false).map(Array.init)
            guard lines.count > 2 else { return }
            let a = Int.random(in: 0..<lines.count, using: &random)
            let b = Int.random(in: 0..<lines.count, using: &random)
            lines.swapAt(a, b)
            bytes = Array(lines.joined(separator: [10]))
        default:
            bytes.removeSubrange(index(in: bytes, end: true)...)
        }
    }
}
