import FeedCore
import NIOConcurrencyHelpers

/// What `/inspect` shows at one moment: the document, the event log, the upstream
/// exchanges and the connected screens, each with what tells a change of it (the
/// document's id, the log's and the exchanges' versions, the list itself).
struct InspectFrame: Sendable {
    /// The mirror (`nil` before the first document).
    let snapshot: FeedSnapshot?
    let eventsVersion: UInt64
    /// Oldest first.
    let events: [InspectedEvent]
    let exchangesVersion: UInt64
    /// Oldest first.
    let exchanges: [UpstreamExchange]
    let screens: ScreenList
    /// The templates in use, and the last reload's failure (shown with the document).
    var templates = TemplateStatus()

    /// Which parts differ from `previous` (all of them when there is none).
    func changes(since previous: InspectFrame?) -> (tree: Bool, events: Bool, exchanges: Bool, screens: Bool) {
        guard let previous else { return (true, true, true, true) }
        return (
            previous.snapshot?.id != snapshot?.id || previous.templates != templates,
            previous.eventsVersion != eventsVersion,
            previous.exchangesVersion != exchangesVersion, previous.screens != screens
        )
    }
}

/// Where the page streams take an ``InspectFrame`` from when one is needed outside a
/// frame (a new `/inspect` page's first event): connected once the ``Inspector`` exists;
/// none when `--inspect off`.
final class InspectFrameSource: Sendable {
    private let read = NIOLockedValueBox<(@Sendable () -> InspectFrame?)?>(nil)

    /// From now on frames come from `read`.
    func connect(_ read: @escaping @Sendable () -> InspectFrame?) {
        self.read.withLockedValue { $0 = read }
    }

    /// A frame now, if connected.
    func frame() -> InspectFrame? {
        read.withLockedValue { $0 }?()
    }
}

/// The templates `/inspect` shows: where they come from, what they replace, what is wrong.
struct TemplateStatus: Sendable, Equatable {
    /// `--templates`' folder (`nil`: the built-ins alone).
    var directory: String?
    /// The built-in templates it replaces.
    var replaced: [String] = []
    /// Warnings that name a template (``TemplateSet/warnings``).
    var warnings: [String] = []
    /// Why the last reload (SIGHUP) kept the set in use, with file, line and column.
    var lastFailure: String?

    init() {}

    init(_ library: TemplateLibrary) {
        let set = library.current
        directory = set.directory
        replaced = set.replaced
        warnings = set.warnings
        lastFailure = library.lastFailure?.description
    }
}
