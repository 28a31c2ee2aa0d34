import Dispatch
import FeedCore
import NIOConcurrencyHelpers

/// The store's one observer: takes each accepted change off the upstream's task, works out
/// once what every consumer needs (``FanoutChange``) and hands it to the consumers in the
/// order of ``consumers``, on a queue of its own, outside every lock of the store.
///
/// The consumers of feedweb's store, in this order (``ordered(_:)``, below, builds the list:
/// the one place it is written):
/// 1. `/stats`' counts (``StatsRecorder``): first, so every later consumer, and every
///    page, sees the change counted;
/// 2. how items are read (``ItemReadingLog``), logged when it changes;
/// 3. `/inspect`'s log (``EventLog/arrived(_:eventBytes:)``), when it is on: the event
///    listed, with the `/events` bytes whose socket writes it then follows;
/// 4. the page streams (``PageStreamPublisher``): a frame requested, cheap, so a person's
///    page never waits behind a fan-out to thousands;
/// 5. `/events` (``DocumentEventStream``), to every shard at once;
/// 6. `/events/items` (``ItemEventStream``), likewise;
/// 7. `/inspect`'s log again (``EventLog/queued(_:)``): every client has it queued;
/// 8. the state file (``StateFileWriter``), when there is one;
/// 9. the webhooks (``WebhookNotifier``), when there are any: last, as they only queue.
///
/// Invariants: changes reach every consumer in commit order, each change once; a change is
/// handed on only after every consumer is done with the one before. At most
/// ``maxPending`` changes wait: past that the store's delivery waits for room, so upstream
/// is slowed, never silently outrun.
final class FanoutStage: Sendable {
    /// A part that takes every accepted change.
    struct Consumer: Sendable {
        /// What it is, for readers and logs.
        let name: String
        let deliver: @Sendable (FanoutChange) -> Void
    }

    /// feedweb's consumers: the parts that take each change of its store.
    struct Parts: Sendable {
        let stats: StatsRecorder
        let readingLog: ItemReadingLog
        /// `/inspect`'s event log; `nil` with `--inspect off`.
        let inspectLog: EventLog?
        let pageStreams: PageStreamPublisher
        let events: DocumentEventStream
        let items: ItemEventStream
        /// `nil` without `--state-file`.
        let stateFile: StateFileWriter?
        /// `nil` without `--webhook`.
        var webhooks: WebhookNotifier? = nil
    }

    /// `parts` as consumers, in the order written down above.
    static func ordered(_ parts: Parts) -> [Consumer] {
        var consumers: [Consumer] = [
            Consumer(name: "/stats counts") { change in
                parts.stats.record(change.change, eventBytes: { parts.events.eventBytes(for: change).count })
            },
            Consumer(name: "how items are read, logged when it changes") { parts.readingLog.deliver($0) },
        ]
        if let log = parts.inspectLog {
            consumers.append(
                Consumer(name: "/inspect: arrived") { log.arrived($0, eventBytes: parts.events.eventBytes(for: $0)) })
        }
        consumers += [
            Consumer(name: "page frames") { parts.pageStreams.deliver($0) },
            Consumer(name: "/events") { parts.events.deliver($0) },
            Consumer(name: "/events/items") { parts.items.deliver($0) },
        ]
        if let log = parts.inspectLog {
            consumers.append(Consumer(name: "/inspect: queued") { log.queued($0.snapshot.id) })
        }
        if let stateFile = parts.stateFile {
            consumers.append(Consumer(name: "state file") { _ in stateFile.changed() })
        }
        if let webhooks = parts.webhooks {
            consumers.append(Consumer(name: "webhooks") { webhooks.deliver($0) })
        }
        return consumers
    }

    /// The most changes waiting to be handed on before the store's delivery waits.
    static let maxPending = 256

    /// The consumers, in the order each change reaches them.
    let consumers: [Consumer]
    private let queue: DispatchQueue
    private let room: DispatchSemaphore
    /// Changes accepted and not yet handed to every consumer. A leaf.
    private let pending = NIOLockedValueBox(0)

    /// Becomes `store`'s one observer; each accepted change goes to `consumers`, in order.
    init(store: FeedStore, name: String = "feedweb.fanout", consumers: [Consumer]) {
        self.consumers = consumers
        self.queue = DispatchQueue(label: name, qos: .userInitiated)
        self.room = DispatchSemaphore(value: Self.maxPending)
        store.observe { [self] change in accept(change) }
    }

    /// Changes accepted and not yet handed to every consumer.
    var backlog: Int { pending.withLockedValue { $0 } }

    /// The store's delivery (its writer's task, holding its delivery lock): queues the
    /// change and returns, or first waits while ``maxPending`` are waiting.
    private func accept(_ change: FeedChange) {
        room.wait()
        pending.withLockedValue { $0 += 1 }
        queue.async { [self] in
            let fanned = FanoutChange(change)
            for consumer in consumers { consumer.deliver(fanned) }
            pending.withLockedValue { $0 -= 1 }
            room.signal()
        }
    }

    /// Waits until every change accepted so far has reached every consumer (tests, and a
    /// stop that must not cut a change short).
    func drain() {
        queue.sync {}
    }
}
