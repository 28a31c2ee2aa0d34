/// The HTTP server's client connections, as `/metrics` reports them: those the front door
/// holds and those libmicrohttpd holds, together.
public struct ConnectionCounts: Sendable, Equatable {
    /// Client connections held now.
    public var held = 0
    /// Of those, the ones waiting for a request (new, or kept alive between requests).
    public var waiting = 0
    /// Connections closed since start for not delivering a request within the head timeout.
    public var droppedAtDeadline = 0
    /// Connections closed since start, longest waiting first, to make room for new ones.
    public var droppedForRoom = 0
    /// Connections closed since start because their client took no byte of an answer for
    /// the connection timeout.
    public var closedStalled = 0
    /// Requests the front door answered since start (the rest went to libmicrohttpd).
    public var answeredAtDoor = 0
    /// Streams the front door opened since start (``DirectStream``: never libmicrohttpd's).
    public var streamsAtDoor = 0
    /// Connections closed since start without a request read, because libmicrohttpd held
    /// as many as the connection limit allows.
    public var refusedAtLimit = 0

    public init(
        held: Int = 0, waiting: Int = 0, droppedAtDeadline: Int = 0, droppedForRoom: Int = 0, closedStalled: Int = 0,
        answeredAtDoor: Int = 0, streamsAtDoor: Int = 0, refusedAtLimit: Int = 0
    ) {
        self.held = held
        self.waiting = waiting
        self.droppedAtDeadline = droppedAtDeadline
        self.droppedForRoom = droppedForRoom
        self.closedStalled = closedStalled
        self.answeredAtDoor = answeredAtDoor
        self.streamsAtDoor = streamsAtDoor
        self.refusedAtLimit = refusedAtLimit
    }
}
