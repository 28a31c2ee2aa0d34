import CMicroHTTPD
import Glibc

/// A programs' stream the front door opens itself, for a plain `GET` of one of the
/// responder's ``HTTPResponder/directStreamPaths``: admitted by the server, its request
/// consumed by the door, then written by a shard's ``StreamSender`` from its head to its
/// end, and never libmicrohttpd's.
///
/// Why: libmicrohttpd keeps a connection's whole memory pool (8 KiB,
/// ``HTTPServer/Configuration/connectionMemoryLimit``, all of it touched by then) for as
/// long as the stream lasts, most of an idle client's memory. A stream opened here costs
/// its ``StreamConnection`` and the sender's record of it.
///
/// Its life, each step once:
/// 1. ``HTTPServer/directStream(for:)``: the responder's answer is a programs' stream, it
///    takes a connection place (``HandoverAdmission``: a direct stream holds a descriptor
///    as libmicrohttpd's connections do; without one the connection is closed unanswered,
///    as a hand-over would be) and the server admits it among its streams. Else the door
///    hands the connection over, request unread, and libmicrohttpd answers it: a 503, a
///    400, a page.
/// 2. The door consumes the request and lets go of the socket, then ``begin(socket:)``:
///    the head is sent (`send(2)`, which a new connection's buffer always takes), the
///    stream is subscribed on its shard (its first events queued) and bound to the
///    shard's sender, which writes from then on and watches for the client's hang-up.
///    When the door cannot consume the request, ``cancel()`` gives the places back.
/// 3. The sender hands it back to end (``StreamConnection/handBack(shutdown:)``): the final
///    chunk when it ended cleanly (the server stopping), the server forgets it, its
///    `onEnd` runs, the socket is closed and its connection place given back, in that
///    order, on the sender's thread.
struct DirectStream: Sendable {
    /// What the server makes of a plain request for a stream's path.
    enum Opening: Sendable {
        /// Admitted: the door consumes the request and calls ``begin(socket:)``.
        case opened(DirectStream)
        /// libmicrohttpd's to answer: the door hands the connection over, request unread.
        case elsewhere
        /// Every connection place is taken: the door closes the connection unanswered.
        case refused
    }

    let server: HTTPServer
    let start: StreamStart
    let stream: StreamConnection
    let shard: Shard
    let sender: StreamSender
    /// The response head: status line, `Date`, the stream's headers, `Transfer-Encoding`.
    let head: [UInt8]

    /// Sends the head on `fd` (now the stream's) and gives the stream to its sender; closes
    /// the socket if the head does not go out whole.
    func begin(socket fd: Int32) {
        let sent = head.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        guard sent == head.count else {
            server.forgetStream(stream)
            close(fd)
            server.releaseConnectionPlace()
            return
        }
        let onEnd = start.open(stream, on: shard)
        stream.attachDirect(socket: fd, sender: sender, onEnd: onEnd) { [server, stream] clean in
            server.endDirectStream(stream, socket: fd, clean: clean)
        }
    }

    /// Gives the stream's places back: the door could not take the request off the socket
    /// (and closes it).
    func cancel() {
        server.forgetStream(stream)
        server.releaseConnectionPlace()
    }
}

extension HTTPServer {
    /// The stream the front door opens for `request`: opened when the responder answers
    /// with a programs' stream, its shard has a sender, a connection place is free (one
    /// waiting for a request dropped to make it, as for a hand-over) and the server admits
    /// the stream; refused when no place is; else the request is libmicrohttpd's, which asks
    /// the responder again.
    func directStream(for request: HTTPRequest) -> DirectStream.Opening {
        guard case .stream(let start) = responder.respond(to: request), start.audience == .programs,
            let head = ResponseHead.ok(headers: start.headers, framing: .chunked, second: Int(time(nil)))
        else { return .elsewhere }
        let shard = nextShard()
        guard let sender = shard.sender else { return .elsewhere }
        guard takeConnectionPlace() else { return .refused }
        let stream = StreamConnection(maxQueuedBytes: start.maxQueuedBytes)
        guard admit(stream) else {
            releaseConnectionPlace()
            return .elsewhere
        }
        return .opened(
            DirectStream(server: self, start: start, stream: stream, shard: shard, sender: sender, head: head))
    }

    /// Ends a direct stream its sender let go of (on the sender's thread): the final chunk
    /// when `clean` (best effort: the socket has room after the last chunk went whole),
    /// then the server forgets it and runs its `onEnd`, then the socket is closed.
    func endDirectStream(_ stream: StreamConnection, socket fd: Int32, clean: Bool) {
        if clean {
            let last: [UInt8] = Array("0\r\n\r\n".utf8)
            _ = last.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        }
        streamFinished(stream)
        close(fd)
        releaseConnectionPlace()
    }
}
