import FeedCore
import Foundation
import NIOConcurrencyHelpers
import TestSupport
import Testing

/// Observers run after the store's write lock is released, in commit order: a slow
/// observer (a page render, say) never holds up the next commit.
@Suite("Store delivery off the write lock", .onThreadsOfItsOwn)
struct FeedStoreDeliveryTests {
    @Test("the next change commits while an observer of the previous one is still running; both arrive in order")
    func nextCommitDuringDelivery() async throws {
        let store = FeedStore(configuration: .init(profile: .generic), epoch: "t")
        store.replaceDocument(.object(["items": .array([])]))
        let seen = NIOLockedValueBox<[UInt64]>([])
        let committedDuringDelivery = NIOLockedValueBox<Bool?>(nil)
        let patch = try JSONPatch(parsing: #"[{"op":"add","path":"/items/-","value":{"id":"b"}}]"#)
        store.observe { change in
            let seq = change.snapshot.id.seq
            if seq == 2 {
                // While this observer runs, a second writer on another thread commits
                // change 3; it can only if the write lock is free now.
                let second = Thread { _ = try? store.apply(patch) }
                second.start()
                let deadline = Date().addingTimeInterval(5)
                var committed = false
                while Date() < deadline {
                    if store.snapshot?.id.seq == 3 {
                        committed = true
                        break
                    }
                    Thread.sleep(forTimeInterval: 0.001)  // on the writer's own thread, not the pool
                }
                committedDuringDelivery.withLockedValue { $0 = committed }
            }
            seen.withLockedValue { $0.append(seq) }
        }
        let first = Thread {
            store.prependItem(.object(["id": .string("a")]), keep: 10)
        }
        first.start()
        try await Eventually.check("both changes delivered", within: 10) { seen.withLockedValue { $0.count } == 2 }
        #expect(committedDuringDelivery.withLockedValue { $0 } == true, "change 3 committed during change 2's delivery")
        #expect(seen.withLockedValue { $0 } == [2, 3], "delivered in commit order")
    }
}
