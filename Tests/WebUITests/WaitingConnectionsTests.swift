import Testing

@testable import WebUI

/// The slow-client rules without sockets or clocks: which connection is dropped, and when.
@Suite struct WaitingConnectionsTests {
    static let second: UInt64 = 1_000_000_000
    /// A 10 s deadline and room for `capacity` connections.
    static func rules(capacity: Int = 100) -> WaitingConnections {
        WaitingConnections(deadline: 10 * second, capacity: capacity)
    }

    @Test func aConnectionThatSendsNoRequestIsDroppedAtTheDeadlineCountedFromItsConnect() {
        var rules = Self.rules()
        #expect(rules.opened(1, at: 5 * Self.second).isEmpty)
        #expect(rules.nextDeadline == 15 * Self.second)
        #expect(rules.expired(at: 15 * Self.second - 1).isEmpty, "not a moment early")
        #expect(rules.expired(at: 15 * Self.second) == [1])
        #expect(rules.expired(at: 100 * Self.second).isEmpty, "reported once")
        #expect(rules.droppedAtDeadline == 1)
        #expect(rules.count == 1, "held until it is closed")
        rules.closed(1)
        #expect(rules.count == 0)
        #expect(rules.nextDeadline == nil)
    }

    @Test func onlyAWholeRequestEndsTheWaitSoATricklingClientGetsNoMoreTime() {
        // The rules hear of no bytes at all: a client that trickles a byte every few seconds
        // is, for them, one that has not delivered its request.
        var rules = Self.rules()
        _ = rules.opened(1, at: 0)
        for step in 1...9 { #expect(rules.expired(at: UInt64(step) * Self.second).isEmpty) }
        #expect(rules.expired(at: 10 * Self.second) == [1])
    }

    @Test func aConnectionBeingAnsweredIsNeverDroppedHoweverLongItTakes() {
        // An SSE stream is one request answered for as long as the client stays.
        var rules = Self.rules(capacity: 2)
        _ = rules.opened(1, at: 0)
        rules.requestArrived(1)
        #expect(rules.nextDeadline == nil)
        #expect(rules.expired(at: 1000 * Self.second).isEmpty)
        // Nor for room: two more connections over the capacity drop neither it nor them.
        #expect(rules.opened(2, at: 1001 * Self.second).isEmpty)
        rules.requestArrived(2)
        #expect(rules.opened(3, at: 1002 * Self.second).isEmpty)
        #expect(rules.count == 3)
    }

    @Test func aKeepAliveConnectionWaitsAgainFromTheEndOfEachResponse() {
        var rules = Self.rules()
        _ = rules.opened(1, at: 0)
        rules.requestArrived(1)
        rules.answered(1, at: 8 * Self.second)
        #expect(rules.waitingCount == 1)
        #expect(rules.nextDeadline == 18 * Self.second)
        #expect(rules.expired(at: 17 * Self.second).isEmpty, "not from the connect")
        rules.requestArrived(1)
        rules.answered(1, at: 20 * Self.second)
        #expect(rules.expired(at: 29 * Self.second).isEmpty)
        #expect(rules.expired(at: 30 * Self.second) == [1], "idle for the deadline after its last response")
    }

    @Test func roomForAConnectionNotYetOpenedIsTheLongestWaitingOneAndNeverABusyOne() {
        // The server is at its limit before libmicrohttpd has reported the newest
        // connections: the hand-over asks for room itself.
        var rules = Self.rules(capacity: 10)
        _ = rules.opened(1, at: 1)
        _ = rules.opened(2, at: 2)
        _ = rules.opened(3, at: 3)
        rules.requestArrived(1)
        #expect(rules.roomNeeded() == 2, "the longest waiting; 1 is busy")
        #expect(rules.roomNeeded() == 3)
        #expect(rules.roomNeeded() == nil, "none waits")
        #expect(rules.droppedForRoom == 2)
        #expect(rules.count == 3, "held until closed")
        rules.closed(2)
        rules.closed(3)
        #expect(rules.count == 1)
        #expect(rules.nextDeadline == nil)
    }

    @Test func aNewConnectionOverTheCapacityDropsTheLongestWaitingOthers() {
        var rules = Self.rules(capacity: 3)
        _ = rules.opened(1, at: 1)
        _ = rules.opened(2, at: 2)
        _ = rules.opened(3, at: 3)
        #expect(rules.opened(4, at: 4) == [1])
        rules.requestArrived(2)
        // 2 is busy: the longest waiting is 3.
        #expect(rules.opened(5, at: 5) == [3])
        #expect(rules.droppedForRoom == 2)
        // Those being dropped no longer count against the capacity: 2, 4, 5 are held.
        #expect(rules.count == 5)
        #expect(rules.opened(6, at: 6) == [4])
        rules.closed(1)
        rules.closed(3)
        rules.closed(4)
        #expect(rules.count == 3)
        #expect(rules.waitingCount == 2)
    }

    @Test func theNewConnectionItselfIsNeverDroppedForRoom() {
        var rules = Self.rules(capacity: 2)
        _ = rules.opened(1, at: 0)
        rules.requestArrived(1)
        _ = rules.opened(2, at: 1)
        rules.requestArrived(2)
        #expect(rules.opened(3, at: 2).isEmpty, "no other connection waits: the new one gets its chance")
        #expect(rules.waitingCount == 1)
        #expect(rules.opened(4, at: 3) == [3])
    }

    @Test func aDroppedConnectionIsReportedOnceAndIgnoredUntilItCloses() {
        var rules = Self.rules(capacity: 1)
        _ = rules.opened(1, at: 0)
        #expect(rules.opened(2, at: 1) == [1])
        // Its request may still arrive and be answered before libmicrohttpd closes it.
        rules.requestArrived(1)
        rules.answered(1, at: 2)
        #expect(rules.expired(at: 100 * Self.second) == [2], "1 is not reported again")
        rules.closed(1)
        rules.closed(2)
        #expect(rules.count == 0)
        #expect(rules.waitingCount == 0)
    }

    @Test func theNextDeadlineIsTheLongestCurrentWaits() {
        var rules = Self.rules()
        _ = rules.opened(1, at: 1 * Self.second)
        _ = rules.opened(2, at: 2 * Self.second)
        _ = rules.opened(3, at: 3 * Self.second)
        rules.requestArrived(1)
        #expect(rules.nextDeadline == 12 * Self.second)
        rules.closed(2)
        #expect(rules.nextDeadline == 13 * Self.second)
        rules.answered(1, at: 4 * Self.second)
        #expect(rules.nextDeadline == 13 * Self.second)
        #expect(rules.expired(at: 14 * Self.second) == [3, 1], "oldest first")
    }

    @Test func manyRequestsOnOneConnectionKeepTheOrderSmall() {
        var rules = Self.rules()
        _ = rules.opened(1, at: 0)
        _ = rules.opened(2, at: 0)
        for request in 1...100_000 {
            rules.requestArrived(1)
            rules.answered(1, at: UInt64(request))
        }
        #expect(rules.storedWaits <= 2 * rules.waitingCount + 65)
        #expect(rules.expired(at: 10 * Self.second + 100_000) == [2, 1])
    }
}
