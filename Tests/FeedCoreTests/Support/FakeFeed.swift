import FeedCore
import Foundation
import NIOConcurrencyHelpers

/// An upstream in the append dialect for cluster tests, without sockets: items with ids
/// `u1`, `u2`, … that a leader's ``FakeUpstream`` delivers into its store, resuming after
/// the position it was given, as an SSE source resumes after `Last-Event-ID`; without a
/// position, from the items that come after it connected (as a live feed joined now).
/// Records every connection (who, resuming from where) and how many are open.
final class FakeFeed: Sendable {
    struct Connection: Sendable, Equatable {
        let node: String
        let resumedFrom: String?
    }

    private struct State {
        var items: [JSONValue] = []
        var connections: [Connection] = []
        var open = 0
        var mostOpen = 0
    }

    private let state = NIOLockedValueBox(State())
    /// How many items the document keeps.
    let keep: Int

    init(keep: Int = 1000) {
        self.keep = keep
    }

    /// Adds item number `count + 1`, `{"n": N}`; returns its id.
    @discardableResult
    func push() -> String {
        state.withLockedValue { state in
            state.items.append(.object(["n": .int(Int64(state.items.count + 1))]))
            return "u\(state.items.count)"
        }
    }

    var itemCount: Int { state.withLockedValue { $0.items.count } }
    var connections: [Connection] { state.withLockedValue { $0.connections } }
    var openConnections: Int { state.withLockedValue { $0.open } }
    /// The most connections open at once so far.
    var mostOpenConnections: Int { state.withLockedValue { $0.mostOpen } }

    /// The leader's upstream for `node`, feeding `store`.
    func upstream(node: String, store: FeedStore) -> FakeUpstream {
        FakeUpstream(feed: self, node: node, store: store)
    }

    fileprivate func opened(node: String, from position: String?) {
        state.withLockedValue { state in
            state.connections.append(Connection(node: node, resumedFrom: position))
            state.open += 1
            state.mostOpen = max(state.mostOpen, state.open)
        }
    }

    fileprivate func closed() {
        state.withLockedValue { $0.open -= 1 }
    }

    /// The items after index `index`.
    fileprivate func items(after index: Int) -> [JSONValue] {
        state.withLockedValue { state in index < state.items.count ? Array(state.items[index...]) : [] }
    }
}

/// One subscription to a ``FakeFeed``: delivers every item after its resume position, one
/// change each, until cancelled.
final class FakeUpstream: ClusterUpstream {
    let statusPublisher = UpstreamStatusPublisher(source: "fake")
    private let feed: FakeFeed
    private let node: String
    private let store: FeedStore
    private let position = NIOLockedValueBox<String?>(nil)

    fileprivate init(feed: FakeFeed, node: String, store: FeedStore) {
        self.feed = feed
        self.node = node
        self.store = store
    }

    func resume(from position: String?) {
        self.position.withLockedValue { $0 = position }
    }

    func run() async {
        let start = position.withLockedValue { $0 }
        statusPublisher.publish(.connecting)
        feed.opened(node: node, from: start)
        statusPublisher.publish(.opened(at: Date()))
        var delivered = start.flatMap { Int($0.dropFirst()) } ?? feed.itemCount
        while !Task.isCancelled {
            for item in feed.items(after: delivered) where !Task.isCancelled {
                delivered += 1
                store.prependItem(item, keep: feed.keep, position: "u\(delivered)")
                statusPublisher.publish(.eventHandled(at: Date()))
            }
            try? await Task.sleep(for: .milliseconds(5))
        }
        feed.closed()
        statusPublisher.publish(.stopped)
    }
}
