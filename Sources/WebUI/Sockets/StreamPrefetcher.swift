/// Walks a fan-out's clients ``distance`` places ahead of the loop that queues to them,
/// asking the CPU to load each one's stream (``StreamConnection/prefetch(_:)``) before the
/// loop gets there: the cache misses of several clients overlap.
///
/// Reads the clients' identifiers only (their addresses, from the dictionary's keys): no
/// reference is counted, no stream touched.
struct StreamPrefetcher<Clients: Collection> where Clients.Element == ObjectIdentifier {
    /// How many clients ahead: enough for a load from memory (~100 ns) to arrive while the
    /// loop queues to the clients in between (~20–50 ns each once their lines are cached).
    static var distance: Int { 8 }

    private let clients: Clients
    private var next: Clients.Index

    /// Asks for the first ``distance`` clients.
    init(_ clients: Clients) {
        self.clients = clients
        next = clients.startIndex
        for _ in 0..<Self.distance { advance() }
    }

    /// Asks for the next client not asked for yet: call once per client the loop visits.
    mutating func advance() {
        guard next != clients.endIndex else { return }
        StreamConnection.prefetch(clients[next])
        clients.formIndex(after: &next)
    }
}
