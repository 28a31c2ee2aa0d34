import FeedCore
import Testing

/// ``LogFollower``: what a node reads next and which rows it applies.
@Suite("Cluster: following the log")
struct LogFollowerTests {
    private func head(_ seq: UInt64, epoch: String = "e1") -> ClusterHead {
        ClusterHead(epoch: epoch, term: 1, headSeq: seq)
    }

    private func row(_ seq: UInt64, _ kind: ClusterLogEntry.Kind = .patch) -> ClusterLogEntry {
        ClusterLogEntry(seq: seq, kind: kind, body: Array("[]".utf8))
    }

    /// Takes `rows` and marks each one applied, as the node does.
    private func apply(_ rows: [ClusterLogEntry], to follower: inout LogFollower, epoch: String = "e1") -> [UInt64] {
        let taken = follower.take(rows, epoch: epoch)
        for row in taken { follower.applied(row, epoch: epoch) }
        return taken.map(\.seq)
    }

    @Test("a new node starts over from the checkpoint that leaves it the history, then reads on")
    func startsFromCheckpoint() {
        var follower = LogFollower()
        #expect(follower.next(head: head(1500), history: 1000) == .startOver(epoch: "e1", target: 500))
        follower.start(at: ClusterCheckpoint(epoch: "e1", seq: 480, document: []))
        #expect(follower.next(head: head(1500), history: 1000) == .read(epoch: "e1", after: 480))
        #expect(apply([row(481), row(482)], to: &follower) == [481, 482])
        #expect(follower.applied == 482)
        #expect(follower.next(head: head(482), history: 1000) == .upToDate)
    }

    @Test("rows already applied are skipped; each row is applied once")
    func skipsApplied() {
        var follower = LogFollower()
        follower.start(at: ClusterCheckpoint(epoch: "e1", seq: 10, document: []))
        #expect(apply([row(9), row(10), row(11)], to: &follower) == [11])
        #expect(apply([row(11), row(12)], to: &follower) == [12])
    }

    @Test("a gap (rows trimmed while behind) is never applied over: the node starts over")
    func gapStartsOver() {
        var follower = LogFollower()
        follower.start(at: ClusterCheckpoint(epoch: "e1", seq: 10, document: []))
        #expect(apply([row(11), row(13), row(14)], to: &follower) == [11])
        #expect(follower.next(head: head(14), history: 2) == .startOver(epoch: "e1", target: 12))
    }

    @Test("a new epoch: start over; an empty one waits for its first row, a document")
    func newEpoch() {
        var follower = LogFollower()
        follower.start(at: ClusterCheckpoint(epoch: "e1", seq: 10, document: []))
        #expect(follower.next(head: head(0, epoch: "e2"), history: 100) == .read(epoch: "e2", after: 0))
        #expect(apply([], to: &follower, epoch: "e2") == [])
        // A first row that is not a document cannot start a node.
        #expect(apply([row(1)], to: &follower, epoch: "e2") == [])
        #expect(apply([row(1, .data), row(2)], to: &follower, epoch: "e2") == [1, 2])
        #expect(follower.epoch == "e2")
        #expect(follower.next(head: head(2, epoch: "e2"), history: 100) == .upToDate)
    }

    @Test("a head behind what was applied, same epoch: the log was rewound; nothing is applied")
    func rewound() {
        var follower = LogFollower()
        follower.start(at: ClusterCheckpoint(epoch: "e1", seq: 10, document: []))
        #expect(follower.next(head: head(7), history: 100) == .rewound)
    }

    @Test("no checkpoint: read from the first row if there is one, else the epoch is lost until it moves")
    func withoutCheckpoint() {
        var follower = LogFollower()
        #expect(follower.next(head: head(5), history: 100) == .startOver(epoch: "e1", target: 0))
        let started = follower.startWithoutCheckpoint(epoch: "e1", head: 5, firstRow: 1)
        #expect(started)
        #expect(follower.next(head: head(5), history: 100) == .read(epoch: "e1", after: 0))
        #expect(apply([row(1, .data), row(2), row(3)], to: &follower) == [1, 2, 3])

        var lost = LogFollower()
        let goesOn = lost.startWithoutCheckpoint(epoch: "e1", head: 5, firstRow: 3)
        #expect(!goesOn)
        #expect(lost.next(head: head(5), history: 100) == .lost)
        #expect(lost.next(head: head(0, epoch: "e2"), history: 100) == .read(epoch: "e2", after: 0))
    }

    @Test("a row the store refused: start over")
    func failedRow() {
        var follower = LogFollower()
        follower.start(at: ClusterCheckpoint(epoch: "e1", seq: 10, document: []))
        follower.failed()
        #expect(follower.next(head: head(12), history: 1) == .startOver(epoch: "e1", target: 11))
    }
}
