import DequeModule

/// The server's connections as the slow-client rules see them, and those rules: which
/// connection to drop, and when. A plain value without I/O or clock: times are passed in
/// (monotonic nanoseconds) and the connections to drop are returned; ``ConnectionReaper``
/// keeps it under its lock and shuts the sockets down after releasing it.
///
/// A connection *waits* while it owes the server a request: from its connect until its
/// first request has arrived whole (head and any body), and again, on a keep-alive
/// connection, from the end of each response until the next request has arrived. A
/// connection whose request is being answered — a page being sent, or an SSE stream,
/// however long it lasts — is *busy* and never dropped by these rules.
///
/// The rules:
/// - **Deadline.** A connection that has waited ``deadline`` nanoseconds is dropped,
///   counted from the start of its wait, not from its last byte: a client trickling one
///   byte every few seconds is dropped at the same moment as one that sends nothing.
/// - **Room.** When a new connection brings the connections held (less those already being
///   dropped) over ``capacity``, the connections that have waited longest are dropped until
///   it is back at the capacity, but never the new connection itself (it gets its chance).
///   Waiting connections thus use whatever room busy ones leave, and never keep a new
///   client or a new stream out.
///
/// Invariants: every connection in `connections` is waiting, busy or dropping; `order`
/// holds each waiting connection's current wait exactly once, oldest first (stale
/// entries of ended waits are skipped, its front is never stale); a dropped connection
/// is reported once and stays counted until ``closed(_:)``.
struct WaitingConnections {
    /// Identifies a connection from its start to its close; never reused.
    typealias ID = UInt64

    /// How long a connection may wait, in nanoseconds.
    let deadline: UInt64
    /// The most connections held before the longest-waiting are dropped for a new one.
    let capacity: Int

    private enum Phase {
        /// Owes a request; `ticket` names this wait in `order`.
        case waiting(ticket: UInt64)
        /// Its request arrived; it is being answered.
        case busy
        /// Reported for dropping; waiting for its close.
        case dropping
    }

    private struct Wait {
        let id: ID
        let ticket: UInt64
        let since: UInt64
    }

    private var connections: [ID: Phase] = [:]
    private var order = Deque<Wait>()
    private var nextTicket: UInt64 = 0
    private(set) var waitingCount = 0
    private(set) var droppingCount = 0
    /// Connections dropped at their deadline, since the start.
    private(set) var droppedAtDeadline = 0
    /// Connections dropped to make room for a new one, since the start.
    private(set) var droppedForRoom = 0

    init(deadline: UInt64, capacity: Int) {
        self.deadline = deadline
        self.capacity = max(1, capacity)
    }

    /// Connections held busy outside libmicrohttpd (streams the front door opened,
    /// ``DirectStream``): they take room like the others, and are never dropped.
    private(set) var busyElsewhere = 0

    /// The connections held (waiting, busy or being dropped, here or elsewhere).
    var count: Int { connections.count + busyElsewhere }

    /// The waits kept in order, stale ones included (at most twice the waiting, plus 64).
    var storedWaits: Int { order.count }

    /// When the longest wait reaches its deadline; `nil` when none waits.
    var nextDeadline: UInt64? {
        order.first.map { $0.since &+ deadline }
    }

    /// A new connection, waiting for its first request from `now`. Returns the connections
    /// to drop to make room for it (the longest-waiting others), oldest first.
    mutating func opened(_ id: ID, at now: UInt64) -> [ID] {
        startWaiting(id, at: now)
        var drops: [ID] = []
        while count - droppingCount > capacity, let oldest = takeOldestWaiting(sparing: id) {
            drops.append(oldest)
        }
        droppedForRoom += drops.count
        return drops
    }

    /// A connection is about to come and every place is held: the longest-waiting
    /// connection, to drop to make room for it; `nil` when none waits.
    mutating func roomNeeded() -> ID? {
        guard let oldest = takeOldestWaiting(sparing: nil) else { return nil }
        droppedForRoom += 1
        return oldest
    }

    /// A connection is held busy elsewhere from now until ``closedElsewhere()``. Returns
    /// the connections to drop to make room for it, as ``opened(_:at:)`` does.
    mutating func openedElsewhere() -> [ID] {
        busyElsewhere += 1
        var drops: [ID] = []
        while count - droppingCount > capacity, let oldest = takeOldestWaiting(sparing: nil) {
            drops.append(oldest)
        }
        droppedForRoom += drops.count
        return drops
    }

    /// A connection held busy elsewhere is closed.
    mutating func closedElsewhere() {
        busyElsewhere = max(0, busyElsewhere - 1)
    }

    /// The connection's request has arrived whole: it is busy until ``answered(_:at:)``.
    mutating func requestArrived(_ id: ID) {
        guard case .waiting = connections[id] else { return }
        connections[id] = .busy
        waitingCount -= 1
        trimOrder()
    }

    /// The connection's response is complete; it waits for its next request from `now`
    /// (keep-alive). Ignored for a connection being dropped or not held.
    mutating func answered(_ id: ID, at now: UInt64) {
        guard case .busy = connections[id] else { return }
        startWaiting(id, at: now)
    }

    /// The connection is closed (by either side): forgotten.
    mutating func closed(_ id: ID) {
        switch connections.removeValue(forKey: id) {
        case .waiting:
            waitingCount -= 1
            trimOrder()
        case .dropping:
            droppingCount -= 1
        case .busy, nil:
            break
        }
    }

    /// The waiting connections whose deadline has come by `now`, oldest first: to drop.
    mutating func expired(at now: UInt64) -> [ID] {
        var drops: [ID] = []
        while let first = order.first, first.since &+ deadline <= now {
            order.removeFirst()
            connections[first.id] = .dropping
            waitingCount -= 1
            droppingCount += 1
            drops.append(first.id)
            trimOrder()
        }
        droppedAtDeadline += drops.count
        return drops
    }

    private mutating func startWaiting(_ id: ID, at now: UInt64) {
        nextTicket += 1
        connections[id] = .waiting(ticket: nextTicket)
        waitingCount += 1
        order.append(Wait(id: id, ticket: nextTicket, since: now))
        // Ended waits leave stale entries behind (one per keep-alive request); rebuilt
        // when they outnumber the live ones, so `order` stays within twice the waiting.
        if order.count > 2 * waitingCount + 64 {
            order = Deque(order.filter { isCurrent($0) })
        }
    }

    /// Marks the longest-waiting connection other than `spared` as dropping and returns it;
    /// `nil` when no other connection waits.
    private mutating func takeOldestWaiting(sparing spared: ID?) -> ID? {
        guard let index = order.firstIndex(where: { $0.id != spared && isCurrent($0) }) else { return nil }
        let oldest = order.remove(at: index)
        connections[oldest.id] = .dropping
        waitingCount -= 1
        droppingCount += 1
        trimOrder()
        return oldest.id
    }

    private func isCurrent(_ wait: Wait) -> Bool {
        guard case .waiting(let ticket) = connections[wait.id] else { return false }
        return ticket == wait.ticket
    }

    /// Removes stale entries from the front of `order`.
    private mutating func trimOrder() {
        while let first = order.first, !isCurrent(first) { order.removeFirst() }
    }
}
