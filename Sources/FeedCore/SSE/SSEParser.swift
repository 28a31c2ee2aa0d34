/// An incremental parser for a Server-Sent Events stream (WHATWG HTML 9.2.5 / 9.2.6):
/// bytes in, ``SSEEvent``s out.
///
/// Feed the bytes of one connection in the order they arrive, in chunks of any size
/// (empty chunks included), then call ``finish()`` when the connection ends:
///
/// ```swift
/// var parser = SSEParser()
/// var events: [SSEEvent] = []
/// for chunk in chunks {
///     events.removeAll(keepingCapacity: true)
///     try chunk.withUnsafeBytes { try parser.parse($0, into: &events) }
///     for event in events { handle(event) }
/// }
/// parser.finish()
/// ```
///
/// The primary API is ``parse(_:into:)-(UnsafeRawBufferPointer,_)``: it appends the
/// events completed by the chunk to the caller's array, so the array can be reused and
/// events completed before an error are not lost. ``parse(_:)-(UnsafeRawBufferPointer)``
/// and the `Collection<UInt8>` overloads are conveniences over it.
///
/// The result never depends on how the bytes are split into chunks: lines are split on
/// bytes (CRLF, LF, or a lone CR, with a CR at the end of a chunk remembered so that an
/// LF starting the next chunk is swallowed), and UTF-8 is decoded only once a line's or
/// an event's bytes are all together, with invalid sequences replaced by U+FFFD per
/// maximal subpart. One BOM (EF BB BF) is skipped when it is the very first thing in the
/// stream, even when it is split across chunks.
///
/// Memory is bounded by ``maxEventBytes``: the bytes of the line being read plus the
/// data of the event being built may not exceed it, or `parse` throws
/// ``SSEParserError/eventTooLarge(limit:)``. After an event larger than 256 KiB the
/// parser gives its buffers back instead of keeping their capacity.
///
/// A reconnection needs a new parser that remembers the last event ID and reconnection
/// time: ``parserForReconnection()``, or
/// `SSEParser(lastEventID: old.lastEventID, reconnectionTime: old.reconnectionTime)`, or
/// a new parser and ``resume(lastEventID:)``.
public struct SSEParser: Sendable {
    /// The default bound for ``maxEventBytes``: 16 MiB.
    public static let defaultMaxEventBytes = 16 * 1024 * 1024

    /// The most bytes that the current line plus the data buffer of the event being
    /// built may hold.
    public let maxEventBytes: Int

    /// The **last event ID buffer**: the value of the last valid `id:` line, updated as
    /// soon as that line ends, even if its event is never dispatched.
    public private(set) var lastEventIDBuffer: String

    /// The **last event ID string**: ``lastEventIDBuffer`` as committed at the last blank
    /// line (also one that dispatched nothing). This is what a client sends as
    /// `Last-Event-ID` when it reconnects.
    public private(set) var lastEventID: String

    /// The reconnection time in milliseconds set by the last valid `retry:` line, or
    /// `nil` if the stream never set one. Takes effect when the line ends, not at
    /// dispatch. Values beyond `Int.max` are clamped to `Int.max`.
    public private(set) var reconnectionTime: Int?

    /// The number of bytes given to `parse` so far (BOM included).
    public private(set) var bytesConsumed: Int = 0

    /// The bytes of an unfinished line, carried from one chunk to the next.
    private var lineBuffer: [UInt8] = []
    /// The data buffer of the event being built, `dataBuffer[dataStart...]`: each `data:`
    /// value followed by an LF. `dataStart` is not 0 only when the first data line of the
    /// event arrived in pieces: then its line buffer became the data buffer, with the
    /// field name still in front, which saves copying a long value.
    private var dataBuffer: [UInt8] = []
    private var dataStart = 0
    /// The number of bytes in the data buffer.
    private var dataCount: Int { dataBuffer.count &- dataStart }
    /// The event type buffer; empty means `message`.
    private var eventType: String = ""
    /// The last chunk ended in a CR: an LF at the start of the next chunk belongs to it.
    private var pendingCR = false
    /// Nothing but (part of) a BOM has been seen yet.
    private var atStreamStart = true
    /// How many bytes of EF BB BF have been seen at the start of the stream.
    private var bomBytesSeen = 0
    private var state: State = .active

    private enum State: Sendable {
        case active
        case finished
        case failed
    }

    /// Buffers whose capacity grew beyond this are released after use, not kept.
    static let retainedCapacityLimit = 256 * 1024

    /// A parser for a new stream.
    ///
    /// - Parameters:
    ///   - maxEventBytes: the bound on the current line plus the data of the event
    ///     being built (negative values count as 0).
    ///   - lastEventID: the last event ID of an earlier connection to the same source;
    ///     it seeds both ``lastEventIDBuffer`` and ``lastEventID``, so events of the new
    ///     stream without an `id:` line keep carrying it.
    ///   - reconnectionTime: a reconnection time set by an earlier connection.
    public init(
        maxEventBytes: Int = SSEParser.defaultMaxEventBytes,
        lastEventID: String = "",
        reconnectionTime: Int? = nil
    ) {
        self.maxEventBytes = max(0, maxEventBytes)
        self.lastEventIDBuffer = lastEventID
        self.lastEventID = lastEventID
        self.reconnectionTime = reconnectionTime
    }

    /// A fresh parser for the next connection to the same source: same limit, and the
    /// last event ID string and reconnection time of this one. An `id:` that was read
    /// but never committed by a blank line is not carried over.
    public func parserForReconnection() -> SSEParser {
        SSEParser(
            maxEventBytes: maxEventBytes,
            lastEventID: lastEventID,
            reconnectionTime: reconnectionTime
        )
    }

    /// Seeds the last event ID, as `init(lastEventID:)` does: sets both
    /// ``lastEventIDBuffer`` and ``lastEventID``. Meant for a new parser that reads a
    /// reconnection, before its first byte: events of the new stream without an `id:`
    /// line then carry `lastEventID`.
    public mutating func resume(lastEventID: String) {
        lastEventIDBuffer = lastEventID
        self.lastEventID = lastEventID
    }

    /// The bytes held for the unfinished line and event (at most ``maxEventBytes``).
    public var bufferedByteCount: Int {
        lineBuffer.count + dataCount
    }

    /// The capacity of the parser's internal buffers, in bytes; for diagnostics.
    public var bufferCapacity: Int {
        lineBuffer.capacity + dataBuffer.capacity
    }

    // MARK: - Input

    /// Parses the next chunk of the stream and appends the events it completes to
    /// `events`. This is the primary API.
    ///
    /// On error, the events completed by this chunk before the offending line are
    /// already in `events`.
    public mutating func parse(
        _ bytes: UnsafeRawBufferPointer,
        into events: inout [SSEEvent]
    ) throws(SSEParserError) {
        switch state {
        case .active: break
        case .finished: throw .parseAfterFinish
        case .failed: throw .eventTooLarge(limit: maxEventBytes)
        }
        let count = bytes.count
        bytesConsumed &+= count
        guard count > 0, let base = bytes.baseAddress else { return }

        var i = 0
        if atStreamStart {
            i = skipBOM(base, count)
            if atStreamStart { return }
        }
        if pendingCR, i < count {
            pendingCR = false
            if base.load(fromByteOffset: i, as: UInt8.self) == SSEByteScan.lf { i &+= 1 }
        }

        let limit = maxEventBytes
        while i < count {
            let lineEnd = SSEByteScan.firstLineBreak(base, from: i, to: count)
            let length = lineEnd &- i
            if lineEnd == count {
                // An unfinished line: keep its bytes for the next chunk.
                if lineBuffer.count + length > limit &- dataCount {
                    throw fail()
                }
                lineBuffer.append(contentsOf: UnsafeRawBufferPointer(start: base + i, count: length))
                return
            }
            if lineBuffer.isEmpty {
                if length > limit &- dataCount { throw fail() }
                processLine(UnsafeRawBufferPointer(start: base + i, count: length), into: &events)
            } else {
                if lineBuffer.count + length > limit &- dataCount { throw fail() }
                var line: [UInt8] = []
                swap(&line, &lineBuffer)
                line.append(contentsOf: UnsafeRawBufferPointer(start: base + i, count: length))
                if dataCount == 0, let valueStart = line.withUnsafeBytes(Self.dataValueStart) {
                    // The event's first data line: adopt its bytes as the data buffer.
                    swap(&line, &dataBuffer)
                    dataStart = valueStart
                    dataBuffer.append(SSEByteScan.lf)
                } else {
                    line.withUnsafeBytes { processLine($0, into: &events) }
                }
                line.removeAll(keepingCapacity: line.capacity <= Self.retainedCapacityLimit)
                swap(&line, &lineBuffer)
            }
            i = lineEnd &+ 1
            if base.load(fromByteOffset: lineEnd, as: UInt8.self) == SSEByteScan.cr {
                if i < count {
                    if base.load(fromByteOffset: i, as: UInt8.self) == SSEByteScan.lf { i &+= 1 }
                } else {
                    pendingCR = true
                }
            }
        }
    }

    /// Parses the next chunk of the stream and returns the events it completes.
    ///
    /// On error, events completed by this chunk before the offending line are lost;
    /// use ``parse(_:into:)-(UnsafeRawBufferPointer,_)`` to keep them.
    public mutating func parse(_ bytes: UnsafeRawBufferPointer) throws(SSEParserError) -> [SSEEvent] {
        var events: [SSEEvent] = []
        try parse(bytes, into: &events)
        return events
    }

    /// Parses the next chunk of the stream (any byte collection: `[UInt8]`, `Data`,
    /// `ArraySlice<UInt8>`, …) and appends the events it completes to `events`.
    public mutating func parse(
        _ bytes: some Collection<UInt8>,
        into events: inout [SSEEvent]
    ) throws(SSEParserError) {
        var failure: SSEParserError?
        let done: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            do throws(SSEParserError) {
                try parse(UnsafeRawBufferPointer(buffer), into: &events)
            } catch {
                failure = error
            }
        }
        if done == nil {
            // Not contiguous (a lazy or linked collection): parse a contiguous copy.
            try parse(Array(bytes), into: &events)
            return
        }
        if let failure { throw failure }
    }

    /// Parses the next chunk of the stream (any byte collection) and returns the events
    /// it completes.
    public mutating func parse(_ bytes: some Collection<UInt8>) throws(SSEParserError) -> [SSEEvent] {
        var events: [SSEEvent] = []
        try parse(bytes, into: &events)
        return events
    }

    /// Ends the stream: an unfinished line is discarded without being processed, and an
    /// event without its closing blank line is not dispatched. (A CR that was the last
    /// byte already ended its line.) The last event ID and reconnection time stay.
    /// Calling `parse` afterwards throws ``SSEParserError/parseAfterFinish``.
    public mutating func finish() {
        if state == .active { state = .finished }
        releaseBuffers()
        pendingCR = false
    }

    // MARK: - Lines

    /// Skips the BOM at the very start of the stream; returns where parsing continues.
    /// Bytes that start like a BOM but turn out not to be one are ordinary line bytes.
    private mutating func skipBOM(_ base: UnsafeRawPointer, _ count: Int) -> Int {
        var i = 0
        while i < count {
            let expected: UInt8 = bomBytesSeen == 0 ? 0xEF : (bomBytesSeen == 1 ? 0xBB : 0xBF)
            guard base.load(fromByteOffset: i, as: UInt8.self) == expected else {
                if bomBytesSeen > 0 { lineBuffer.append(0xEF) }
                if bomBytesSeen > 1 { lineBuffer.append(0xBB) }
                atStreamStart = false
                return i
            }
            bomBytesSeen &+= 1
            i &+= 1
            if bomBytesSeen == 3 {
                atStreamStart = false
                return i
            }
        }
        return i
    }

    /// Processes one complete line (without its line end).
    @inline(__always)
    private mutating func processLine(_ line: UnsafeRawBufferPointer, into events: inout [SSEEvent]) {
        let n = line.count
        guard n > 0 else {
            dispatch(into: &events)
            return
        }
        switch line[0] {
        case 0x64:  // d
            guard let start = Self.dataValueStart(line) else { return }
            dataBuffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: line[start...]))
            dataBuffer.append(SSEByteScan.lf)
        case 0x65:  // e
            guard n >= 5, line[1] == 0x76, line[2] == 0x65, line[3] == 0x6E, line[4] == 0x74,  // vent
                let value = Self.value(of: line, nameLength: 5)
            else { return }
            eventType = String(decoding: value, as: UTF8.self)
        case 0x69:  // i
            guard n >= 2, line[1] == 0x64,  // d
                let value = Self.value(of: line, nameLength: 2)
            else { return }
            if value.contains(0) { return }
            lastEventIDBuffer = String(decoding: value, as: UTF8.self)
        case 0x72:  // r
            guard n >= 5, line[1] == 0x65, line[2] == 0x74, line[3] == 0x72, line[4] == 0x79,  // etry
                let value = Self.value(of: line, nameLength: 5),
                let milliseconds = Self.retryValue(value)
            else { return }
            reconnectionTime = milliseconds
        default:
            // A comment (":") or a field this parser ignores.
            return
        }
    }

    /// Where the value of a `data` field line starts, or `nil` for any other line.
    @inline(__always)
    private static func dataValueStart(_ line: UnsafeRawBufferPointer) -> Int? {
        let n = line.count
        guard n >= 4, line[0] == 0x64, line[1] == 0x61, line[2] == 0x74, line[3] == 0x61 else { return nil }
        if n == 4 { return 4 }
        guard line[4] == 0x3A else { return nil }
        return n > 5 && line[5] == 0x20 ? 6 : 5
    }

    /// The value of a field line whose first `nameLength` bytes are a known field name,
    /// or `nil` when the name goes on (the line is another, unknown field).
    @inline(__always)
    private static func value(of line: UnsafeRawBufferPointer, nameLength: Int) -> UnsafeRawBufferPointer? {
        let n = line.count
        if n == nameLength { return UnsafeRawBufferPointer(rebasing: line[n..<n]) }
        guard line[nameLength] == 0x3A else { return nil }  // ":"
        var start = nameLength &+ 1
        if start < n, line[start] == 0x20 { start &+= 1 }  // one optional space
        return UnsafeRawBufferPointer(rebasing: line[start..<n])
    }

    /// A `retry` value: ASCII digits only (at least one), clamped to `Int.max`.
    private static func retryValue(_ value: UnsafeRawBufferPointer) -> Int? {
        guard !value.isEmpty else { return nil }
        var result = 0
        var overflow = false
        for byte in value {
            let digit = byte &- 0x30
            guard digit < 10 else { return nil }
            if !overflow {
                let (times10, o1) = result.multipliedReportingOverflow(by: 10)
                let (sum, o2) = times10.addingReportingOverflow(Int(digit))
                if o1 || o2 { overflow = true } else { result = sum }
            }
        }
        return overflow ? Int.max : result
    }

    /// The steps to dispatch the event, at a blank line.
    @inline(__always)
    private mutating func dispatch(into events: inout [SSEEvent]) {
        lastEventID = lastEventIDBuffer
        guard dataCount > 0 else {
            eventType = ""
            return
        }
        let data = dataBuffer.withUnsafeBytes { buffer in
            // Without the trailing LF.
            String(decoding: UnsafeRawBufferPointer(rebasing: buffer[dataStart..<(buffer.count &- 1)]), as: UTF8.self)
        }
        events.append(SSEEvent(type: eventType.isEmpty ? "message" : eventType, data: data, id: lastEventID))
        dataBuffer.removeAll(keepingCapacity: dataBuffer.capacity <= Self.retainedCapacityLimit)
        dataStart = 0
        eventType = ""
    }

    // MARK: - Failure

    private mutating func fail() -> SSEParserError {
        state = .failed
        releaseBuffers()
        return .eventTooLarge(limit: maxEventBytes)
    }

    private mutating func releaseBuffers() {
        lineBuffer = []
        dataBuffer = []
        dataStart = 0
        eventType = ""
    }
}
