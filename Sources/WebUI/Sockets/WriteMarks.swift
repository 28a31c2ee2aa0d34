import FeedCore
import NIOConcurrencyHelpers

/// When a ``StreamSender`` first and last handed each recent event to a socket: the end of
/// an event's way from upstream to the sockets, for `/inspect`'s waterfall and the stage
/// histogram. An event is known by the address of its encoded bytes (the one buffer every
/// client's queue shares; ``address(of:)``), which its tracker keeps alive while it asks.
///
/// A write counts when the kernel reports it taken (`send` returned, or io_uring's
/// completion was seen): the first and the last such report, over every client of the
/// sender, for each event in the chunk written. A chunk that only a part of went out
/// counts again when its rest does.
///
/// The thread's own marks (``Pass``) need no lock; they are published once per pass
/// under `published`, a leaf the sender takes alone and `/inspect` takes to read.
final class WriteMarks: Sendable {
    /// First and last write of one event (``MonotonicTime``, nanoseconds).
    struct Marks: Sendable, Equatable {
        var first: UInt64
        var last: UInt64
    }

    /// The most events remembered (the oldest go first).
    static let capacity = 1024

    private struct Published {
        var marks: [UInt: Marks] = [:]
        var order: [UInt] = []
    }

    /// Guards the marks published. A leaf.
    private let published = NIOLockedValueBox(Published())

    /// The address that names `bytes` (their buffer's), or `nil` for none.
    static func address(of bytes: [UInt8]) -> UInt? {
        bytes.withUnsafeBytes { $0.baseAddress.map { UInt(bitPattern: $0) } }
    }

    /// The marks of `event`'s bytes, if this sender wrote them.
    func marks(of event: UInt) -> Marks? {
        published.withLockedValue { $0.marks[event] }
    }

    /// Forgets the marks of the bytes at `event`: a new event there (the address of bytes
    /// freed before) starts afresh. Called before the event is queued to any client.
    func forget(_ event: UInt) {
        published.withLockedValue { published in
            guard published.marks.removeValue(forKey: event) != nil else { return }
            published.order.removeAll { $0 == event }
        }
    }

    /// The marks of one pass (the sender's thread only).
    ///
    /// In a fan-out every client's write carries the same event, one after the other: the
    /// event written last is kept aside (`latest`), so a run of writes of one event costs
    /// one look-up in `earlier`, not one per client.
    struct Pass {
        /// The event written last, and its marks (not in `earlier`).
        private var latest: (event: UInt, marks: Marks)?
        /// The marks of the other events written this pass.
        private var earlier: [UInt: Marks] = [:]

        /// A socket took (some of) a chunk with the event at `event`, `now`.
        mutating func wrote(_ event: UInt, at now: UInt64) {
            if var current = latest, current.event == event {
                current.marks.first = min(current.marks.first, now)
                current.marks.last = max(current.marks.last, now)
                latest = current
                return
            }
            if let current = latest { Self.merge(current.marks, of: current.event, into: &earlier) }
            var marks = Marks(first: now, last: now)
            if let known = earlier.removeValue(forKey: event) {
                marks.first = min(marks.first, known.first)
                marks.last = max(marks.last, known.last)
            }
            latest = (event, marks)
        }

        /// Every event written this pass, with its marks.
        var marks: [UInt: Marks] {
            var all = earlier
            if let current = latest { Self.merge(current.marks, of: current.event, into: &all) }
            return all
        }

        var isEmpty: Bool { latest == nil && earlier.isEmpty }

        mutating func reset() {
            latest = nil
            earlier.removeAll(keepingCapacity: true)
        }

        private static func merge(_ marks: Marks, of event: UInt, into all: inout [UInt: Marks]) {
            if var known = all[event] {
                known.first = min(known.first, marks.first)
                known.last = max(known.last, marks.last)
                all[event] = known
            } else {
                all[event] = marks
            }
        }
    }

    /// Publishes a pass's marks.
    func publish(_ pass: Pass) {
        guard !pass.isEmpty else { return }
        published.withLockedValue { published in
            for (event, marks) in pass.marks {
                if var known = published.marks[event] {
                    known.first = min(known.first, marks.first)
                    known.last = max(known.last, marks.last)
                    published.marks[event] = known
                } else {
                    published.marks[event] = marks
                    published.order.append(event)
                }
            }
            if published.order.count > Self.capacity {
                let dropped = published.order.count - Self.capacity
                for event in published.order.prefix(dropped) { published.marks[event] = nil }
                published.order.removeFirst(dropped)
            }
        }
    }
}
