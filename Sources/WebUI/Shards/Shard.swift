import FeedCore

/// One shard of the programs' streams (`/events`, `/events/items`): the clients one
/// ``StreamSender`` writes, and, for each of those two streams, the broadcaster that
/// queues their events.
///
/// The server hands each new programs' stream a shard, in turn (``HTTPServer``); the
/// stream subscribes its client to that shard's broadcaster, and the shard's sender
/// writes the client once libmicrohttpd has sent its first bytes. A change is queued by
/// every shard at once (``EveryShard``): two shards share no lock, no client and no
/// sender, so each runs on a core of its own.
///
/// Invariants: every client in ``events`` or ``items`` was handed this shard, and is
/// written by ``sender`` (or by libmicrohttpd: an HTTP/1.0 client, or no sender); each
/// broadcaster is published to by one thread at a time (the fan-out stage's queue).
public final class Shard: Sendable {
    /// Its place among the server's shards, from 0 (the sender thread's name).
    public let index: Int
    /// The thread that writes this shard's clients; `nil` when the system refused its
    /// epoll set (libmicrohttpd then writes them) or when no server writes them (handlers
    /// tested without one).
    let sender: StreamSender?
    /// `/events`' clients of this shard, by the encoding they asked for.
    let events: Broadcaster<DocumentEvents.Mode, FeedSnapshot>
    /// `/events/items`' clients of this shard, by section (`nil`: every item).
    let items: Broadcaster<String?, PublishedView>

    /// A shard of `store`'s streams whose clients `sender` writes.
    init(index: Int, store: FeedStore, sender: StreamSender?) {
        self.index = index
        self.sender = sender
        self.events = Broadcaster(initial: store.snapshot)
        self.items = Broadcaster(initial: store.snapshot?.published)
    }

    /// The shards of `store`'s streams for a server configured by `server`: one per
    /// stream sender (``HTTPServer/Configuration/streamSenders``, at least one), each
    /// with a sender as the configuration says. Without a server, one shard, with no
    /// sender.
    public static func shards(of store: FeedStore, for server: HTTPServer.Configuration?) -> [Shard] {
        guard let server else { return [Shard(index: 0, store: store, sender: nil)] }
        return (0..<max(1, server.streamSenders)).map { index in
            Shard(
                index: index, store: store,
                sender: StreamSender(
                    name: "fw-send-\(index)", useIOUring: server.writesThroughIOUring,
                    niceness: server.streamSenderNiceness))
        }
    }
}
