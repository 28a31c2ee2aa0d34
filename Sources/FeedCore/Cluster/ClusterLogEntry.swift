/// One row of the cluster log: one accepted change, exactly as every node publishes it.
///
/// Invariants: within an epoch the rows have consecutive sequence numbers from 1 (older
/// ones may have been trimmed away); the first row of an epoch is a `data` row; `body` is
/// the compact JSON clients get (a `data` event's document, a `patch` event's patch),
/// never re-encoded on the way.
public struct ClusterLogEntry: Sendable, Equatable {
    /// What a row carries.
    public enum Kind: Int16, Sendable {
        /// An RFC 6902 patch to the state at the previous row.
        case patch = 0
        /// A whole document: the state starts over from it (a fresh `data` for clients).
        case data = 1
    }

    /// The change's sequence number in its epoch.
    public let seq: UInt64
    public let kind: Kind
    /// The exact bytes published (compact JSON, UTF-8).
    public let body: [UInt8]
    /// Upstream's position after the change (``UpstreamPosition``), for the next leader.
    public let upstreamPosition: String?
    /// How many upstream changes it carries (``FeedChange/upstreamChanges``), at least 1.
    public let changes: Int
    /// When the leader committed it (``FeedChange/time``); `nil` for a row whose time is
    /// the log's own (a seed).
    public let time: WallTime?

    public init(
        seq: UInt64, kind: Kind, body: [UInt8], upstreamPosition: String? = nil, changes: Int = 1,
        time: WallTime? = nil
    ) {
        self.seq = seq
        self.kind = kind
        self.body = body
        self.upstreamPosition = upstreamPosition.flatMap { $0.isEmpty ? nil : $0 }
        self.changes = max(1, changes)
        self.time = time
    }

    /// The row for an accepted `change` of the leader's upstream pipeline, at `seq`.
    public init(change: FeedChange, seq: UInt64) {
        switch change.kind {
        case .snapshot:
            self.init(
                seq: seq, kind: .data, body: change.snapshot.encodedDocument,
                upstreamPosition: change.upstreamPosition, changes: change.upstreamChanges, time: change.time)
        case .patch(_, let encoded):
            self.init(
                seq: seq, kind: .patch, body: encoded, upstreamPosition: change.upstreamPosition,
                changes: change.upstreamChanges, time: change.time)
        }
    }

    /// The row as a change for ``FeedStore/adopt(_:)``, with id `epoch`-``seq``; throws
    /// when the body is not what its kind says (a log written by something else).
    public func publishedChange(epoch: String) throws(ClusterLogError) -> PublishedChange {
        let id = EventID(epoch: epoch, seq: seq)
        switch kind {
        case .data:
            do {
                let document = try JSONValue(parsing: body)
                return PublishedChange(
                    id: id, body: .document(document, encoded: body), upstreamChanges: changes,
                    upstreamPosition: upstreamPosition, time: time)
            } catch {
                throw .corrupt("row \(seq) of epoch \(epoch) is not a JSON document: \(error)")
            }
        case .patch:
            do {
                let patch = try JSONPatch(parsing: body)
                return PublishedChange(
                    id: id, body: .patch(patch, encoded: body), upstreamChanges: changes,
                    upstreamPosition: upstreamPosition, time: time)
            } catch {
                throw .corrupt("row \(seq) of epoch \(epoch) is not a JSON Patch: \(error)")
            }
        }
    }
}
