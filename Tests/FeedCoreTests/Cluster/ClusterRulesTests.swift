import FeedCore
import Testing

/// The I/O-free rules of a cluster: retention and checkpoints, and what a new leader does.
@Suite("Cluster: retention and takeover rules")
struct ClusterRulesTests {
    @Test("a checkpoint every interval; rows up to the newest checkpoint that leaves the history are trimmed")
    func retention() {
        let retention = ClusterRetention(history: 1000)
        #expect(retention.checkpointInterval == 500)
        #expect(ClusterRetention(history: 10).checkpointInterval == 100)
        #expect(!retention.checkpointDue(applied: 0, latest: nil))
        #expect(retention.checkpointDue(applied: 1, latest: nil))
        #expect(!retention.checkpointDue(applied: 499, latest: 1))
        #expect(retention.checkpointDue(applied: 501, latest: 1))
        // Not enough history yet.
        #expect(retention.trim(head: 900, checkpoints: [1, 501]) == nil)
        // head - history = 600: the base is 501.
        let trim = retention.trim(head: 1600, checkpoints: [1, 501, 1001, 1501])
        #expect(trim?.rowsThrough == 501 && trim?.checkpointsBefore == 501)
        #expect(retention.trim(head: 1600, checkpoints: [1001]) == nil)
    }

    private func lease(_ epoch: String = "e1", head: UInt64) -> ClusterLease {
        ClusterLease(term: 3, epoch: epoch, headSeq: head, upstreamPosition: "u-9")
    }

    private func follower(at seq: UInt64, epoch: String = "e1") -> LogFollower {
        var follower = LogFollower()
        follower.start(at: ClusterCheckpoint(epoch: epoch, seq: seq, document: []))
        return follower
    }

    @Test("a new leader leads on only from the head it took over; an empty or lost log starts an epoch")
    func takeover() {
        #expect(ClusterTakeover.decide(lease: lease(head: 9), follower: follower(at: 9), followerLost: false) == .lead)
        #expect(ClusterTakeover.decide(lease: lease(head: 9), follower: follower(at: 5), followerLost: false) == .wait)
        #expect(ClusterTakeover.decide(lease: lease(head: 9), follower: LogFollower(), followerLost: false) == .wait)
        #expect(
            ClusterTakeover.decide(lease: lease(head: 0), follower: follower(at: 5), followerLost: false)
                == .startEpoch(newEpoch: false))
        #expect(
            ClusterTakeover.decide(lease: lease(head: 9), follower: follower(at: 12), followerLost: false)
                == .startEpoch(newEpoch: true), "rewound")
        #expect(
            ClusterTakeover.decide(lease: lease(head: 9), follower: LogFollower(), followerLost: true)
                == .startEpoch(newEpoch: true), "lost")
        #expect(
            ClusterTakeover.decide(lease: lease("e2", head: 9), follower: follower(at: 12), followerLost: false)
                == .wait, "a reader still on another epoch")
    }

    @Test("a log row carries the change's exact bytes and reads back as the same change")
    func logEntryRoundTrip() throws {
        let store = FeedStore(configuration: .init(profile: .generic), epoch: "e1")
        let first = try #require(store.replaceDocument(try JSONValue(parsing: #"{"a":[1,2]}"#), position: "u-1"))
        let second = try #require(store.replaceDocument(try JSONValue(parsing: #"{"a":[1,2,3]}"#), position: "u-2"))
        let data = ClusterLogEntry(change: first, seq: 1)
        let patch = ClusterLogEntry(change: second, seq: 2)
        #expect(data.kind == .data && data.body == Array(#"{"a":[1,2]}"#.utf8) && data.upstreamPosition == "u-1")
        guard case .patch(_, let encoded) = second.kind else {
            Issue.record("a patch")
            return
        }
        #expect(patch.kind == .patch && patch.body == encoded)
        let follower = FeedStore(configuration: .init(profile: .generic))
        try follower.adopt(try data.publishedChange(epoch: "e1"))
        try follower.adopt(try patch.publishedChange(epoch: "e1"))
        #expect(follower.snapshot?.id == store.snapshot?.id)
        #expect(follower.snapshot?.encodedDocument == store.snapshot?.encodedDocument)
        #expect(throws: ClusterLogError.self) {
            try ClusterLogEntry(seq: 3, kind: .patch, body: Array("{".utf8)).publishedChange(epoch: "e1")
        }
    }
}
