import Testing

@testable import WebUI

/// The front door's rules, with times passed in: when a connection goes to libmicrohttpd
/// and when one is closed.
@Suite struct DoorConnectionsTests {
    static let hold: UInt64 = 250
    static let stall: UInt64 = 1_000

    /// Rules that have accepted `connections` at `time` (each must be taken).
    static func rules(
        holding connections: [Int32], at time: UInt64 = 0, capacity: Int = 16, stall: UInt64 = stall,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> DoorConnections {
        var rules = DoorConnections(holdLimit: hold, stallLimit: stall, capacity: capacity)
        for fd in connections {
            let taken = rules.accepted(fd, at: time)
            #expect(taken, "connection \(fd) taken", sourceLocation: sourceLocation)
        }
        return rules
    }

    @Test func aConnectionWaitingForARequestIsHandedOverAtTheHoldLimit() {
        var rules = Self.rules(holding: [3], at: 100)
        #expect(rules.nextDeadline == 100 + Self.hold)
        let early = rules.due(at: 100 + Self.hold - 1)
        #expect(early.isEmpty)
        let onTime = rules.due(at: 100 + Self.hold)
        #expect(onTime == [.handOver(3)])
        #expect(rules.count == 0)
        #expect(rules.nextDeadline == nil)
    }

    @Test func aConnectionBeingAnsweredIsNeverHandedOverAndWaitsAgainFromItsAnswersEnd() {
        var rules = Self.rules(holding: [3])
        rules.answering(3)
        let whileAnswering = rules.due(at: 10 * Self.hold)
        #expect(whileAnswering.isEmpty)
        rules.answered(3, at: 10 * Self.hold)
        let early = rules.due(at: 11 * Self.hold - 1)
        #expect(early.isEmpty)
        let onTime = rules.due(at: 11 * Self.hold)
        #expect(onTime == [.handOver(3)])
    }

    @Test func aBlockedAnswerThatDoesNotMoveClosesItsConnectionAtTheStallLimit() {
        var rules = Self.rules(holding: [3])
        rules.answering(3)
        rules.blocked(3, moved: false, at: 50)
        // Reported blocked again without having moved: the stall goes on from 50.
        rules.blocked(3, moved: false, at: 500)
        #expect(rules.nextDeadline == 50 + Self.stall)
        let early = rules.due(at: 50 + Self.stall - 1)
        #expect(early.isEmpty)
        let onTime = rules.due(at: 50 + Self.stall)
        #expect(onTime == [.close(3)])
        #expect(rules.count == 0)
    }

    @Test func anAnswerThatMovesStartsItsStallAgain() {
        var rules = Self.rules(holding: [3])
        rules.answering(3)
        rules.blocked(3, moved: false, at: 0)
        rules.blocked(3, moved: true, at: 900)
        let atFirstStallLimit = rules.due(at: Self.stall)
        #expect(atFirstStallLimit.isEmpty)
        let atSecondStallLimit = rules.due(at: 900 + Self.stall)
        #expect(atSecondStallLimit == [.close(3)])
    }

    @Test func aBlockedAnswerThatFinishesIsNotClosed() {
        var rules = Self.rules(holding: [3])
        rules.answering(3)
        rules.blocked(3, moved: false, at: 0)
        rules.answered(3, at: 10)
        let atStallLimit = rules.due(at: Self.stall)
        #expect(atStallLimit == [.handOver(3)])
    }

    @Test func withoutAStallLimitAStalledAnswerIsKept() {
        var rules = Self.rules(holding: [3], stall: .max)
        rules.answering(3)
        rules.blocked(3, moved: false, at: 0)
        #expect(rules.nextDeadline == nil)
        let atTheEndOfTime = rules.due(at: .max - 1)
        #expect(atTheEndOfTime.isEmpty)
        #expect(rules.count == 1)
    }

    @Test func pastItsCapacityTheDoorTakesNoMore() {
        var rules = Self.rules(holding: [3, 4], capacity: 2)
        let whenFull = rules.accepted(5, at: 0)
        #expect(!whenFull)
        rules.removed(3)
        let afterOneLeft = rules.accepted(5, at: 0)
        #expect(afterOneLeft)
    }

    @Test func aRemovedConnectionFallsDueForNothing() {
        var rules = Self.rules(holding: [3])
        let later = rules.accepted(4, at: 10)
        #expect(later)
        rules.removed(3)
        let due = rules.due(at: 10 + Self.hold)
        #expect(due == [.handOver(4)])
    }

    @Test func theWaitingAreCountedThroughEveryChange() {
        var rules = Self.rules(holding: [3, 4, 5])
        #expect(rules.waitingCount == 3)
        rules.answering(3)
        rules.answering(4)
        #expect(rules.waitingCount == 1)
        rules.blocked(4, moved: false, at: 0)
        rules.answered(3, at: 10)
        #expect(rules.waitingCount == 2)
        rules.removed(3)
        rules.removed(4)
        #expect(rules.waitingCount == 1)
        let due = rules.due(at: Self.hold)
        #expect(due == [.handOver(5)])
        #expect(rules.waitingCount == 0)
        #expect(rules.count == 0)
    }

    @Test func entriesStayBoundedWhenOneConnectionWaitsBehindABusyOne() {
        // 3 waits, never answered; 4 is answered 10,000 times within 3's hold limit.
        var rules = Self.rules(holding: [3, 4])
        for request in 1...10_000 {
            rules.answering(4)
            rules.answered(4, at: UInt64(request) * (Self.hold - 1) / 10_000)
            #expect(rules.storedEntries <= 2 * rules.count + 64)
        }
        let due = rules.due(at: Self.hold)
        #expect(due == [.handOver(3)])
    }
}
