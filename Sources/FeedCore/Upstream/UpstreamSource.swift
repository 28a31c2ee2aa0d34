/// Anything that feeds the ``FeedStore`` from upstream and reports what happens to it as
/// ``UpstreamEvent``s: an ``UpstreamConnection`` of any kind. `/readyz`, the status badge,
/// `/stats` and the metrics read only this.
public protocol UpstreamSource: AnyObject, Sendable {
    /// Where the source publishes its events, and the status they fold to.
    var statusPublisher: UpstreamStatusPublisher { get }
    /// Works until the task is cancelled, then publishes ``UpstreamEvent/stopped`` and
    /// releases its resources.
    func run() async
}

extension UpstreamSource {
    /// The current status: every event so far, folded.
    public var status: UpstreamStatus { statusPublisher.status }

    /// Calls `observer` with every event from now on and the status after it (on the
    /// source's task).
    public func observe(_ observer: @escaping UpstreamStatusPublisher.Observer) {
        statusPublisher.observe(observer)
    }
}
