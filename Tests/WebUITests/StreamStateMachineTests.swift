import Testing

@testable import WebUI

/// The stream's state machine alone, as AsyncHTTPClient's `HTTP1ConnectionStateMachineTests`
/// drive theirs: events in (bytes queued, the content reader's calls, the suspend
/// returning, a sender's visits, a drop), actions out (resume, put on the ready list, shut
/// down), no socket, no libmicrohttpd, no lock. Times are monotonic nanoseconds, made up.
@Suite struct StreamStateMachineTests {
    /// The socket the machine is bound to (never touched: only handed back in actions).
    static let socket: Int32 = 7

    /// `count` copies of `byte`: one queued event.
    static func event(_ byte: Character, _ count: Int) -> [UInt8] {
        [UInt8](repeating: byte.asciiValue ?? 0, count: count)
    }

    /// A machine bound to a running libmicrohttpd connection, handed to a sender at its
    /// first suspend when `hasSender`.
    static func attached(maxQueuedBytes: Int = 100, hasSender: Bool) -> StreamStateMachine {
        var machine = StreamStateMachine(maxQueuedBytes: maxQueuedBytes)
        machine.attached(socket: socket, hasSender: hasSender)
        return machine
    }

    /// The content reader's call with room for `capacity` bytes: its decision and the bytes
    /// it copied.
    static func read(_ machine: inout StreamStateMachine, capacity: Int, now: UInt64 = 0) -> (
        StreamStateMachine.ReaderDecision, [UInt8]
    ) {
        var copied = [UInt8](repeating: 0, count: capacity)
        let decision = machine.read(capacity: capacity, now: now) { bytes, offset in
            for (index, byte) in bytes.enumerated() { copied[offset + index] = byte }
        }
        guard case .bytes(let count) = decision else { return (decision, []) }
        return (decision, Array(copied.prefix(count)))
    }

    /// A machine handed to its sender (adopted, off the ready list), nothing queued.
    static func ownedBySender(maxQueuedBytes: Int = 100) -> StreamStateMachine {
        var machine = attached(maxQueuedBytes: maxQueuedBytes, hasSender: true)
        #expect(read(&machine, capacity: 100).0 == .suspend)
        #expect(Self.step(&machine) { $0.suspended() } == .markReady)
        #expect(Self.step(&machine) { $0.takeAdoption() } == socket)
        #expect(Self.step(&machine) { $0.visit(takingUpTo: nil) } == .alive)
        return machine
    }

    /// One event on `machine`, its answer returned (`#expect` cannot call a mutating
    /// method on the value it checks).
    static func step<Answer>(_ machine: inout StreamStateMachine, _ event: (inout StreamStateMachine) -> Answer)
        -> Answer
    {
        event(&machine)
    }

    // MARK: - libmicrohttpd writes

    @Test func bytesQueuedWhileLibmicrohttpdRunsAreReadWithoutAnAction() {
        var machine = Self.attached(hasSender: false)
        let (a, b) = (Self.event("a", 30), Self.event("b", 20))
        #expect(Self.step(&machine) { $0.enqueue(a, report: false, now: 1) } == (.queued, .none))
        #expect(Self.step(&machine) { $0.enqueue(b, report: false, now: 2) } == (.queued, .none))
        #expect(machine.pendingBytes == 50)
        #expect(Self.read(&machine, capacity: 40) == (.bytes(40), a + b.prefix(10)))
        #expect(Self.read(&machine, capacity: 40) == (.bytes(10), Array(b.suffix(10))))
        #expect(machine.pendingBytes == 0)
        #expect(machine.waiting(now: 3) == nil)
    }

    @Test func anEmptyQueueSuspendsAndTheNextBytesResumeOnce() {
        var machine = Self.attached(hasSender: false)
        #expect(Self.read(&machine, capacity: 100).0 == .suspend)
        #expect(machine.connection == .suspending)
        #expect(Self.step(&machine) { $0.suspended() } == .none, "nothing came meanwhile: stay suspended")
        #expect(machine.connection == .suspended)
        #expect(Self.step(&machine) { $0.enqueue(Self.event("a", 10), report: false, now: 1) } == (.queued, .resume))
        #expect(machine.connection == .running)
        #expect(
            Self.step(&machine) { $0.enqueue(Self.event("b", 10), report: false, now: 2) } == (.queued, .none),
            "one resume")
    }

    @Test func aWakeWhileSuspendingResumesOnceTheSuspendHasReturned() {
        var machine = Self.attached(hasSender: false)
        #expect(Self.read(&machine, capacity: 100).0 == .suspend)
        // Bytes come between the reader's answer and `MHD_suspend_connection` returning:
        // resuming now would come before the suspend, so the wake is remembered.
        #expect(Self.step(&machine) { $0.enqueue(Self.event("a", 10), report: false, now: 1) } == (.queued, .none))
        #expect(Self.step(&machine) { $0.close() } == .none)
        #expect(Self.step(&machine) { $0.suspended() } == .resume)
        #expect(machine.connection == .running)
        #expect(Self.read(&machine, capacity: 100) == (.bytes(10), Self.event("a", 10)))
        #expect(Self.read(&machine, capacity: 100).0 == .end, "closing, and everything sent")
    }

    @Test func aFullQueueIsReportedOrTheClientDropped() {
        var machine = Self.attached(hasSender: false)
        #expect(Self.step(&machine) { $0.enqueue(Self.event("a", 90), report: false, now: 1) } == (.queued, .none))
        #expect(Self.step(&machine) { $0.enqueue(Self.event("b", 20), report: true, now: 2) } == (.full, .none))
        #expect(machine.state == .open)
        #expect(machine.pendingBytes == 90, "nothing queued")
        // Dropped while libmicrohttpd runs the connection: it is not reading, so the socket
        // is shut down to make libmicrohttpd's next send fail.
        #expect(Self.step(&machine) { $0.enqueue(Self.event("b", 20), report: false, now: 3) } == (.dropped, .shutDown))
        #expect(machine.state == .dropped)
        #expect(machine.pendingBytes == 0, "the queue is freed")
        #expect(Self.step(&machine) { $0.enqueue(Self.event("c", 1), report: false, now: 4) } == (.notOpen, .none))
        #expect(Self.read(&machine, capacity: 100).0 == .abort)
    }

    @Test func oneEventLargerThanTheBoundFitsAnEmptyQueue() {
        var machine = Self.attached(hasSender: false)
        #expect(Self.step(&machine) { $0.enqueue(Self.event("a", 500), report: false, now: 1) } == (.queued, .none))
        #expect(machine.pendingBytes == 500)
    }

    @Test func aStalledClientIsDroppedAfterTheTimeAndNotBefore() {
        var machine = Self.attached(hasSender: false)
        #expect(Self.step(&machine) { $0.dropIfStalled(olderThan: 100, now: 1_000) } == (false, .none), "nothing waits")
        #expect(Self.step(&machine) { $0.enqueue(Self.event("a", 50), report: false, now: 1_000) } == (.queued, .none))
        #expect(machine.waiting(now: 1_060) == 60)
        // Progress resets the clock: 10 bytes taken at 1,080.
        #expect(Self.read(&machine, capacity: 10, now: 1_080).0 == .bytes(10))
        #expect(Self.step(&machine) { $0.dropIfStalled(olderThan: 100, now: 1_150) } == (false, .none))
        #expect(Self.step(&machine) { $0.dropIfStalled(olderThan: 100, now: 1_181) } == (true, .shutDown))
        #expect(machine.state == .dropped)
        #expect(machine.waiting(now: 1_200) == nil)
    }

    @Test func aHangUpWhileSuspendedResumesSoLibmicrohttpdAborts() {
        var machine = Self.attached(hasSender: false)
        #expect(Self.read(&machine, capacity: 100).0 == .suspend)
        #expect(Self.step(&machine) { $0.suspended() } == .none)
        #expect(Self.step(&machine) { $0.peerClosed() } == .resume)
        #expect(machine.state == .disconnected)
        #expect(Self.read(&machine, capacity: 100).0 == .abort)
        #expect(Self.step(&machine) { $0.peerClosed() } == .none, "once")
    }

    @Test func aFinishedStreamTakesNothingMore() {
        var machine = Self.attached(hasSender: true)
        machine.finish()
        #expect(machine.state == .finished)
        #expect(machine.connection == StreamStateMachine.Connection.none)
        #expect(Self.step(&machine) { $0.enqueue(Self.event("a", 10), report: false, now: 1) } == (.notOpen, .none))
        #expect(Self.step(&machine) { $0.catchUp(with: Self.event("F", 10), now: 2) } == (false, .none))
        #expect(Self.step(&machine) { $0.close() } == .none)
        #expect(Self.step(&machine) { $0.takeAdoption() } == nil)
    }

    // MARK: - The sender writes

    @Test func theFirstSuspendHandsTheStreamToItsSenderOnce() {
        var machine = Self.attached(hasSender: true)
        #expect(Self.step(&machine) { $0.enqueue(Self.event("h", 10), report: false, now: 1) } == (.queued, .none))
        #expect(Self.read(&machine, capacity: 100) == (.bytes(10), Self.event("h", 10)))
        #expect(Self.read(&machine, capacity: 100).0 == .suspend)
        #expect(Self.step(&machine) { $0.suspended() } == .markReady)
        #expect(machine.owner == .sender(adopted: false))
        #expect(Self.step(&machine) { $0.takeAdoption() } == Self.socket)
        #expect(machine.owner == .sender(adopted: true))
        #expect(Self.step(&machine) { $0.takeAdoption() } == nil, "adopted once")
    }

    @Test func queueVisitAndDidSendOnASendersStream() {
        var machine = Self.ownedBySender()
        let (a, b, c) = (Self.event("a", 30), Self.event("b", 30), Self.event("c", 30))
        #expect(Self.step(&machine) { $0.enqueue(a, report: false, now: 10) } == (.queued, .markReady))
        #expect(
            Self.step(&machine) { $0.enqueue(b, report: false, now: 11) } == (.queued, .none),
            "already on the ready list")
        #expect(Self.step(&machine) { $0.enqueue(c, report: false, now: 12) } == (.queued, .none))
        // Chunks up to 64 bytes (at least one): two of the three.
        #expect(Self.step(&machine) { $0.visit(takingUpTo: 64) } == .send([a, b], byteCount: 60, more: true))
        #expect(machine.pendingBytes == 90, "in flight counts as pending")
        // The socket took 20 bytes, then no more: the sender waits for room, rescheduled.
        #expect(Self.step(&machine) { $0.didSend(bytes: 20, blocked: true, reschedule: true, now: 20) })
        #expect(
            !Self.step(&machine) { $0.didSend(bytes: 0, blocked: true, reschedule: true, now: 21) }, "already scheduled"
        )
        #expect(machine.waiting(now: 30) == 10, "the clock runs from the last progress")
        // The rest written.
        #expect(!Self.step(&machine) { $0.didSend(bytes: 40, blocked: false, reschedule: false, now: 40) })
        #expect(machine.pendingBytes == 30)
        #expect(Self.step(&machine) { $0.visit(takingUpTo: 64) } == .send([c], byteCount: 30, more: false))
        #expect(!Self.step(&machine) { $0.didSend(bytes: 30, blocked: false, reschedule: false, now: 50) })
        #expect(machine.pendingBytes == 0)
        #expect(Self.step(&machine) { $0.visit(takingUpTo: 64) } == .empty(closing: false))
    }

    @Test func aDropWhileASenderOwnsTheStreamWakesTheSenderNotTheSocket() {
        var machine = Self.ownedBySender()
        #expect(Self.step(&machine) { $0.enqueue(Self.event("a", 90), report: false, now: 1) } == (.queued, .markReady))
        #expect(
            Self.step(&machine) { $0.visit(takingUpTo: 64) } == .send([Self.event("a", 90)], byteCount: 90, more: false)
        )
        #expect(Self.step(&machine) { $0.enqueue(Self.event("b", 20), report: false, now: 2) } == (.queued, .markReady))
        // The socket is the sender's: a drop neither shuts it down nor resumes libmicrohttpd;
        // the queue is freed and the sender, which has the stream on its ready list, sees
        // it gone at its next visit (the stalled case below is one not on the list yet).
        #expect(Self.step(&machine) { $0.enqueue(Self.event("c", 90), report: false, now: 3) } == (.dropped, .none))
        #expect(machine.pendingBytes == 90, "only the chunk in flight")
        #expect(machine.state == .dropped)
        #expect(Self.step(&machine) { $0.visit(takingUpTo: 64) } == .gone)
        #expect(Self.step(&machine) { $0.enqueue(Self.event("d", 1), report: false, now: 4) } == (.notOpen, .none))
    }

    @Test func aStalledSendersStreamIsDroppedToItsSender() {
        var machine = Self.ownedBySender()
        #expect(
            Self.step(&machine) { $0.enqueue(Self.event("a", 50), report: false, now: 1_000) } == (.queued, .markReady))
        #expect(
            Self.step(&machine) { $0.visit(takingUpTo: 64) } == .send([Self.event("a", 50)], byteCount: 50, more: false)
        )
        #expect(Self.step(&machine) { $0.didSend(bytes: 0, blocked: true, reschedule: false, now: 1_010) } == false)
        #expect(Self.step(&machine) { $0.dropIfStalled(olderThan: 100, now: 1_101) } == (true, .markReady))
        #expect(Self.step(&machine) { $0.visit(takingUpTo: 64) } == .gone)
    }

    @Test func givingTheStreamBackWithAShutdownResumesLibmicrohttpdToAbort() {
        var machine = Self.ownedBySender()
        #expect(Self.step(&machine) { $0.peerClosed() } == .markReady)
        #expect(Self.step(&machine) { $0.visit(takingUpTo: 64) } == .gone)
        #expect(Self.step(&machine) { $0.returnToLibmicrohttpd(shutDown: true) } == .shutDownAndResume)
        #expect(machine.owner == .libmicrohttpd)
        #expect(machine.connection == .running)
        #expect(!machine.hasSender, "never handed to a sender again")
        #expect(Self.step(&machine) { $0.returnToLibmicrohttpd(shutDown: true) } == .none, "given back once")
        #expect(Self.read(&machine, capacity: 100).0 == .abort)
    }

    @Test func givingAClosingStreamBackResumesLibmicrohttpdToEnd() {
        var machine = Self.ownedBySender()
        #expect(Self.step(&machine) { $0.enqueue(Self.event("a", 10), report: false, now: 1) } == (.queued, .markReady))
        #expect(Self.step(&machine) { $0.close() } == .none, "already on the ready list")
        #expect(
            Self.step(&machine) { $0.visit(takingUpTo: 64) } == .send([Self.event("a", 10)], byteCount: 10, more: true))
        #expect(!Self.step(&machine) { $0.didSend(bytes: 10, blocked: false, reschedule: false, now: 2) })
        #expect(Self.step(&machine) { $0.visit(takingUpTo: 64) } == .empty(closing: true))
        #expect(Self.step(&machine) { $0.returnToLibmicrohttpd(shutDown: false) } == .resume)
        #expect(Self.read(&machine, capacity: 100).0 == .end)
    }

    // MARK: - Catch-up

    @Test func aCatchUpKeepsAPartlySentHeadAndReplacesTheRest() {
        var machine = Self.attached(hasSender: false)
        let (a, b, c) = (Self.event("a", 40), Self.event("b", 30), Self.event("c", 20))
        for bytes in [a, b, c] {
            #expect(Self.step(&machine) { $0.enqueue(bytes, report: false, now: 1) } == (.queued, .none))
        }
        #expect(Self.read(&machine, capacity: 10, now: 2) == (.bytes(10), Array(a.prefix(10))))
        let whole = Self.event("F", 25)
        #expect(Self.step(&machine) { $0.catchUp(with: whole, now: 3) } == (true, .none))
        #expect(machine.pendingBytes == 30 + 25, "the rest of `a`, then the catch-up")
        #expect(Self.read(&machine, capacity: 100, now: 4) == (.bytes(55), Array(a.suffix(30)) + whole))
    }

    @Test func aCatchUpOnAnEventBoundaryKeepsNothingOld() {
        var machine = Self.attached(hasSender: false)
        let (a, b) = (Self.event("a", 40), Self.event("b", 30))
        for bytes in [a, b] {
            #expect(Self.step(&machine) { $0.enqueue(bytes, report: false, now: 1) } == (.queued, .none))
        }
        #expect(Self.read(&machine, capacity: 40, now: 2) == (.bytes(40), a))
        #expect(Self.step(&machine) { $0.catchUp(with: Self.event("F", 5), now: 3) } == (true, .none))
        #expect(Self.read(&machine, capacity: 100, now: 4) == (.bytes(5), Self.event("F", 5)))
    }

    @Test func aCatchUpOfASuspendedStreamResumesIt() {
        var machine = Self.attached(hasSender: false)
        #expect(Self.read(&machine, capacity: 100).0 == .suspend)
        #expect(Self.step(&machine) { $0.suspended() } == .none)
        #expect(Self.step(&machine) { $0.catchUp(with: Self.event("F", 5), now: 1) } == (true, .resume))
        #expect(machine.waiting(now: 4) == 3, "waiting since the catch-up")
    }

    @Test func aCatchUpOfASendersStreamKeepsWhatIsInFlight() {
        var machine = Self.ownedBySender()
        #expect(Self.step(&machine) { $0.enqueue(Self.event("a", 40), report: false, now: 1) } == (.queued, .markReady))
        #expect(Self.step(&machine) { $0.enqueue(Self.event("b", 40), report: false, now: 2) } == (.queued, .none))
        #expect(
            Self.step(&machine) { $0.visit(takingUpTo: 40) } == .send([Self.event("a", 40)], byteCount: 40, more: true))
        // `a` is the sender's now; `b` is replaced, and the stream goes back on the list.
        #expect(Self.step(&machine) { $0.catchUp(with: Self.event("F", 10), now: 3) } == (true, .markReady))
        #expect(machine.pendingBytes == 40 + 10)
        #expect(!Self.step(&machine) { $0.didSend(bytes: 40, blocked: false, reschedule: false, now: 4) })
        #expect(
            Self.step(&machine) { $0.visit(takingUpTo: 64) } == .send([Self.event("F", 10)], byteCount: 10, more: false)
        )
    }

    // MARK: - A stream the front door opened

    @Test func aStreamTheDoorOpenedIsItsSendersFromItsFirstEventToItsEnd() {
        var machine = StreamStateMachine(maxQueuedBytes: 100)
        // Subscribed first: its first events wait, nothing to wake.
        #expect(Self.step(&machine) { $0.enqueue(contentsOf: [Self.event("a", 10)], now: 1) } == (true, .none))
        #expect(Self.step(&machine) { $0.attachedDirect(socket: Self.socket) } == .markReady)
        #expect(machine.owner == .sender(adopted: false))
        #expect(machine.connection == .none)
        #expect(Self.step(&machine) { $0.takeAdoption() } == Self.socket)
        #expect(
            Self.step(&machine) { $0.visit(takingUpTo: 100) }
                == .send([Self.event("a", 10)], byteCount: 10, more: false))
        #expect(Self.step(&machine) { $0.didSend(bytes: 10, blocked: false, reschedule: false, now: 2) } == false)
        // A new event wakes the sender, never libmicrohttpd.
        #expect(Self.step(&machine) { $0.enqueue(Self.event("b", 5), report: false, now: 3) } == (.queued, .markReady))
        #expect(
            Self.step(&machine) { $0.visit(takingUpTo: 100) } == .send([Self.event("b", 5)], byteCount: 5, more: false))
        // A hang-up: the sender is woken to find it gone (no shutdown of a socket it writes).
        #expect(Self.step(&machine) { $0.peerClosed() } == .markReady)
        #expect(Self.step(&machine) { $0.visit(takingUpTo: 100) } == .gone)
        #expect(machine.state == .disconnected)
    }

    @Test func aStreamTheDoorOpenedThatEndsBeforeItsSenderHasItIsGoneAtTheFirstVisit() {
        var machine = StreamStateMachine(maxQueuedBytes: 100)
        #expect(Self.step(&machine) { $0.enqueue(contentsOf: [Self.event("a", 10)], now: 1) } == (true, .none))
        // The server stopping closes it before it is bound: nothing to wake yet.
        #expect(Self.step(&machine) { $0.close() } == .none)
        #expect(Self.step(&machine) { $0.attachedDirect(socket: Self.socket) } == .markReady)
        #expect(Self.step(&machine) { $0.takeAdoption() } == Self.socket)
        // What was queued goes out, then the stream is handed back to end.
        #expect(
            Self.step(&machine) { $0.visit(takingUpTo: 100) } == .send([Self.event("a", 10)], byteCount: 10, more: true)
        )
        #expect(Self.step(&machine) { $0.didSend(bytes: 10, blocked: false, reschedule: true, now: 2) } == true)
        #expect(Self.step(&machine) { $0.visit(takingUpTo: 100) } == .empty(closing: true))
    }
}
