import Foundation
import Glibc

/// Many clients opening an SSE stream at once, as a crowd does after a restart: every socket
/// is connected without waiting (non-blocking) and sends its request the moment its connect
/// completes; then the time from each one's connect to its first byte, and to the first
/// whole event, is measured.
///
/// One thread of its own (so a busy cooperative pool cannot slow the burst); every wait is
/// bounded by `within`.
public enum StreamBurst {
    /// What the burst saw.
    public struct Report: Sendable {
        /// Sockets that connected and sent their request.
        public var opened = 0
        /// Seconds from each client's connect to its first byte, for those that got one.
        public var firstByte: [Double] = []
        /// Seconds from each client's connect to the end of its first event with data (its
        /// blank line), for those that got one.
        public var firstEvent: [Double] = []
        /// Clients whose first answer line was not `200`.
        public var refused = 0
        /// Clients the server closed before their first event.
        public var closedEarly = 0
        /// Failures to connect or send (the first few reasons).
        public var failures: [String] = []

        /// The slowest first event, in seconds (∞ when some client got none).
        public var slowestFirstEvent: Double {
            firstEvent.count == opened ? (firstEvent.max() ?? 0) : .infinity
        }
    }

    /// Opens `count` streams on `path` at once and waits at most `within` seconds for every
    /// one's first event; closes them all before returning.
    public static func open(port: UInt16, path: String, count: Int, within: Double) async -> Report {
        await withCheckedContinuation { (done: CheckedContinuation<Report, Never>) in
            let thread = Thread {
                done.resume(returning: burst(port: port, path: path, count: count, within: within))
            }
            thread.name = "test-burst"
            thread.stackSize = 1 << 20
            thread.start()
        }
    }

    private struct Client {
        let fd: Int32
        let startedAt: ContinuousClock.Instant
        var sent = false
        var received: [UInt8] = []
        var firstByteAt: ContinuousClock.Instant?
        var done = false
    }

    private static func burst(port: UInt16, path: String, count: Int, within: Double) -> Report {
        var report = Report()
        let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".utf8)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var clients: [Client] = []
        for _ in 0..<count {
            let fd = socket(
                AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else {
                if report.failures.count < 10 { report.failures.append("socket: \(String(cString: strerror(errno)))") }
                continue
            }
            let startedAt = ContinuousClock.now
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard result == 0 || errno == EINPROGRESS else {
                if report.failures.count < 10 { report.failures.append("connect: \(String(cString: strerror(errno)))") }
                close(fd)
                continue
            }
            clients.append(Client(fd: fd, startedAt: startedAt))
        }
        let deadline = ContinuousClock.now + .seconds(within)
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while clients.contains(where: { !$0.done }), ContinuousClock.now < deadline {
            var descriptors = clients.map {
                pollfd(fd: $0.done ? -1 : $0.fd, events: Int16($0.sent ? POLLIN : POLLOUT), revents: 0)
            }
            let left = max(1, Int32((deadline - ContinuousClock.now).milliseconds))
            guard poll(&descriptors, nfds_t(descriptors.count), min(100, left)) > 0 else { continue }
            let now = ContinuousClock.now
            for index in clients.indices where descriptors[index].revents != 0 {
                if !clients[index].sent {
                    var code: Int32 = 0
                    var length = socklen_t(MemoryLayout<Int32>.size)
                    getsockopt(clients[index].fd, SOL_SOCKET, SO_ERROR, &code, &length)
                    let sent = request.withUnsafeBytes {
                        Glibc.send(clients[index].fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
                    }
                    if code != 0 || sent != request.count {
                        if report.failures.count < 10 {
                            report.failures.append(code != 0 ? "connect: \(String(cString: strerror(code)))" : "send")
                        }
                        clients[index].done = true
                        continue
                    }
                    clients[index].sent = true
                    report.opened += 1
                    continue
                }
                let n = buffer.withUnsafeMutableBytes {
                    recv(clients[index].fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT))
                }
                if n > 0 {
                    if clients[index].firstByteAt == nil {
                        clients[index].firstByteAt = now
                        report.firstByte.append((now - clients[index].startedAt).timeInterval)
                    }
                    clients[index].received += buffer[..<n]
                    let text = clients[index].received
                    if !text.starts(with: Array("HTTP/1.1 200".utf8)) && text.count >= 12 {
                        report.refused += 1
                        clients[index].done = true
                    } else if let head = text.firstRange(of: [13, 10, 13, 10]),
                        let data = text[head.upperBound...].firstRange(of: Array("\ndata:".utf8)),
                        text[data.upperBound...].firstRange(of: [10, 10]) != nil
                    {
                        report.firstEvent.append((now - clients[index].startedAt).timeInterval)
                        clients[index].done = true
                    }
                } else if n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
                    report.closedEarly += 1
                    clients[index].done = true
                }
            }
        }
        for client in clients { close(client.fd) }
        return report
    }
}
