/// Where an SSE client's stream stands, and why it ended, for counting and logs.
public enum StreamState: Sendable, Equatable {
    /// Sending; new events are queued.
    case open
    /// Ending cleanly: the queue is sent, then the stream ends with its final chunk.
    case closing
    /// Dropped because the client stopped reading; the queue was freed.
    case dropped
    /// The client hung up; the queue was freed.
    case disconnected
    /// The request is complete; nothing more is sent.
    case finished
}

/// What queuing bytes to a stream did (``StreamConnection/enqueue(_:whenFull:)``).
public enum StreamEnqueueResult: Sendable, Equatable {
    /// The bytes are queued.
    case queued
    /// The bytes would have passed the bound: the client was dropped by this call.
    case dropped
    /// The stream is closing or gone; nothing was queued.
    case notOpen
    /// The bytes would have passed the bound and the caller asked to be told
    /// (``StreamFullQueue/report``): nothing was queued, the client is still open.
    case full
}

/// What queuing does when the bytes would pass a stream's bound on unsent bytes.
public enum StreamFullQueue: Sendable {
    /// Drop the client and free its queue.
    case drop
    /// Queue nothing and answer ``StreamEnqueueResult/full``: the caller catches the client
    /// up instead (``StreamConnection/catchUp(with:)``).
    case report
}

extension StreamStateMachine {
    /// What the caller does after releasing the stream's lock. The machine hands each
    /// action out once; whoever gets one must carry it out.
    enum Action: Equatable {
        case none
        /// `MHD_resume_connection`: libmicrohttpd is to send what is queued, or end.
        case resume
        /// Put the stream on its sender's ready list (``StreamSender/markReady(_:)``).
        case markReady
        /// Shut the socket down in both directions: the client is not reading, and
        /// libmicrohttpd, which writes to it, fails its next send and closes the connection.
        case shutDown
        /// Shut the socket down, then resume: a sender gives a dropped stream back.
        case shutDownAndResume
    }

    /// Where the connection stands with libmicrohttpd.
    enum Connection: Equatable {
        /// Not bound to a libmicrohttpd connection (yet, or any more).
        case none
        /// libmicrohttpd sends (it calls the content reader when it has room).
        case running
        /// The content reader found nothing to send and is suspending the connection; a
        /// wake-up meanwhile is remembered (`wakeAfterSuspend`) and done once it has.
        case suspending
        case suspended
    }

    /// Who writes the queue to the socket.
    enum Owner: Equatable {
        /// libmicrohttpd calls the content reader (resumed when bytes are queued).
        case libmicrohttpd
        /// Suspended and handed to the stream's sender; `adopted` once its thread has it.
        case sender(adopted: Bool)
    }

    /// What the content reader returns to libmicrohttpd.
    enum ReaderDecision: Equatable {
        /// Bytes were copied into its buffer (a count of bytes).
        case bytes(Int)
        /// Nothing queued: suspend the connection (then call ``suspended()``).
        case suspend
        /// The stream is complete: send the final chunk.
        case end
        /// The stream is dropped or gone: abort the connection.
        case abort
    }

    /// What a sender's visit (``visit(takingUpTo:)``) gives it.
    enum SenderWork: Equatable {
        /// The stream was dropped or its client hung up: hand it back, shut down.
        case gone
        /// The stream is open or closing; nothing was taken (none was asked for).
        case alive
        /// Write these chunks (`byteCount` bytes in all) as one; `more`: bytes are left (or
        /// the stream is closing): service the stream again once they are written.
        case send(TakenChunks, byteCount: Int, more: Bool)
        /// Nothing queued; `closing`: the stream is to end (hand it back).
        case empty(closing: Bool)
    }
}

extension StreamStateMachine {
    /// The queued chunks a sender's visit takes, in order: the first apart from the rest,
    /// so that taking a single event, every client's case in a fan-out, allocates nothing.
    struct TakenChunks: Equatable, Sequence, ExpressibleByArrayLiteral {
        let first: [UInt8]
        /// The chunks after the first (none, usually).
        let rest: [[UInt8]]

        init(first: [UInt8], rest: [[UInt8]] = []) {
            self.first = first
            self.rest = rest
        }

        /// At least one chunk.
        init(arrayLiteral chunks: [UInt8]...) {
            precondition(!chunks.isEmpty, "a visit takes at least one chunk")
            self.init(first: chunks[0], rest: Array(chunks.dropFirst()))
        }

        var count: Int { 1 + rest.count }

        func makeIterator() -> Iterator { Iterator(chunks: self) }

        struct Iterator: IteratorProtocol {
            let chunks: TakenChunks
            private var index = 0

            init(chunks: TakenChunks) { self.chunks = chunks }

            mutating func next() -> [UInt8]? {
                defer { index += 1 }
                if index == 0 { return chunks.first }
                return index <= chunks.rest.count ? chunks.rest[index - 1] : nil
            }
        }
    }
}
