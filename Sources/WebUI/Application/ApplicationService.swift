import ServiceLifecycle

/// One long-running part of feedweb (the HTTP server, the upstream source or a cluster
/// role, the state-file writer, a timer) as a swift-service-lifecycle ``Service``, so that
/// a `ServiceGroup` runs them all and shuts them down in reverse order of start.
///
/// ``run()`` runs `work` until the group's graceful shutdown reaches this service (then
/// `work`'s task is cancelled and awaited), and then `finish` (what must happen once the
/// part has stopped: flush the state file, end the streams). `work` returns only when it
/// is cancelled; a part whose work ends by itself ends the run, and the group treats that
/// as a failure and cancels the others.
struct ApplicationService: Service, CustomStringConvertible {
    /// The part's name, for the group's log lines.
    let description: String
    let work: @Sendable () async -> Void
    let finish: @Sendable () async -> Void

    init(
        _ name: String, work: @escaping @Sendable () async -> Void,
        finish: @escaping @Sendable () async -> Void = {}
    ) {
        self.description = name
        self.work = work
        self.finish = finish
    }

    /// A part with nothing to run: it waits for the graceful shutdown, then `finish`es
    /// (the HTTP server, which serves on threads of its own).
    static func waiting(_ name: String, finish: @escaping @Sendable () async -> Void) -> ApplicationService {
        ApplicationService(name, work: { try? await gracefulShutdown() }, finish: finish)
    }

    func run() async throws {
        let work = self.work
        await cancelWhenGracefulShutdown { await work() }
        await finish()
    }
}
