import NIOConcurrencyHelpers

/// The whole state after one accepted change: the mirror, its encoding, and the
/// published view. Immutable and shared; readers hold it without locks.
///
/// The encoding is made lazily, once, by the first reader that needs it (a `data` event,
/// `/api/state`, the state file), never by the store's commit: a change costs work in
/// proportion to the change, not to the document.
public final class FeedSnapshot: Sendable {
    /// The id of the change that produced this state.
    public let id: EventID
    /// The mirror as the store keeps it.
    let mirror: MirrorDocument
    /// The length of `document`'s compact JSON text in bytes, known without encoding it
    /// (carried forward by the store from change to change).
    public let encodedByteCount: Int
    /// The published view (may be older than the mirror, see the version guard).
    public let published: PublishedView
    /// `document`, once made from an item list.
    private let madeDocument = NIOLockedValueBox<JSONValue?>(nil)
    private let encoded = NIOLockedValueBox<[UInt8]?>(nil)
    /// Where an item list's chunks are encoded, shared with the store's other states.
    private let chunks: EncodedChunks?
    /// Whether `encoded` holds bytes published elsewhere (an adopted document), which are
    /// kept for good: they are what clients of that feedweb got.
    private let encodingAdopted: Bool

    /// - Parameter encodedByteCount: the length of `document`'s compact JSON text, if the
    ///   caller knows it; else it is counted here.
    public convenience init(id: EventID, document: JSONValue, published: PublishedView, encodedByteCount: Int? = nil) {
        self.init(id: id, mirror: .value(document), published: published, encodedByteCount: encodedByteCount)
    }

    /// - Parameter encodedDocument: the document's encoding as it was published elsewhere
    ///   (an adopted change: the bytes another feedweb sent), served as ``encodedDocument``
    ///   so that clients get exactly those bytes.
    /// - Parameter chunks: where an item list's document is encoded from, chunk by chunk
    ///   (the chunks it shares with other states are encoded once for all of them).
    init(
        id: EventID, mirror: MirrorDocument, published: PublishedView, encodedByteCount: Int? = nil,
        encodedDocument: [UInt8]? = nil, chunks: EncodedChunks? = nil
    ) {
        self.id = id
        self.chunks = chunks
        self.mirror = mirror
        self.published = published
        self.encodedByteCount = encodedByteCount ?? JSONByteCount.of(mirror.json)
        self.encodingAdopted = encodedDocument != nil
        if let encodedDocument { encoded.withLockedValue { $0 = encodedDocument } }
    }

    /// Lets go of what was made from the mirror on first use (the whole document of an
    /// item list, the encoding), as the store does once a newer state is current: the state
    /// stays in the past (``FeedPast``), sharing the mirror with its neighbours, without a
    /// copy of the whole document each. Adopted bytes stay. Readers make them again if asked.
    public func forgetMadeCopies() {
        madeDocument.withLockedValue { $0 = nil }
        if !encodingAdopted { encoded.withLockedValue { $0 = nil } }
        published.forgetCaches()
    }

    /// The document's compact JSON, as ``encodedDocument`` gives it, but keeping nothing
    /// made for it (a state of the past, asked for once); an item list's spliced from its
    /// chunks' encodings, which it shares with the store's other states.
    public func encodedDocumentKeepingNothing() -> [UInt8] {
        if let bytes = encoded.withLockedValue({ $0 }) { return bytes }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(encodedByteCount)
        if let chunks, case .itemList(let items) = mirror {
            chunks.appendItemList(items, to: &bytes)
        } else if let made = madeDocument.withLockedValue({ $0 }) {
            JSONSerializer.serialize(made, into: &bytes)
        } else {
            JSONSerializer.serialize(mirror.json, into: &bytes)
        }
        return bytes
    }

    /// The mirror: the document exactly as upstream has it. Made on first use when the
    /// store keeps it as an item list (append mode), then shared by every reader.
    public var document: JSONValue {
        switch mirror {
        case .value(let value):
            return value
        case .itemList:
            if let made = madeDocument.withLockedValue({ $0 }) { return made }
            // Made outside the lock: two first readers at once may both make it; both get
            // the same value, and one is kept.
            let made = mirror.json
            return madeDocument.withLockedValue { cached in
                if let cached { return cached }
                cached = made
                return made
            }
        }
    }

    /// The value at `pointer` in `document`, without making the whole document.
    public func value(at pointer: JSONPointer) -> JSONValue? {
        mirror.value(at: pointer)
    }

    /// ``encodedDocument`` if it has been made (or was adopted), without making it.
    public var encodedDocumentIfMade: [UInt8]? {
        encoded.withLockedValue { $0 }
    }

    /// Appends `document`'s compact JSON (``encodedByteCount`` bytes, no line break) to
    /// `out`, for a reader that keeps the bytes inside something of its own; nothing is
    /// cached here but an item list's chunks' encodings.
    public func encodeDocument(into out: inout [UInt8]) {
        if let chunks, case .itemList(let items) = mirror {
            chunks.appendItemList(items, to: &out)
        } else {
            JSONSerializer.serialize(document, into: &out)
        }
    }

    /// `document` serialized as compact JSON: encoded on first use, then shared by every
    /// reader.
    public var encodedDocument: [UInt8] {
        if let bytes = encoded.withLockedValue({ $0 }) { return bytes }
        // Encoded outside the lock: two first readers at once may both encode; both get
        // the same bytes, and one is kept.
        // Written into storage of the exact length, known without writing it: no growth
        // (a 37 KB document grew through 4, 8, 16, 32 and 64 KB buffers) and nothing spare.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(encodedByteCount)
        encodeDocument(into: &bytes)
        return encoded.withLockedValue { cached in
            if let cached { return cached }
            cached = bytes
            return bytes
        }
    }
}
