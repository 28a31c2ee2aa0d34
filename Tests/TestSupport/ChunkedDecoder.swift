/// `Transfer-Encoding: chunked`, decoded from whatever pieces arrive: a piece may end
/// anywhere (inside a size line, a chunk or its CRLF) and nothing is lost.
public struct ChunkedDecoder: Sendable {
    private enum Phase {
        case size
        case data(remaining: Int)
        case dataEnd(remaining: Int)
        case trailer
        case done
    }

    public struct Malformed: Error, CustomStringConvertible {
        public let line: String
        public var description: String { "malformed chunk size line: \(line)" }
    }

    private var phase = Phase.size
    private var line: [UInt8] = []
    /// The number of data chunks seen so far (the final, empty one not counted).
    public private(set) var chunkCount = 0

    public init() {}

    /// Whether the last chunk and the trailer have been seen.
    public var finished: Bool {
        if case .done = phase { return true }
        return false
    }

    /// Feeds raw bytes; returns the body bytes they complete. Bytes after the end are
    /// ignored.
    public mutating func feed(_ bytes: [UInt8]) throws -> [UInt8] {
        var out: [UInt8] = []
        var index = 0
        while index < bytes.count {
            switch phase {
            case .size, .trailer:
                let byte = bytes[index]
                index += 1
                if byte != 10 {
                    if byte != 13 { line.append(byte) }
                    continue
                }
                let text = String(decoding: line, as: UTF8.self)
                line.removeAll()
                if case .trailer = phase {
                    if text.isEmpty { phase = .done }
                    continue
                }
                let sizeText = text.split(separator: ";").first.map(String.init) ?? ""
                guard let size = Int(sizeText.trimmingSpaces, radix: 16), size >= 0 else {
                    throw Malformed(line: text)
                }
                if size > 0 { chunkCount += 1 }
                phase = size == 0 ? .trailer : .data(remaining: size)
            case .data(let remaining):
                let count = min(remaining, bytes.count - index)
                out += bytes[index..<(index + count)]
                index += count
                phase = remaining == count ? .dataEnd(remaining: 2) : .data(remaining: remaining - count)
            case .dataEnd(let remaining):
                // A chunk's data ends with exactly CRLF: anything else means its size line
                // did not tell its length.
                let expected: UInt8 = remaining == 2 ? 13 : 10
                guard bytes[index] == expected else {
                    throw Malformed(line: "chunk data not followed by CRLF (byte \(bytes[index]))")
                }
                index += 1
                phase = remaining == 1 ? .size : .dataEnd(remaining: remaining - 1)
            case .done:
                return out
            }
        }
        return out
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        String(self.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
