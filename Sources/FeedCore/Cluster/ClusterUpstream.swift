/// The upstream subscription a cluster leader runs: a source that can resume after the
/// position stored with the last change in the log. ``UpstreamConnection`` of every kind.
public protocol ClusterUpstream: UpstreamSource {
    /// Makes the first attempt resume after `position` (``UpstreamPosition``).
    func resume(from position: String?)
}

extension UpstreamConnection: ClusterUpstream {}
