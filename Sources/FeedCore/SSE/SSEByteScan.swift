/// Byte-level helpers shared by ``SSEParser`` and ``SSEEncoder``.
enum SSEByteScan {
    static let lf: UInt8 = 0x0A
    static let cr: UInt8 = 0x0D

    /// The offset of the first CR or LF in `base[start..<end]`, or `end` if there is none.
    ///
    /// Tests 32-byte blocks with a loop of fixed length and no early exit, which the
    /// optimiser turns into SIMD compares (about 30 GB/s on x86-64, against about 8 GB/s
    /// for an eight-bytes-at-a-time SWAR loop); only a block that holds a line break is
    /// then searched byte by byte.
    @inline(__always)
    static func firstLineBreak(_ base: UnsafeRawPointer, from start: Int, to end: Int) -> Int {
        var i = start
        while end &- i >= 32 {
            var found: UInt8 = 0
            for k in 0..<32 {
                let b = base.load(fromByteOffset: i &+ k, as: UInt8.self)
                found |= (b == lf ? 1 : 0) | (b == cr ? 1 : 0)
            }
            if found != 0 { break }
            i &+= 32
        }
        while i < end {
            let b = base.load(fromByteOffset: i, as: UInt8.self)
            if b == lf || b == cr { return i }
            i &+= 1
        }
        return end
    }

    /// Calls `segment` with each piece of `bytes` between line breaks (CRLF, LF or CR,
    /// CRLF counting as one break). `n` breaks give `n + 1` segments; an empty input
    /// gives one empty segment.
    @inline(__always)
    static func forEachLineSegment(
        _ bytes: UnsafeRawBufferPointer,
        _ segment: (UnsafeRawBufferPointer) -> Void
    ) {
        guard let base = bytes.baseAddress, bytes.count > 0 else {
            segment(UnsafeRawBufferPointer(start: nil, count: 0))
            return
        }
        let end = bytes.count
        var i = 0
        while true {
            let brk = firstLineBreak(base, from: i, to: end)
            segment(UnsafeRawBufferPointer(start: base + i, count: brk &- i))
            if brk == end { return }
            if base.load(fromByteOffset: brk, as: UInt8.self) == cr, brk &+ 1 < end,
                base.load(fromByteOffset: brk &+ 1, as: UInt8.self) == lf
            {
                i = brk &+ 2
            } else {
                i = brk &+ 1
            }
        }
    }
}
