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

    /// What of `/inspect` differs from `previous` (everything when there is none).
    func changes(since previous: InspectFrame?) -> InspectParts {
        guard let previous else { return .all }
        let documentMoved = previous.snapshot?.id != snapshot?.id
        return InspectParts(
            items: documentMoved || previous.templates != templates,
            tree: documentMoved ? JSONTreeChange.between(previous.snapshot?.document, snapshot?.document) : nil,
            events: previous.templates != templates
                ? .whole
                : previous.eventsVersion == eventsVersion
                    ? nil
                    : InspectEventsChange.between(
                        previous.events, events,
                        ownTemplate: templates.replaced.contains { $0 == "inspectEvents" || $0 == "inspectEvent" }),
            exchanges: previous.exchangesVersion != exchangesVersion,
            screens: previous.screens != screens)
    }
}

/// The parts of `/inspect` a frame redraws, each by its element id.
struct InspectParts: Sendable, Equatable {
    /// How items are read, the templates and the document's id (`#inspect-items`).
    var items: Bool
    /// The document's tree (`nil`: unchanged).
    var tree: JSONTreeChange?
    /// The event log (`nil`: unchanged).
    var events: InspectEventsChange?
    /// Upstream's exchanges (`#inspect-exchanges`).
    var exchanges: Bool
    /// The connected screens (`#inspect-screens`).
    var screens: Bool

    /// Every part, the tree whole: a new page's first frame.
    static let all = InspectParts(items: true, tree: .whole, events: .whole, exchanges: true, screens: true)

    /// Whether nothing is redrawn.
    var isEmpty: Bool { !items && tree == nil && events == nil && !exchanges && !screens }
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
