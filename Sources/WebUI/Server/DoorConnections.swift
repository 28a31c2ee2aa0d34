import DequeModule

/// The connections ``FrontDoor`` holds as its rules see them, and those rules: when a
/// connection goes to libmicrohttpd, and when one is closed. A plain value without I/O or
/// clock: times are passed in (monotonic nanoseconds) and what to do is returned; the
/// door keeps it on its thread and acts on it.
///
/// A connection is either *waiting* for a request (from its accept, or from the end of its
/// previous answer) or *answering* one. The rules:
/// - **Hold.** A connection that has waited ``holdLimit`` is handed over: every slow or
///   idle client ends up with libmicrohttpd, whose head timeout and reaper deal with it.
/// - **Stall.** An answer blocked on a full socket that has not moved for ``stallLimit``
///   closes its connection: a client that stops reading is not kept for ever.
/// - **Room.** At most ``capacity`` connections are held; more are handed over at once.
///
/// Invariants: `waits` and `stalls` each hold the connections' current wait or stall at
/// most once, oldest first (entries of ended ones are stale and skipped: their ticket is no
/// longer the connection's; neither queue's first entry is stale), and at most twice as
/// many entries as connections, plus 64;
/// a connection answering has no wait, and a stall only while its answer is blocked.
struct DoorConnections {
    /// What the door must do to a connection now.
    enum Action: Equatable {
        /// Give it to libmicrohttpd.
        case handOver(Int32)
        /// Close it.
        case close(Int32)
    }

    /// How long a connection may wait for a request, in nanoseconds.
    let holdLimit: UInt64
    /// How long a blocked answer may not move, in nanoseconds (`UInt64.max`: for ever).
    let stallLimit: UInt64
    /// The most connections held at once.
    let capacity: Int

    private enum Phase {
        /// Owes a request; `ticket` names this wait in `waits`.
        case waiting(ticket: UInt64)
        /// Its answer is being sent; `stall` names its stall in `stalls` while blocked.
        case answering(stall: UInt64?)

        var isWaiting: Bool { if case .waiting = self { true } else { false } }
    }

    private struct Entry {
        let fd: Int32
        let ticket: UInt64
        let since: UInt64
    }

    private var phases: [Int32: Phase] = [:]
    /// How many of `phases` are waiting.
    private(set) var waitingCount = 0
    private var waits = Deque<Entry>()
    private var stalls = Deque<Entry>()
    private var nextTicket: UInt64 = 0

    init(holdLimit: UInt64, stallLimit: UInt64, capacity: Int) {
        self.holdLimit = holdLimit
        self.stallLimit = stallLimit
        self.capacity = max(0, capacity)
    }

    /// The connections held (``waitingCount`` of them waiting for a request).
    var count: Int { phases.count }

    /// Entries kept in both queues, stale ones included (for tests: they stay bounded).
    var storedEntries: Int { waits.count + stalls.count }

    /// When the next rule falls due (`nil`: none can).
    var nextDeadline: UInt64? {
        let hold = waits.first.map { $0.since &+ holdLimit }
        let stall = stallLimit == .max ? nil : stalls.first.map { $0.since &+ stallLimit }
        switch (hold, stall) {
        case (let hold?, let stall?): return min(hold, stall)
        case (let hold?, nil): return hold
        case (nil, let stall?): return stall
        case (nil, nil): return nil
        }
    }

    /// A new connection, waiting for its first request from `now`; `false` when the door is
    /// full (hand it over at once).
    mutating func accepted(_ fd: Int32, at now: UInt64) -> Bool {
        guard phases.count < capacity else { return false }
        wait(fd, from: now)
        return true
    }

    /// A request of `fd`'s has been read: its answer starts.
    mutating func answering(_ fd: Int32) {
        guard let phase = phases[fd] else { return }
        if phase.isWaiting { waitingCount -= 1 }
        phases[fd] = .answering(stall: nil)
        dropStaleFirsts()
    }

    /// `fd`'s answer is blocked on a full socket; `moved`: some of it was sent since the
    /// last report (a stall starts again from `now`; else the current one goes on).
    mutating func blocked(_ fd: Int32, moved: Bool, at now: UInt64) {
        guard case .answering(let stall) = phases[fd] else { return }
        if stall != nil && !moved { return }
        let ticket = takeTicket()
        phases[fd] = .answering(stall: ticket)
        stalls.append(Entry(fd: fd, ticket: ticket, since: now))
        dropStaleFirsts()
        compactIfNeeded()
    }

    /// `fd`'s answer is complete: it waits for its next request from `now`.
    mutating func answered(_ fd: Int32, at now: UInt64) {
        guard phases[fd] != nil else { return }
        wait(fd, from: now)
    }

    /// `fd` is no longer held (handed over, closed, or gone).
    mutating func removed(_ fd: Int32) {
        guard let phase = phases.removeValue(forKey: fd) else { return }
        if phase.isWaiting { waitingCount -= 1 }
        dropStaleFirsts()
    }

    /// What falls due at `now`, oldest first; the connections named are no longer held.
    mutating func due(at now: UInt64) -> [Action] {
        var actions: [Action] = []
        dropStaleFirsts()
        while let oldest = waits.first, now &- oldest.since >= holdLimit {
            waits.removeFirst()
            phases[oldest.fd] = nil
            waitingCount -= 1
            actions.append(.handOver(oldest.fd))
            dropStaleFirsts()
        }
        while stallLimit != .max, let oldest = stalls.first, now &- oldest.since >= stallLimit {
            stalls.removeFirst()
            phases[oldest.fd] = nil
            actions.append(.close(oldest.fd))
            dropStaleFirsts()
        }
        return actions
    }

    /// Whether `entry` is its connection's current wait.
    private func isCurrentWait(_ entry: Entry) -> Bool {
        if case .waiting(let ticket) = phases[entry.fd] { ticket == entry.ticket } else { false }
    }

    /// Whether `entry` is its connection's current stall.
    private func isCurrentStall(_ entry: Entry) -> Bool {
        if case .answering(let stall) = phases[entry.fd] { stall == entry.ticket } else { false }
    }

    /// Removes stale entries from the front of both queues.
    private mutating func dropStaleFirsts() {
        while let first = waits.first, !isCurrentWait(first) { waits.removeFirst() }
        while let first = stalls.first, !isCurrentStall(first) { stalls.removeFirst() }
    }

    private mutating func wait(_ fd: Int32, from now: UInt64) {
        let ticket = takeTicket()
        if phases.updateValue(.waiting(ticket: ticket), forKey: fd)?.isWaiting != true { waitingCount += 1 }
        waits.append(Entry(fd: fd, ticket: ticket, since: now))
        dropStaleFirsts()
        compactIfNeeded()
    }

    /// Drops stale entries once they outnumber the connections (a connection answering
    /// thousands of requests a second, behind one that waits, leaves one per request).
    private mutating func compactIfNeeded() {
        let bound = 2 &* phases.count &+ 64
        if waits.count > bound { waits = Deque(waits.filter(isCurrentWait)) }
        if stalls.count > bound { stalls = Deque(stalls.filter(isCurrentStall)) }
    }

    private mutating func takeTicket() -> UInt64 {
        defer { nextTicket &+= 1 }
        return nextTicket
    }
}
