import FeedCore

/// One accepted change on its way from upstream to the last socket, as `/inspect` lists it:
/// what it was, and when it passed each stage (``Stages``).
struct InspectedEvent: Sendable {
    /// What `/events` sent for it.
    enum Kind: String, Sendable {
        /// A JSON Patch.
        case patch
        /// A whole document (the first, a resync, an adopted one).
        case data
    }

    let id: EventID
    let kind: Kind
    /// The patch's operations (0 for a document).
    let operations: Int
    /// The patch's or the document's bytes, as `/events` sends them.
    let bytes: Int
    /// When it reached feedweb (the read that carried it), on the wall clock.
    let arrivedAt: WallTime
    var stages: Stages
    /// The `/events` event sent for it. Its buffer's address names it in every sender's
    /// ``WriteMarks``; kept here, the address cannot be reused while the event is listed.
    let eventBytes: [UInt8]
    /// Whether its stage times went to the histogram (once, when settled).
    var observed = false
}

/// When an event passed each stage of its way (``MonotonicTime``, nanoseconds): the ones
/// `/inspect` draws (``names``), and when it was queued to every client (the moment its
/// socket writes may be counted as settled).
///
/// Invariant: every stage drawn that is set is at or after the one before it (a write is
/// never before the commit). `queued` is not among them: the shards queue in parallel, so
/// the first socket write often comes before the last shard has queued.
struct Stages: Sendable, Equatable {
    /// The read that carried it returned (for a change from no upstream read: its commit).
    var received: UInt64
    /// It was parsed into an event and its command worked out.
    var parsed: UInt64
    /// The store committed it.
    var committed: UInt64
    /// The first socket write that carried it.
    var firstWrite: UInt64?
    /// The last socket write that carried it.
    var lastWrite: UInt64?
    /// Every `/events` and `/events/items` client had it queued.
    var queued: UInt64?

    /// The stages drawn after `received`, as `/inspect` and the histogram's `stage` label
    /// name them.
    static let names = ["parsed", "committed", "first_write", "last_write"]

    /// Each stage of ``names``, in order: nanoseconds after `received` (`nil`: not yet).
    var offsets: [UInt64?] {
        [parsed, committed, firstWrite, lastWrite].map { $0.map { $0 &- received } }
    }

    /// Each stage's absolute time, `received` first, then those of ``names``.
    var absolute: [UInt64?] { [received, parsed, committed, firstWrite, lastWrite] }
}
