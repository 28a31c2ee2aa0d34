import FeedCore
import Foundation
import Glibc
import NIOConcurrencyHelpers

/// Many SSE clients held open at once, each noting when every event reached it: the
/// ``FeedCore/MonotonicTime`` (`CLOCK_MONOTONIC`, the clock feedweb stamps its stages with)
/// at which the kernel received the bytes that completed the event (`SO_TIMESTAMPNS`,
/// taken as they enter the stack: on loopback, during the server's write), so that neither
/// this process's reading nor its place in line for a core moves the time; a read without a
/// timestamp counts at the moment it returned. One thread of its own reads every socket
/// (`poll`), so a busy cooperative pool cannot delay a reading.
///
/// Every wait is bounded; ``close()`` ends the thread and closes every socket.
public final class StreamCrowd: @unchecked Sendable {
    /// Clients connected and answered 200.
    public let count: Int
    /// The sockets, as connected (read by the reading thread only after `init`).
    private var sockets: [Int32] = []
    /// The reads not parsed yet, and the clients' parsers with each event id's arrivals
    /// (one per client that got it): parsed on the asking task, never on the reading
    /// thread. A leaf.
    private let parsed = NIOLockedValueBox(Parsed())

    private struct Parsed {
        var reads: [(fd: Int32, bytes: [UInt8], at: UInt64)] = []
        var clients: [Int32: Client] = [:]
        var arrivals: [String: [UInt64]] = [:]
    }
    private let finished = NIOLockedValueBox(false)
    private var thread: Thread?

    private struct Client {
        var head: [UInt8] = []
        var headDone = false
        var decoder = ChunkedDecoder()
        var parser = SSEParser()
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Opens `count` streams on `path`, one after the other, and starts reading them all.
    public init(port: UInt16, path: String = "/events", count: Int) throws {
        let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".utf8)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        for _ in 0..<count {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            let sent = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard connected == 0, sent == request.count else {
                Glibc.close(fd)
                throw Failure(description: "client \(sockets.count): \(String(cString: strerror(errno)))")
            }
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            var on: Int32 = 1
            _ = setsockopt(fd, SOL_SOCKET, Self.timestampOption, &on, socklen_t(MemoryLayout<Int32>.size))
            sockets.append(fd)
        }
        self.count = count
        parsed.withLockedValue { parsed in for fd in sockets { parsed.clients[fd] = Client() } }
        let thread = Thread { [self] in readLoop() }
        thread.name = "test-crowd"
        thread.stackSize = 1 << 20
        self.thread = thread
        thread.start()
    }

    /// When each client got the event `id` (``MonotonicTime``, ns), once every client
    /// has it or `seconds` have passed (then fewer than ``count``).
    public func arrivals(of id: String, within seconds: Double) async -> [UInt64] {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            let got = parseReads()[id] ?? []
            if got.count >= count { return got }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return parseReads()[id] ?? []
    }

    /// Clients that have had every one of `ids` (waiting at most `seconds`).
    public func waitForAll(_ id: String, within seconds: Double) async -> Bool {
        await arrivals(of: id, within: seconds).count >= count
    }

    /// Ends the reading thread and closes every socket.
    public func close() {
        guard
            !finished.withLockedValue({ done in
                defer { done = true }
                return done
            })
        else { return }
        while thread?.isFinished == false { usleep(1000) }
    }

    /// `SO_TIMESTAMPNS` (and its control message's type) on Linux; glibc defines it through
    /// a macro Swift does not import.
    private static let timestampOption: Int32 = 35

    /// `CLOCK_REALTIME` − `CLOCK_MONOTONIC` now, in ns: the kernel stamps receptions on the
    /// first, feedweb its stages on the second.
    private static func realtimeOffset() -> Int64 {
        var realtime = timespec()
        clock_gettime(CLOCK_REALTIME, &realtime)
        let monotonic = Int64(MonotonicTime.now())
        return Int64(realtime.tv_sec) * 1_000_000_000 + Int64(realtime.tv_nsec) - monotonic
    }

    /// The reception time in a `recvmsg` control buffer, as ``MonotonicTime`` ns, if any.
    private static func receivedAt(_ control: UnsafeRawBufferPointer, length: Int, offset: Int64) -> UInt64? {
        let header = MemoryLayout<cmsghdr>.size
        var at = 0
        while at + header <= length {
            let entry = control.loadUnaligned(fromByteOffset: at, as: cmsghdr.self)
            let entryLength = Int(entry.cmsg_len)
            guard entryLength >= header, at + entryLength <= length else { return nil }
            if entry.cmsg_level == SOL_SOCKET, entry.cmsg_type == timestampOption,
                entryLength >= header + MemoryLayout<timespec>.size
            {
                let stamp = control.loadUnaligned(fromByteOffset: at + header, as: timespec.self)
                let realtime = Int64(stamp.tv_sec) * 1_000_000_000 + Int64(stamp.tv_nsec)
                return realtime - offset > 0 ? UInt64(realtime - offset) : nil
            }
            at += (entryLength + 7) & ~7
        }
        return nil
    }

    private func readLoop() {
        // The measuring thread first in line for a core (where allowed: as root), so that on
        // a machine with few cores the times it notes are the network's, not its own wait
        // behind the server's threads.
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, -10)  // 0: this thread, on Linux
        var descriptors = sockets.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        // Reads go into one arena first and are parsed after: parsing (or even allocating
        // for) one client's bytes must not make the next client's reading late.
        let arenaSize = 16 << 20
        let arena = UnsafeMutableRawBufferPointer.allocate(byteCount: arenaSize, alignment: 16)
        defer { arena.deallocate() }
        var taken: [(fd: Int32, offset: Int, count: Int, at: UInt64)] = []
        taken.reserveCapacity(4 * sockets.count)
        var used = 0
        let offset = Self.realtimeOffset()
        let control = UnsafeMutableRawBufferPointer.allocate(byteCount: 128, alignment: 16)
        defer { control.deallocate() }
        while !finished.withLockedValue({ $0 }) {
            // Reads are handed on only once no socket has more (or the arena is full), so a
            // burst is read at the pace it arrives.
            let ready = poll(&descriptors, nfds_t(descriptors.count), taken.isEmpty ? 100 : 0)
            if ready <= 0 || used >= arenaSize / 2 {
                let reads = taken.map { ($0.fd, Array(arena[$0.offset..<$0.offset + $0.count]), $0.at) }
                parsed.withLockedValue { $0.reads += reads }
                taken.removeAll(keepingCapacity: true)
                used = 0
                if ready <= 0 { continue }
            }
            for index in descriptors.indices where descriptors[index].revents != 0 {
                let fd = descriptors[index].fd
                while used < arenaSize {
                    var slice = iovec(iov_base: arena.baseAddress! + used, iov_len: arenaSize - used)
                    var message = msghdr()
                    let n = withUnsafeMutablePointer(to: &slice) { slicePointer in
                        message.msg_iov = slicePointer
                        message.msg_iovlen = 1
                        message.msg_control = control.baseAddress
                        message.msg_controllen = control.count
                        return recvmsg(fd, &message, 0)
                    }
                    if n > 0 {
                        let at =
                            Self.receivedAt(
                                UnsafeRawBufferPointer(control), length: Int(message.msg_controllen), offset: offset)
                            ?? MonotonicTime.now()
                        taken.append((fd, used, n, at))
                        used += n
                        continue
                    }
                    if n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
                        descriptors[index].fd = -1  // ended: poll skips it
                    }
                    break
                }
            }
        }
        for fd in sockets { Glibc.close(fd) }
    }

    /// Parses the reads handed on so far; returns every event id's arrivals.
    private func parseReads() -> [String: [UInt64]] {
        parsed.withLockedValue { parsed in
            for (fd, bytes, at) in parsed.reads {
                guard var client = parsed.clients[fd] else { continue }
                var body = bytes
                if !client.headDone {
                    client.head += bytes
                    guard let end = client.head.firstRange(of: [13, 10, 13, 10]) else {
                        parsed.clients[fd] = client
                        continue
                    }
                    body = Array(client.head[end.upperBound...])
                    client.headDone = true
                    client.head = []
                }
                let events = (try? client.parser.parse(client.decoder.feed(body))) ?? []
                parsed.clients[fd] = client
                for event in events where !event.id.isEmpty { parsed.arrivals[event.id, default: []].append(at) }
            }
            parsed.reads.removeAll()
            return parsed.arrivals
        }
    }
}
