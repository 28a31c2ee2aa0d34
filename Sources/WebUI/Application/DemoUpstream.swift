import FeedCore
import Foundation
import Logging
import NIOConcurrencyHelpers

/// The demo newswire as an upstream: a store advanced by ``DemoNewswire`` every few
/// seconds and served at `/demo/upstream` in the document protocol, exactly as a remote
/// feed would be.
final class DemoUpstream: Sendable {
    let store: FeedStore
    let stream: DocumentEventStream
    /// The demo store's one observer: `/demo/upstream` is its only consumer.
    private let fanout: FanoutStage
    private let newswire: NIOLockedNewswire
    private let interval: Duration
    private let seed: UInt64
    private let logger: Logger

    init(interval: Duration, logger: Logger) {
        // The upstream mirrors everything: no version guard on this side.
        let profile = ItemProfile(
            name: "demo-upstream", itemsPath: ItemProfile.nytNewswire.itemsPath,
            keyPath: ItemProfile.nytNewswire.keyPath,
            versionPath: nil, fields: [:])
        store = FeedStore(configuration: .init(profile: profile, historyCount: 200))
        let seed = UInt64.random(in: 1...UInt64.max)
        let newswire = DemoNewswire(seed: seed, now: Date())
        store.replaceDocument(newswire.document)
        self.newswire = NIOLockedNewswire(newswire)
        let stream = DocumentEventStream(ownClientsOf: store)
        self.stream = stream
        fanout = FanoutStage(
            store: store, name: "feedweb.demo-fanout", consumers: [.init(name: "/demo/upstream") { stream.deliver($0) }]
        )
        self.interval = interval
        self.seed = seed
        self.logger = logger
    }

    /// Advances the newswire every `interval` on average until cancelled: each wait is
    /// drawn uniformly from half to one and a half times it, as a real desk does not file
    /// on a metronome (and a fixed beat against `/stats`' 5-second windows draws a zigzag).
    func run() async {
        var generator = SplitMix64(seed: seed ^ 0x5EED)
        while !Task.isCancelled {
            let factor = 0.5 + Double(generator.next() >> 11) / Double(1 << 53)
            do {
                try await Task.sleep(for: interval * factor)
            } catch {
                return
            }
            let document = newswire.advance(now: Date())
            store.replaceDocument(document)
        }
    }
}

/// The newswire behind a lock (it is a value advanced by one task, read by none other).
private final class NIOLockedNewswire: Sendable {
    /// Guards the newswire while it advances. A leaf: the store is written after it is
    /// released.
    private let box: NIOLockedValueBox<DemoNewswire>

    init(_ newswire: DemoNewswire) {
        box = NIOLockedValueBox(newswire)
    }

    func advance(now: Date) -> JSONValue {
        box.withLockedValue { newswire in
            _ = newswire.advance(now: now)
            return newswire.document
        }
    }
}
