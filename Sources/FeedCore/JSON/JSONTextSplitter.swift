/// An incremental splitter of a stream of JSON texts over HTTP into the texts: bytes in,
/// one `[UInt8]` per text out, not parsed. The streams people bring:
///
/// - newline-delimited JSON (`application/x-ndjson`, JSON Lines), as ntfy's `/json`,
///   Ollama or a CouchDB `_changes?feed=continuous` send it: one text per line;
/// - JSON text sequences (RFC 7464, `application/json-seq`): a record separator (0x1E)
///   before each text;
/// - a streamed `application/json` body, as a Kubernetes watch or Docker's `/events` send
///   it: one value after another, compact on a line each, or pretty-printed over many.
///
/// In ``Framing/lines`` a line feed outside a string ends a text whatever its nesting,
/// so one broken line costs that line only. In ``Framing/values`` a text ends where its
/// value ends: an object or array when its brackets balance (line feeds inside belong to
/// it), a string at its closing quote, a number or literal at the next white space. In
/// both, a record separator ends a text (RFC 7464: it cannot appear inside one), white
/// space between texts is skipped, and so is one UTF-8 BOM at the very start.
///
/// The texts never depend on how the bytes are split into chunks. Memory is bounded by
/// ``maxTextBytes``: a text longer than that throws ``JSONTextSplitterError/textTooLarge(limit:)``,
/// after the texts completed before it in the same chunk were appended.
public struct JSONTextSplitter: Sendable {
    /// How texts are delimited.
    public enum Framing: Sendable, Equatable {
        /// One text per line (NDJSON, JSON Lines, JSON text sequences).
        case lines
        /// One text per JSON value, however many lines it spans.
        case values
    }

    public let framing: Framing
    /// The most bytes one text may have.
    public let maxTextBytes: Int

    /// The bytes of the text being read.
    private var text: [UInt8] = []
    /// Open objects and arrays of the text being read (``Framing/values`` only).
    private var depth = 0
    private var inString = false
    /// The previous byte was a backslash inside a string.
    private var escaped = false
    /// How many bytes of a leading BOM (EF BB BF) were seen; 3 once the start is past.
    private var bomSeen = 0

    public init(framing: Framing, maxTextBytes: Int) {
        self.framing = framing
        self.maxTextBytes = max(1, maxTextBytes)
    }

    /// Splits `chunk`, appending each text it completes to `texts`.
    public mutating func split(_ chunk: UnsafeRawBufferPointer, into texts: inout [[UInt8]])
        throws(JSONTextSplitterError)
    {
        for byte in chunk {
            if bomSeen < 3 {
                if byte == Self.bom[bomSeen] {
                    bomSeen += 1
                    continue
                }
                // Not a BOM after all: the bytes taken for one belong to the text.
                text.append(contentsOf: Self.bom[0..<bomSeen])
                bomSeen = 3
            }
            try take(byte, into: &texts)
        }
    }

    /// Ends the stream: the text being read, if it has anything but white space, is the
    /// last one (a final line without its line feed, or a value cut off, which then fails
    /// to parse and is counted).
    public mutating func finish(into texts: inout [[UInt8]]) {
        if bomSeen < 3 {
            text.append(contentsOf: Self.bom[0..<bomSeen])
            bomSeen = 3
        }
        end(into: &texts)
    }

    private static let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
    private static let recordSeparator: UInt8 = 0x1E
    private static let lineFeed = UInt8(ascii: "\n")

    private mutating func take(_ byte: UInt8, into texts: inout [[UInt8]]) throws(JSONTextSplitterError) {
        if byte == Self.recordSeparator {
            end(into: &texts)
            return
        }
        if inString {
            try append(byte)
            if escaped {
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else if byte == UInt8(ascii: "\"") {
                inString = false
                if framing == .values && depth == 0 { end(into: &texts) }
            } else if byte == Self.lineFeed && framing == .lines {
                // A raw line feed cannot be in a string: the line was broken; it ends here.
                text.removeLast()
                end(into: &texts)
            }
            return
        }
        switch byte {
        case Self.lineFeed:
            if framing == .lines || depth == 0 { end(into: &texts) } else { try append(byte) }
        case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
            if framing == .values && depth == 0 {
                end(into: &texts)
            } else if !text.isEmpty {
                try append(byte)
            }
        case UInt8(ascii: "\""):
            try append(byte)
            inString = true
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            if framing == .values && depth == 0 && !text.isEmpty { end(into: &texts) }
            try append(byte)
            depth += 1
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
            try append(byte)
            depth -= 1
            if framing == .values && depth <= 0 { end(into: &texts) }
        default:
            try append(byte)
        }
    }

    private mutating func append(_ byte: UInt8) throws(JSONTextSplitterError) {
        guard text.count < maxTextBytes else {
            text = []
            depth = 0
            inString = false
            escaped = false
            throw .textTooLarge(limit: maxTextBytes)
        }
        text.append(byte)
    }

    /// Hands on the text being read, if any, and starts the next.
    private mutating func end(into texts: inout [[UInt8]]) {
        if !text.isEmpty {
            texts.append(text)
            text.removeAll(keepingCapacity: text.capacity <= 256 * 1024)
        }
        depth = 0
        inString = false
        escaped = false
    }
}
