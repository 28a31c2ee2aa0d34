import FeedCore
import FuzzSupport

/// The SSE parser, fed the same stream whole and in chunks that the input chooses: the
/// events, the last event ID, the reconnection time and whether (and after which events)
/// the event size bound was hit must not depend on the chunking; the bytes held never
/// pass the bound, nor does an event's data (but for invalid UTF-8 replaced by U+FFFD).
///
/// Input: a byte `n`, then `n % 17` chunk lengths (0 is an empty chunk), a byte choosing
/// the bound (high bit set: `(byte & 0x7F) * 4` bytes, else the default 16 MiB), then the
/// stream.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSSEParser(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    var input = FuzzInput(start, count)
    let lengths = (0..<(Int(input.byte()) % 17)).map { _ in Int(input.byte()) }
    let boundByte = input.byte()
    let bound = boundByte & 0x80 != 0 ? Int(boundByte & 0x7F) * 4 : SSEParser.defaultMaxEventBytes
    let stream = input.rest()

    let whole = SSEReading(stream: stream, bound: bound, chunkLengths: [])
    let chunked = SSEReading(stream: stream, bound: bound, chunkLengths: lengths)
    invariant(whole.events == chunked.events, "events differ with chunks \(lengths)")
    invariant(whole.failed == chunked.failed, "the bound was hit in one reading only (chunks \(lengths))")
    invariant(whole.lastEventID == chunked.lastEventID, "last event ID differs with chunks \(lengths)")
    invariant(whole.reconnectionTime == chunked.reconnectionTime, "retry differs with chunks \(lengths)")
    for event in whole.events {
        // The bound counts bytes received; each invalid UTF-8 byte becomes U+FFFD (3 bytes).
        invariant(event.data.utf8.count <= 3 * bound, "an event's data is larger than the bound \(bound) allows")
        invariant(!event.id.utf8.contains(0), "an event ID holds a NUL")
    }
    return 0
}

/// One reading of a stream through a new parser, in chunks of the given lengths in turn
/// (the whole stream at once when there are none), until the end or the first error.
struct SSEReading {
    var events: [SSEEvent] = []
    var failed = false
    var lastEventID: String
    var reconnectionTime: Int?

    init(stream: [UInt8], bound: Int, chunkLengths: [Int]) {
        var parser = SSEParser(maxEventBytes: bound)
        var offset = 0
        var turn = 0
        // Lengths that are all 0 would never move on: then read a byte at a time.
        let lengths = chunkLengths.contains { $0 > 0 } ? chunkLengths : [1]
        reading: while offset < stream.count {
            let length = chunkLengths.isEmpty ? stream.count : lengths[turn % lengths.count]
            turn += 1
            let end = min(stream.count, offset + length)
            do {
                try parser.parse(stream[offset..<end], into: &events)
            } catch {
                invariant(error == .eventTooLarge(limit: bound), "unexpected error \(error)")
                failed = true
                break reading
            }
            invariant(parser.bufferedByteCount <= bound, "holds \(parser.bufferedByteCount) bytes, bound \(bound)")
            offset = end
        }
        parser.finish()
        lastEventID = parser.lastEventID
        reconnectionTime = parser.reconnectionTime
        do {
            _ = try parser.parse([UInt8(ascii: "\n")])
            invariant(false, "parse after finish did not throw")
        } catch {
            invariant(failed || error == .parseAfterFinish, "parse after finish threw \(error)")
        }
    }
}
