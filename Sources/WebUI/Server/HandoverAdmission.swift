import Synchronization

/// The connections handed to libmicrohttpd and not yet reported closed by it, counted by
/// feedweb: a hand-over past the connection limit is refused here, so libmicrohttpd never
/// meets a limit of its own.
///
/// Why: libmicrohttpd 0.9.75 checks its limit for an added connection twice, without a
/// lock in `MHD_add_connection` and again under its cleanup mutex as it sets the
/// connection up, and there a connection found over the limit is closed **with that mutex
/// left locked** (`new_connection_process_` in daemon.c). At its next new connection the
/// daemon's thread waits on that mutex for ever, and so does every later
/// `MHD_resume_connection`: no request is answered, streams stop, and the server cannot
/// stop. Two hand-overs queued while it held one connection less than its limit were
/// enough (seen as a hung test run, when libmicrohttpd still ran its own thread). So the
/// daemon is started with a limit no process can reach (``unreachableLimit``) and this
/// count stands in for it.
///
/// A stream the front door opens itself (``DirectStream``) holds a place too, from its
/// admission until its socket is closed: it takes a descriptor as libmicrohttpd's
/// connections do.
///
/// A connection holds a place from just before `MHD_add_connection` until libmicrohttpd
/// reports it closed (`MHD_CONNECTION_NOTIFY_CLOSED`), or until ``ConnectionReaper`` shuts
/// its socket down to drop it (libmicrohttpd closes it at its next read, and a flood of
/// slow heads must not keep new clients out meanwhile), or at once when
/// `MHD_add_connection` refuses it. (One that libmicrohttpd fails to set up for want of
/// memory, before it reports it started, is never reported closed and keeps its place.)
final class HandoverAdmission: Sendable {
    /// The limit libmicrohttpd is started with: more connections than a process can have
    /// descriptors, so its own check never refuses one.
    static let unreachableLimit = Int(Int32.max)

    /// The most connections libmicrohttpd holds at once.
    let limit: Int
    private let held = Atomic<Int>(0)
    private let refused = Atomic<Int>(0)

    init(limit: Int) {
        self.limit = limit
    }

    /// Takes a place for one connection. When all ``limit`` are taken, asks `makeRoom` to
    /// free one (the reaper drops the connection that has waited longest for a request,
    /// which gives its place back) and tries once more; `false`, and the refusal counted,
    /// when there is still none.
    func admit(makingRoomWith makeRoom: () -> Bool = { false }) -> Bool {
        if take() { return true }
        if makeRoom(), take() { return true }
        refused.add(1, ordering: .relaxed)
        return false
    }

    private func take() -> Bool {
        var current = held.load(ordering: .relaxed)
        while current < limit {
            let (exchanged, original) = held.compareExchange(
                expected: current, desired: current + 1, ordering: .relaxed)
            if exchanged { return true }
            current = original
        }
        return false
    }

    /// Gives a connection's place back: libmicrohttpd closed it or refused it, or the
    /// reaper dropped it.
    func release() {
        held.subtract(1, ordering: .relaxed)
    }

    /// Hand-overs refused since start, at the limit.
    var refusedCount: Int { refused.load(ordering: .relaxed) }
}
