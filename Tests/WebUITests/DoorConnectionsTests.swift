import Testing

@testable import WebUI

/// The front door's rules, with times passed in: when a connection goes to libmicrohttpd
/// and when one is closed.
@Suite struct DoorConnectionsTests {
    static let hold: UInt64 = 250
    static let stall: UInt64 = 1_000

    static func rules(capacity: Int = 16, stall: UInt64 = stall) -> DoorConnections {
        DoorConnections(holdLimit: hold, stallLimit: stall, capacity: capacity)
    }

    @Test func aConnectionWaitingForARequestIsHandedOverAtTheHoldLimit() {
        var rules = Self.rules()
        let result1 = rules.accepted(3, at: 100)
        #expect(result1)
        #expect(rules.nextDeadline == 100 + Self.hold)
        let result2 = rules.due(at: 100 + Self.hold - 1)
        #expect(result2.isEmpty)
        let result3 = rules.due(at: 100 + Self.hold)
        #expect(result3 == [.handOver(3)])
        #expect(rules.count == 0)
        #expect(rules.nextDeadline == nil)
    }

    @Test func aConnectionBeingAnsweredIsNeverHandedOverAndWaitsAgainFromItsAnswersEnd() {
        var rules = Self.rules()
        let result4 = rules.accepted(3, at: 0)
        #expect(result4)
        rules.answering(3)
        let result5 = rules.due(at: 10 * Self.hold)
        #expect(result5.isEmpty)
        rules.answered(3, at: 10 * Self.hold)
        let result6 = rules.due(at: 11 * Self.hold - 1)
        #expect(result6.isEmpty)
        let result7 = rules.due(at: 11 * Self.hold)
        #expect(result7 == [.handOver(3)])
    }

    @Test func aBlockedAnswerThatDoesNotMoveClosesItsConnectionAtTheStallLimit() {
        var rules = Self.rules()
        let result8 = rules.accepted(3, at: 0)
        #expect(result8)
        rules.answering(3)
        rules.blocked(3, moved: false, at: 50)
        // Reported blocked again without having moved: the stall goes on from 50.
        rules.blocked(3, moved: false, at: 500)
        #expect(rules.nextDeadline == 50 + Self.stall)
        let result9 = rules.due(at: 50 + Self.stall - 1)
        #expect(result9.isEmpty)
        let result10 = rules.due(at: 50 + Self.stall)
        #expect(result10 == [.close(3)])
        #expect(rules.count == 0)
    }

    @Test func anAnswerThatMovesStartsItsStallAgain() {
        var rules = Self.rules()
        let result11 = rules.accepted(3, at: 0)
        #expect(result11)
        rules.answering(3)
        rules.blocked(3, moved: false, at: 0)
        rules.blocked(3, moved: true, at: 900)
        let result12 = rules.due(at: Self.stall)
        #expect(result12.isEmpty)
        let result13 = rules.due(at: 900 + Self.stall)
        #expect(result13 == [.close(3)])
    }

    @Test func aBlockedAnswerThatFinishesIsNotClosed() {
        var rules = Self.rules()
        let result14 = rules.accepted(3, at: 0)
        #expect(result14)
        rules.answering(3)
        rules.blocked(3, moved: false, at: 0)
        rules.answered(3, at: 10)
        let result15 = rules.due(at: Self.stall)
        #expect(result15 == [.handOver(3)])
    }

    @Test func withoutAStallLimitAStalledAnswerIsKept() {
        var rules = Self.rules(stall: .max)
        let result16 = rules.accepted(3, at: 0)
        #expect(result16)
        rules.answering(3)
        rules.blocked(3, moved: false, at: 0)
        #expect(rules.nextDeadline == nil)
        let result17 = rules.due(at: .max - 1)
        #expect(result17.isEmpty)
        #expect(rules.count == 1)
    }

    @Test func pastItsCapacityTheDoorTakesNoMore() {
        var rules = Self.rules(capacity: 2)
        let result18 = rules.accepted(3, at: 0)
        #expect(result18)
        let result19 = rules.accepted(4, at: 0)
        #expect(result19)
        let result20 = rules.accepted(5, at: 0)
        #expect(!result20)
        rules.removed(3)
        let result21 = rules.accepted(5, at: 0)
        #expect(result21)
    }

    @Test func aRemovedConnectionFallsDueForNothing() {
        var rules = Self.rules()
        let result22 = rules.accepted(3, at: 0)
        #expect(result22)
        let result23 = rules.accepted(4, at: 10)
        #expect(result23)
        rules.removed(3)
        let result24 = rules.due(at: 10 + Self.hold)
        #expect(result24 == [.handOver(4)])
    }

    @Test func entriesStayBoundedWhenOneConnectionWaitsBehindABusyOne() {
        var rules = Self.rules()
        let result25 = rules.accepted(3, at: 0)  // waits, never answered
        #expect(result25)
        let result26 = rules.accepted(4, at: 0)
        #expect(result26)
        for request in 1...10_000 {
            rules.answering(4)
            rules.answered(4, at: UInt64(request) * (Self.hold - 1) / 10_000)
            #expect(rules.storedEntries <= 2 * rules.count + 64)
        }
        let result27 = rules.due(at: Self.hold)
        #expect(result27 == [.handOver(3)])
    }
}
