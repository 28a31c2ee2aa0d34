import NIOConcurrencyHelpers

/// The encodings of append mode's item chunks, shared by every state the store makes: a
/// state's document (the current one for `/api/state` and a new client's `data`, one of
/// the past for `?at=`) is `{"items":[…]}` spliced from its chunks' encodings, and the
/// states share all but one or two chunks with their neighbours (a change copies only the
/// chunks it touches, ``ChunkedArray``), so encoding one costs a copy of the bytes and the
/// encoding of the chunks not encoded before, not an encoding of the whole document.
///
/// A chunk is known by its array buffer: the cache keeps each chunk it encoded alive (so its
/// buffer's address is never reused while cached) and shared (so it is never changed in
/// place: a change to a shared buffer copies it first). The same address is therefore the
/// same elements. At most ``maxBytes`` of encodings are kept, the ones used longest ago
/// dropped first. The lock guards `State` only and is a leaf; no encoding is done under it.
public final class EncodedChunks: Sendable {
    /// The most bytes of encodings kept.
    public let maxBytes: Int

    private struct Cached {
        /// Kept so that its buffer lives, unshared with no one, as long as the entry.
        let chunk: [JSONValue]
        let bytes: [UInt8]
        var lastUse: UInt64
    }

    private struct State {
        var entries: [UInt: Cached] = [:]
        var bytes = 0
        var clock: UInt64 = 0
    }

    private let state = NIOLockedValueBox(State())

    /// A cache of at most `maxBytes` of encodings.
    public init(maxBytes: Int = 32 << 20) {
        self.maxBytes = max(0, maxBytes)
    }

    /// The bytes of encodings kept now.
    public var byteCount: Int { state.withLockedValue { $0.bytes } }

    /// Appends `{"items":[…]}` with `items` to `out`, exactly as ``JSONSerializer`` writes
    /// that document.
    public func appendItemList(_ items: ChunkedArray<JSONValue>, to out: inout [UInt8]) {
        out.append(contentsOf: Self.head)
        for (index, chunk) in items.storedChunks.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: encoding(of: chunk))
        }
        out.append(contentsOf: Self.tail)
    }

    /// `{"items":[`, as the serializer writes the start of an item list.
    private static let head = Array(#"{"items":["#.utf8)
    private static let tail = Array("]}".utf8)

    /// The elements of `chunk`, each encoded, separated by commas.
    private func encoding(of chunk: [JSONValue]) -> [UInt8] {
        let key = chunk.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
        let hit = state.withLockedValue { state -> [UInt8]? in
            guard var cached = state.entries[key], cached.chunk.count == chunk.count else { return nil }
            state.clock += 1
            cached.lastUse = state.clock
            state.entries[key] = cached
            return cached.bytes
        }
        if let hit { return hit }
        var bytes: [UInt8] = []
        for (index, element) in chunk.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            JSONSerializer.serialize(element, into: &bytes)
        }
        guard bytes.count <= maxBytes / 4 else { return bytes }
        state.withLockedValue { state in
            state.clock += 1
            if let replaced = state.entries.updateValue(
                Cached(chunk: chunk, bytes: bytes, lastUse: state.clock), forKey: key)
            {
                state.bytes -= replaced.bytes.count
            }
            state.bytes += bytes.count
            guard state.bytes > maxBytes else { return }
            // Down to three quarters at once: the sort is paid once per many inserts.
            for (oldKey, old) in state.entries.sorted(by: { $0.value.lastUse < $1.value.lastUse }) {
                guard state.bytes > maxBytes / 4 * 3 else { break }
                state.entries[oldKey] = nil
                state.bytes -= old.bytes.count
            }
        }
        return bytes
    }
}
