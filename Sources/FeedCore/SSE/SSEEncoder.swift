/// Builds Server-Sent Events wire bytes (UTF-8) that any conforming parser, ``SSEParser``
/// included, reads back as the values given.
///
/// Every function comes in two forms: one returning a new `[UInt8]`, and one appending
/// to an existing buffer (`into:`), which is the faster one for writing many events into
/// one output buffer.
///
/// Rules:
/// - **data**: every line break of `data` (CRLF, LF or a lone CR, CRLF counting as one)
///   starts a new `data:` line, so the receiver's data equals the input with its line
///   breaks turned into LF (the receiver joins `data:` lines with LF; SSE cannot carry a
///   CR in data). A trailing line break gives a last, empty `data:` line, and empty
///   `data` gives one empty `data:` line, so the event is still dispatched.
/// - **type** and **id** are single-line values: CR and LF are removed from them (they
///   would end the line early and let the value inject fields); NUL is also removed
///   from `id`, because a receiver ignores an `id` containing NUL. `nil` writes no line;
///   an empty or `nil` type means `message`; an empty `id` resets the receiver's last
///   event ID, a `nil` id keeps it.
/// - One space always follows the colon of a non-empty value, so values that start with
///   a space come through intact (the receiver strips exactly one space).
public enum SSEEncoder {
    // MARK: Events

    /// The wire bytes of one event, ending with the blank line that dispatches it.
    public static func event(type: String? = nil, data: String, id: String? = nil) -> [UInt8] {
        var out: [UInt8] = []
        event(type: type, data: data, id: id, into: &out)
        return out
    }

    /// Appends the wire bytes of one event, ending with the blank line that dispatches it,
    /// to `out`.
    ///
    /// Measures the output first, grows `out` once, then copies the pieces in.
    public static func event(type: String? = nil, data: String, id: String? = nil, into out: inout [UInt8]) {
        var data = data
        data.withUTF8 { event(type: type, dataBytes: UnsafeRawBufferPointer($0), id: id, into: &out) }
    }

    /// ``event(type:data:id:)`` for data that is already UTF-8 bytes (an encoded JSON
    /// document or patch), without making a `String` of them first: the same wire bytes as
    /// for `String(decoding: data, as: UTF8.self)`, ill-formed sequences included (they are
    /// repaired to U+FFFD, as `String` does).
    public static func event(type: String? = nil, utf8Data data: [UInt8], id: String? = nil) -> [UInt8] {
        var out: [UInt8] = []
        let wellFormed = data.withUnsafeBytes { bytes in
            guard isWellFormedUTF8(bytes) else { return false }
            event(type: type, dataBytes: bytes, id: id, into: &out)
            return true
        }
        if !wellFormed { event(type: type, data: String(decoding: data, as: UTF8.self), id: id, into: &out) }
        return out
    }

    /// An event whose data is one line that `writeData` appends to the buffer it is given
    /// (about `dataByteCount` bytes): the data is written once, straight into the event,
    /// instead of being made first and copied in.
    ///
    /// If what `writeData` appended holds a CR, LF or ill-formed UTF-8 after all, the event
    /// is built again through ``event(type:utf8Data:id:)``, so it is always well-formed.
    public static func event(
        type: String? = nil, id: String? = nil, dataByteCount: Int, writeData: (inout [UInt8]) -> Void
    ) -> [UInt8] {
        var out: [UInt8] = []
        withHeadFields(type: type, id: id) { head in
            // The head, `data: `, the data, its LF and the blank line.
            out.reserveCapacity(head.size &+ 6 &+ Swift.max(0, dataByteCount) &+ 2)
            guard head.size > 0 else { return }
            withAppendedSpace(head.size, to: &out) { head.write(to: &$0) }
        }
        appendASCII("data: ", into: &out)
        let dataStart = out.count
        writeData(&out)
        let clean = out.withUnsafeBytes { all in
            let data = UnsafeRawBufferPointer(rebasing: all[dataStart...])
            return !data.isEmpty && !data.contains(SSEByteScan.lf) && !data.contains(SSEByteScan.cr)
                && isWellFormedUTF8(data)
        }
        guard clean else {
            let data = Array(out[dataStart...])
            return event(type: type, utf8Data: data, id: id)
        }
        out.append(SSEByteScan.lf)
        out.append(SSEByteScan.lf)
        return out
    }

    private static func event(
        type: String?, dataBytes dataValue: UnsafeRawBufferPointer, id: String?, into out: inout [UInt8]
    ) {
        withHeadFields(type: type, id: id) { head in
            var size = head.size &+ 1  // the blank line
            SSEByteScan.forEachLineSegment(dataValue) { segment in
                size &+= lineSize(nameLength: 4, valueLength: segment.count)
            }
            withAppendedSpace(size, to: &out) { writer in
                head.write(to: &writer)
                SSEByteScan.forEachLineSegment(dataValue) { segment in
                    writer.line("data", SingleLineValue(clean: segment))
                }
                writer.byte(SSEByteScan.lf)
            }
        }
    }

    /// The `event` and `id` lines of an event, cleaned of what may not appear in them.
    /// Valid only inside ``withHeadFields(type:id:_:)``, which lends the bytes.
    private struct HeadFields {
        let type: SingleLineValue
        let id: SingleLineValue?

        /// The bytes the two lines take (0 when neither is written).
        var size: Int {
            var size = 0
            if type.count > 0 { size &+= lineSize(nameLength: 5, valueLength: type.count) }
            if let id { size &+= lineSize(nameLength: 2, valueLength: id.count) }
            return size
        }

        func write(to writer: inout Writer) {
            if type.count > 0 { writer.line("event", type) }
            if let id { writer.line("id", id) }
        }
    }

    /// Calls `body` with the head lines for `type` and `id` (an empty or `nil` type writes
    /// no line, as `message` is the default; a `nil` id writes none).
    private static func withHeadFields<R>(type: String?, id: String?, _ body: (HeadFields) -> R) -> R {
        var type = type ?? ""
        var id = id
        return type.withUTF8 { typeBytes in
            withOptionalUTF8(&id) { idBytes in
                body(
                    HeadFields(
                        type: SingleLineValue(UnsafeRawBufferPointer(typeBytes), removingNUL: false),
                        id: idBytes.map { SingleLineValue(UnsafeRawBufferPointer($0), removingNUL: true) }))
            }
        }
    }

    /// Whether `bytes` is well-formed UTF-8 (what `String(decoding:as:)` keeps unchanged):
    /// ASCII eight bytes at a time, every other sequence checked against RFC 3629's table
    /// (no overlong form, no surrogate, nothing past U+10FFFF). Plain loads and compares,
    /// with no generic code, so that it is fast in a debug build too (the standard
    /// library's parser, unspecialized there, took most of a test process's CPU on a flood
    /// of 48 KiB patches).
    static func isWellFormedUTF8(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let end = bytes.count
        var index = 0
        while index < end {
            if end &- index >= 8,
                base.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0
            {
                index &+= 8
                continue
            }
            let lead = base.load(fromByteOffset: index, as: UInt8.self)
            if lead < 0x80 {
                index &+= 1
                continue
            }
            // The sequence's length and the range its second byte must fall in.
            let length: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: (length, low) = (3, 0xA0)
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: (length, high) = (3, 0x9F)
            case 0xF0: (length, low) = (4, 0x90)
            case 0xF1...0xF3: length = 4
            case 0xF4: (length, high) = (4, 0x8F)
            default: return false
            }
            guard end &- index >= length else { return false }
            let second = base.load(fromByteOffset: index &+ 1, as: UInt8.self)
            guard second >= low && second <= high else { return false }
            var offset = 2
            while offset < length {
                guard base.load(fromByteOffset: index &+ offset, as: UInt8.self) & 0xC0 == 0x80 else { return false }
                offset &+= 1
            }
            index &+= length
        }
        return true
    }

    // MARK: Comments

    /// The wire bytes of a comment: `: text` and an LF, one comment line per line of
    /// `text` (`:` alone for an empty line). Receivers ignore comments; they serve as
    /// heartbeats that keep proxies from closing an idle connection.
    public static func comment(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 3)
        comment(text, into: &out)
        return out
    }

    /// Appends the wire bytes of a comment (see ``comment(_:)``) to `out`.
    public static func comment(_ text: String, into out: inout [UInt8]) {
        var text = text
        text.withUTF8 { bytes in
            SSEByteScan.forEachLineSegment(UnsafeRawBufferPointer(bytes)) { line in
                appendLine("", line, into: &out)
            }
        }
    }

    // MARK: Retry

    /// The wire bytes that set the receiver's reconnection time: `retry: N`, then a blank
    /// line so that the block stands alone (it dispatches no event, since it has no data).
    /// Negative values are written as 0.
    public static func retry(milliseconds: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(29)
        retry(milliseconds: milliseconds, into: &out)
        return out
    }

    /// Appends the wire bytes of ``retry(milliseconds:)`` to `out`.
    public static func retry(milliseconds: Int, into out: inout [UInt8]) {
        appendASCII("retry: ", into: &out)
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: enough for Int.max
        withUnsafeMutableBytes(of: &digits) { buffer in
            var value = UInt64(max(0, milliseconds))
            var start = buffer.count
            repeat {
                start &-= 1
                buffer[start] = 0x30 &+ UInt8(truncatingIfNeeded: value % 10)
                value /= 10
            } while value != 0
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[start...]))
        }
        out.append(SSEByteScan.lf)
        out.append(SSEByteScan.lf)
    }

    // MARK: Helpers

    /// The size of `name`, a colon, an optional space and value, and an LF.
    @inline(__always)
    private static func lineSize(nameLength: Int, valueLength: Int) -> Int {
        nameLength &+ (valueLength > 0 ? valueLength &+ 3 : 2)
    }

    /// Appends `name`, then `: value` (or `:` for an empty value), then an LF.
    @inline(__always)
    private static func appendLine(_ name: StaticString, _ value: UnsafeRawBufferPointer, into out: inout [UInt8]) {
        appendASCII(name, into: &out)
        out.append(0x3A)  // ":"
        if !value.isEmpty {
            out.append(0x20)
            out.append(contentsOf: value)
        }
        out.append(SSEByteScan.lf)
    }

    @inline(__always)
    private static func appendASCII(_ text: StaticString, into out: inout [UInt8]) {
        text.withUTF8Buffer { out.append(contentsOf: $0) }
    }

    /// Calls `body` with the UTF-8 bytes of `string`, or with `nil`.
    @inline(__always)
    private static func withOptionalUTF8<R>(_ string: inout String?, _ body: (UnsafeBufferPointer<UInt8>?) -> R) -> R {
        guard var value = string else { return body(nil) }
        defer { string = value }
        return value.withUTF8 { body($0) }
    }

    /// The value of a single-line field (`event`, `id`): its bytes less any CR, LF (and
    /// NUL if asked), which the writer leaves out.
    private struct SingleLineValue {
        let bytes: UnsafeRawBufferPointer
        let removingNUL: Bool
        /// The number of bytes written.
        let count: Int
        /// Whether no byte has to be left out.
        let isClean: Bool

        @inline(__always)
        init(_ bytes: UnsafeRawBufferPointer, removingNUL: Bool) {
            self.bytes = bytes
            self.removingNUL = removingNUL
            var dropped = 0
            for byte in bytes where SingleLineValue.isDropped(byte, removingNUL: removingNUL) {
                dropped &+= 1
            }
            count = bytes.count &- dropped
            isClean = dropped == 0
        }

        /// Bytes known to hold no line break.
        @inline(__always)
        init(clean bytes: UnsafeRawBufferPointer) {
            self.bytes = bytes
            removingNUL = false
            count = bytes.count
            isClean = true
        }

        @inline(__always)
        static func isDropped(_ byte: UInt8, removingNUL: Bool) -> Bool {
            byte == SSEByteScan.lf || byte == SSEByteScan.cr || (removingNUL && byte == 0)
        }
    }

    /// Writes into space already reserved at the end of an array.
    private struct Writer {
        var position: UnsafeMutableRawPointer

        @inline(__always)
        mutating func byte(_ value: UInt8) {
            position.storeBytes(of: value, as: UInt8.self)
            position += 1
        }

        @inline(__always)
        mutating func bytes(_ value: UnsafeRawBufferPointer) {
            guard let source = value.baseAddress, value.count > 0 else { return }
            position.copyMemory(from: source, byteCount: value.count)
            position += value.count
        }

        @inline(__always)
        mutating func line(_ name: StaticString, _ value: SingleLineValue) {
            name.withUTF8Buffer { bytes(UnsafeRawBufferPointer($0)) }
            byte(0x3A)  // ":"
            if value.count > 0 {
                byte(0x20)
                if value.isClean {
                    bytes(value.bytes)
                } else {
                    for b in value.bytes where !SingleLineValue.isDropped(b, removingNUL: value.removingNUL) {
                        byte(b)
                    }
                }
            }
            byte(SSEByteScan.lf)
        }
    }

    /// Grows `out` by `size` bytes and lets `body` write exactly that many.
    ///
    /// An empty `out` (a new event) becomes an array of exactly those bytes, written in
    /// place; otherwise they are written into temporary space (on the stack when small) and
    /// appended with one copy. Neither zero-fills first, nor appends byte by byte (which a
    /// debug build does for a generic sequence).
    @inline(__always)
    private static func withAppendedSpace(_ size: Int, to out: inout [UInt8], _ body: (inout Writer) -> Void) {
        guard size > 0 else { return }
        if out.isEmpty && out.capacity < size {
            out = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
                guard let base = buffer.baseAddress else { return }
                var writer = Writer(position: UnsafeMutableRawPointer(base))
                body(&writer)
                assert(writer.position == UnsafeMutableRawPointer(base) + size, "SSEEncoder: size mismatch")
                count = size
            }
            return
        }
        let start = out.count
        if out.capacity - start < size {
            // Grow geometrically: an exact reservation on every call would be quadratic.
            out.reserveCapacity(Swift.max(start &+ size, out.capacity &* 2))
        }
        withUnsafeTemporaryAllocation(byteCount: size, alignment: 1) { buffer in
            guard let base = buffer.baseAddress else { return }
            var writer = Writer(position: base)
            body(&writer)
            assert(writer.position == base + size, "SSEEncoder: size mismatch")
            out.append(contentsOf: UnsafeRawBufferPointer(buffer))
        }
    }
}
