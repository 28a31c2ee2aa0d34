import FeedCore
import NIOConcurrencyHelpers

/// `/inspect`'s sources, built once with the handlers: the event log (fed by the fan-out
/// stage), the upstream exchanges (fed by the upstream's events), the streams whose
/// clients it lists and what the named screens reported showing. ``frame()`` takes what the page shows now.
///
/// The connected screens are gathered at most once per ``screensEvery`` (each client is
/// read under its own lock): cheap with thousands of clients and a page open.
final class Inspector: Sendable {
    /// How often the screens are gathered again (nanoseconds).
    static let screensEvery: UInt64 = 500_000_000

    let events: EventLog
    let exchanges = UpstreamExchanges()
    /// What the named screens said they showed (`POST /screens/shown`).
    let showings = ScreenShowings()
    private let store: FeedStore
    private let streams: StreamHandlers
    private let templates: TemplateLibrary
    /// The screens last gathered, and when. A leaf.
    private let screens = NIOLockedValueBox<(at: UInt64, list: ScreenList)?>(nil)

    init(store: FeedStore, streams: StreamHandlers, events: EventLog, templates: TemplateLibrary = TemplateLibrary()) {
        self.store = store
        self.templates = templates
        self.streams = streams
        self.events = events
    }

    /// What `/inspect` shows now.
    func frame(now: UInt64 = MonotonicTime.now()) -> InspectFrame {
        let (eventsVersion, listed) = events.events()
        let (exchangesVersion, exchanged) = exchanges.exchanges()
        return InspectFrame(
            snapshot: store.snapshot, eventsVersion: eventsVersion, events: listed,
            exchangesVersion: exchangesVersion, exchanges: exchanged, screens: connectedScreens(now: now),
            templates: TemplateStatus(templates))
    }

    private func connectedScreens(now: UInt64) -> ScreenList {
        if let last = screens.withLockedValue({ $0 }), now >= last.at, now - last.at < Self.screensEvery {
            return last.list
        }
        let list = ScreenList(streams: streams, showings: showings, now: now)
        screens.withLockedValue { $0 = (now, list) }
        return list
    }
}
