import FeedCore
import Foundation
import NIOConcurrencyHelpers

/// An SSE client reading in a task of its own, recording every event and when it came:
/// as fast as the server sends, or (with a ``Pace``) no faster than a set rate, for a
/// client that keeps reading but falls behind a flood.
///
/// The task runs on a thread of its own, so that a busy cooperative pool cannot slow the
/// reader below its pace (a paced reader that falls far below it would take nothing for
/// seconds, and be dropped as stalled).
public final class BackgroundSSEReader: Sendable {
    public struct Received: Sendable {
        public let event: SSEEvent
        public let at: Date
    }

    /// How fast a slow reader takes the stream: never more than `bytesPerSecond` on
    /// average since it connected, in reads of at most `chunk` bytes.
    public struct Pace: Sendable {
        public let bytesPerSecond: Int
        public let chunk: Int

        public init(bytesPerSecond: Int, chunk: Int) {
            self.bytesPerSecond = bytesPerSecond
            self.chunk = chunk
        }
    }

    private struct Log {
        var events: [Received] = []
        var failure: String?
        var endedByServer = false
        var paced = true
        var bytes = 0
    }

    /// The response's status.
    public let status: Int
    private let log: NIOLockedValueBox<Log>
    private let executor: DedicatedTaskExecutor
    private let task: Task<Void, Never>

    /// Opens `path` and starts reading. For a slow reader, `receiveBuffer` and `maxSegment`
    /// keep the kernel buffers on the way small (see
    /// ``RawSocket/init(port:timeout:receiveBuffer:maxSegment:)``), so that what it has not
    /// taken waits in the server's queue.
    public init(
        port: UInt16, path: String = "/events", receiveBuffer: Int32? = nil, maxSegment: Int32? = nil,
        pace: Pace? = nil
    ) async throws {
        let stream = try await SSETestClient(
            port: port, path: path, receiveBuffer: receiveBuffer, maxSegment: maxSegment)
        status = stream.status
        let log = NIOLockedValueBox(Log())
        self.log = log
        executor = DedicatedTaskExecutor(threads: 1, name: "sse-reader")
        let start = ContinuousClock.now
        task = Task(executorPreference: executor) {
            while !Task.isCancelled {
                var limit = 65536
                if let pace, log.withLockedValue({ $0.paced }) {
                    let elapsed = (ContinuousClock.now - start) / .seconds(1)
                    let allowed = Int(Double(pace.bytesPerSecond) * elapsed) - stream.received.count
                    guard allowed >= pace.chunk else {
                        let wait = Double(pace.chunk - allowed) / Double(pace.bytesPerSecond)
                        try? await Task.sleep(for: .seconds(max(0.002, min(0.05, wait))))
                        continue
                    }
                    limit = pace.chunk
                }
                do {
                    let events = try await stream.take(atMost: limit, before: Date().addingTimeInterval(0.2))
                    let (at, bytes) = (Date(), stream.received.count)
                    log.withLockedValue {
                        $0.events += events.map { Received(event: $0, at: at) }
                        $0.bytes = bytes
                    }
                } catch RawSocket.Failure.timeout {
                    continue
                } catch RawSocket.Failure.closed {
                    log.withLockedValue { $0.endedByServer = true }
                    break
                } catch {
                    log.withLockedValue { $0.failure = "\(error)" }
                    break
                }
            }
            stream.close()
        }
    }

    deinit {
        task.cancel()
    }

    /// Every event so far, in order.
    public var events: [Received] { log.withLockedValue { $0.events } }
    /// Body bytes received so far (after chunked decoding).
    public var receivedBytes: Int { log.withLockedValue { $0.bytes } }
    /// What ended the reading other than the server ending the stream, if anything.
    public var failure: String? { log.withLockedValue { $0.failure } }
    /// Whether the server ended the stream (closed it, or sent its last chunk).
    public var endedByServer: Bool { log.withLockedValue { $0.endedByServer } }

    /// From now on, reads as fast as the server sends.
    public func unpace() {
        log.withLockedValue { $0.paced = false }
    }

    /// Stops reading and closes the connection.
    public func stop() async {
        task.cancel()
        await task.value
        executor.shutdown()
    }
}
