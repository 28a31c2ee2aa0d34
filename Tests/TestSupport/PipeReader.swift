import Foundation
import Glibc
import NIOConcurrencyHelpers

/// Reads a child process's output pipe to its end, on a thread of its own that blocks in
/// `read(2)`, and keeps every byte that arrived.
///
/// Not Foundation's `readabilityHandler`: its Dispatch source may still be registered when
/// the handle closes its descriptor, and once the number is reused Dispatch's event loop
/// follows a freed source (SIGSEGV in `_dispatch_event_loop_drain`, which ended a full test
/// run once). Here the read end stays open until its end has been read: the child's exit
/// (the parent's copy of the write end is closed at spawn, see ``Subprocess``).
public final class PipeReader: Sendable {
    private let state = NIOLockedValueBox((bytes: [UInt8](), ended: false))

    /// Starts reading `pipe`'s read end.
    public init(_ pipe: Pipe) {
        let handle = pipe.fileHandleForReading
        let state = self.state
        let thread = Thread {
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(handle.fileDescriptor, $0.baseAddress, $0.count) }
                if count > 0 {
                    state.withLockedValue { $0.bytes += buffer.prefix(count) }
                } else if count < 0 && errno == EINTR {
                    continue
                } else {
                    break
                }
            }
            state.withLockedValue { $0.ended = true }
        }
        thread.name = "test-pipe-reader"
        thread.start()
    }

    /// The bytes read so far.
    public var bytes: [UInt8] { state.withLockedValue { $0.bytes } }

    /// The bytes read so far, as UTF-8 text.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Waits at most `seconds` for the end of the pipe; whether it came.
    @discardableResult
    public func end(within seconds: Double) async -> Bool {
        (try? await Eventually.check("the end of a child's output", within: seconds, poll: .milliseconds(5)) {
            self.state.withLockedValue { $0.ended }
        }) != nil
    }
}
