import DequeModule
import FeedCore
import NIOConcurrencyHelpers

/// `/inspect`'s log: the last ``capacity`` accepted changes and their way from upstream to
/// the last socket. Fed by two consumers of the fan-out stage, one before `/events` (the
/// event as accepted, ``arrived(_:eventBytes:)``) and one after the streams (``queued(_:)``);
/// the socket writes come from the stream senders' ``WriteMarks``, read when the log is.
///
/// Once an event has been listed for ``settleAfter`` (its writes done but for clients far
/// behind), its stage times go to the `feedweb_event_stage_seconds{stage}` histogram, once.
///
/// The lock guards `State` only and is a leaf but for the senders' marks locks (leaves
/// themselves), taken under it when the log is read.
final class EventLog: Sendable {
    /// The most events listed.
    static let capacity = 200
    /// How long after it was queued an event's stage times are final enough to count.
    static let settleAfter: UInt64 = 2_000_000_000

    private struct State {
        var events = Deque<InspectedEvent>()
        /// Moves whenever what ``events()`` returns changes.
        var version: UInt64 = 0
    }

    private let state = NIOLockedValueBox(State())
    /// The stream senders' marks (late bound: the server starts after the handlers).
    let writeMarks = WriteMarksSource()
    /// Told each settled event's stage times: the stage's name and nanoseconds after the
    /// event was received.
    private let observe: @Sendable (_ stage: String, _ nanoseconds: UInt64) -> Void

    init(observe: @escaping @Sendable (_ stage: String, _ nanoseconds: UInt64) -> Void = { _, _ in }) {
        self.observe = observe
    }

    /// Lists an accepted change; `eventBytes` is the `/events` event every client gets for
    /// it (the fan-out stage's consumer, before `/events`). Its marks are cleared in every
    /// sender first, so a write of bytes freed before at the same address never counts.
    func arrived(_ change: FanoutChange, eventBytes: [UInt8]) {
        let store = change.change
        let committed = store.committedAt
        let arrival = store.arrival
        let kind: InspectedEvent.Kind
        let operations: Int
        let bytes: Int
        switch store.kind {
        case .patch(let patch, let encoded):
            (kind, operations, bytes) = (.patch, patch.operations.count, encoded.count)
        case .snapshot:
            (kind, operations, bytes) = (.data, 0, store.snapshot.encodedByteCount)
        }
        let received = min(arrival?.received ?? committed, committed)
        // The wall time of arrival: the commit's, less the time from the read to the commit.
        let arrivedAt = WallTime(microseconds: store.time.microseconds - Int64((committed - received) / 1000))
        let event = InspectedEvent(
            id: store.snapshot.id, kind: kind, operations: operations, bytes: bytes, arrivedAt: arrivedAt,
            stages: Stages(
                received: received, parsed: min(max(arrival?.parsed ?? committed, received), committed),
                committed: committed),
            eventBytes: eventBytes)
        if let address = Self.address(of: eventBytes) {
            for marks in writeMarks.all { marks.forget(address) }
        }
        let dropped = state.withLockedValue { state -> InspectedEvent? in
            state.events.append(event)
            state.version &+= 1
            return state.events.count > Self.capacity ? state.events.removeFirst() : nil
        }
        if let dropped, !dropped.observed { record(dropped.stages) }
    }

    /// Notes that every stream client has change `id` queued (after the streams).
    func queued(_ id: EventID, at now: UInt64 = MonotonicTime.now()) {
        state.withLockedValue { state in
            guard let index = state.events.lastIndex(where: { $0.id == id }) else { return }
            state.events[index].stages.queued = max(now, state.events[index].stages.committed)
            state.version &+= 1
        }
    }

    /// The events listed, oldest first, with the socket writes known now, and the log's
    /// version (it moves whenever they change).
    func events() -> (version: UInt64, events: [InspectedEvent]) {
        let senders = writeMarks.all
        return state.withLockedValue { state in
            for index in state.events.indices {
                let event = state.events[index]
                guard event.stages.queued != nil, let address = Self.address(of: event.eventBytes) else {
                    continue
                }
                var first: UInt64?
                var last: UInt64?
                for marks in senders {
                    guard let mark = marks.marks(of: address) else { continue }
                    first = min(first ?? mark.first, mark.first)
                    last = max(last ?? mark.last, mark.last)
                }
                // A write is never before the commit; the first socket may take the event
                // while other shards still queue it.
                let committed = event.stages.committed
                let firstWrite = first.map { max($0, committed) }
                let lastWrite = last.map { max($0, firstWrite ?? committed) }
                if firstWrite != event.stages.firstWrite || lastWrite != event.stages.lastWrite {
                    state.events[index].stages.firstWrite = firstWrite
                    state.events[index].stages.lastWrite = lastWrite
                    state.version &+= 1
                }
            }
            return (state.version, Array(state.events))
        }
    }

    /// The log's version now (cheap: no marks read).
    var version: UInt64 { state.withLockedValue { $0.version } }

    /// Sends the stage times of the events settled by `now` to the histogram (the
    /// once-a-second sweep).
    func settle(now: UInt64 = MonotonicTime.now()) {
        let (_, events) = self.events()
        let settled = events.filter { event in
            guard !event.observed, let queued = event.stages.queued else { return false }
            return now > queued && now - queued >= Self.settleAfter
        }
        guard !settled.isEmpty else { return }
        let ids = Set(settled.map(\.id))
        state.withLockedValue { state in
            for index in state.events.indices where ids.contains(state.events[index].id) {
                state.events[index].observed = true
            }
        }
        for event in settled { record(event.stages) }
    }

    private func record(_ stages: Stages) {
        for (name, offset) in zip(Stages.names, stages.offsets) {
            if let offset { observe(name, offset) }
        }
    }

    private static func address(of bytes: [UInt8]) -> UInt? { WriteMarks.address(of: bytes) }
}

/// The stream senders' ``WriteMarks``, connected once the server exists (none before).
final class WriteMarksSource: Sendable {
    private let marks = NIOLockedValueBox<[WriteMarks]>([])

    /// From now on the marks are these.
    func connect(_ marks: [WriteMarks]) {
        self.marks.withLockedValue { $0 = marks }
    }

    var all: [WriteMarks] { marks.withLockedValue { $0 } }
}
