import DequeModule
import FeedCore
import NIOConcurrencyHelpers

/// What the named screens say they showed, for `/inspect`: a board's rotation steps, the
/// marked items its attention put full screen, its dim going on and off. A page that gave
/// itself a name (`?screen=lobby`) reports each with `POST /screens/shown?screen=lobby&…`
/// (``Showing/init(request:at:)``); only the server's clock dates a report.
///
/// Bounded whatever clients send: the last ``perScreen`` showings of at most ``maxScreens``
/// names, the name reported to longest ago forgotten first. The lock guards `State` only
/// and is a leaf.
final class ScreenShowings: Sendable {
    /// The most names kept.
    static let maxScreens = 64
    /// The showings kept per name, newest last.
    static let perScreen = 20
    /// The longest value kept (a view list, an item's key, a label), in UTF-8 bytes.
    static let maxValueBytes = 400

    /// One thing a screen showed.
    struct Showing: Sendable, Equatable {
        enum Kind: String, Sendable {
            /// A step of a rotation, or a board's cells at once: the views, space separated.
            case view
            /// A marked item shown full screen: its page id, with the mark's label.
            case attention
            /// The dim schedule: `on` or `off`.
            case dim
        }

        let at: WallTime
        let kind: Kind
        let value: String
        /// The mark's label (attention only), else empty.
        let label: String

        /// Why a report is not one: the parameter and what is wrong.
        struct Problem: Error, Equatable {
            let parameter: String
            let message: String
        }

        /// The showing a report (`screen` and one of `view`, `attention` with `label`, `dim`)
        /// says, arriving `at`.
        init(request: HTTPRequest, at: WallTime) throws(Problem) {
            func bounded(_ name: String) throws(Problem) -> String? {
                guard let value = request.query(name) else { return nil }
                guard !value.isEmpty, value.utf8.count <= ScreenShowings.maxValueBytes else {
                    throw Problem(
                        parameter: name, message: "\(name) must be 1 to \(ScreenShowings.maxValueBytes) bytes.")
                }
                return value
            }
            let kinds = [Kind.view, .attention, .dim].filter { request.query($0.rawValue) != nil }
            guard kinds.count == 1, let kind = kinds.first else {
                throw Problem(parameter: "view", message: "A report names one of view, attention or dim.")
            }
            guard let value = try bounded(kind.rawValue) else {
                throw Problem(parameter: kind.rawValue, message: "\(kind.rawValue) has no value.")
            }
            if kind == .dim, value != "on", value != "off" {
                throw Problem(parameter: "dim", message: "dim is on or off.")
            }
            self.at = at
            self.kind = kind
            self.value = value
            self.label = kind == .attention ? try bounded("label") ?? "" : ""
        }

        init(at: WallTime, kind: Kind, value: String, label: String = "") {
            self.at = at
            self.kind = kind
            self.value = value
            self.label = label
        }
    }

    /// One named screen's showings, oldest first.
    struct Screen: Sendable, Equatable {
        let name: String
        let showings: [Showing]
    }

    private struct State {
        /// By name; `order` holds the same names, the one reported to longest ago first.
        var screens: [String: Deque<Showing>] = [:]
        var order: [String] = []
    }

    private let state = NIOLockedValueBox(State())

    /// Records `showing` for the screen `name` (a valid ``ScreenName``).
    func record(_ showing: Showing, screen name: String) {
        state.withLockedValue { state in
            var showings = state.screens[name] ?? []
            showings.append(showing)
            if showings.count > Self.perScreen { showings.removeFirst() }
            state.screens[name] = showings
            state.order.removeAll { $0 == name }
            state.order.append(name)
            if state.order.count > Self.maxScreens {
                state.screens[state.order.removeFirst()] = nil
            }
        }
    }

    /// Every named screen, by name.
    func screens() -> [Screen] {
        state.withLockedValue { state in
            state.screens.map { Screen(name: $0.key, showings: Array($0.value)) }
        }
        .sorted { $0.name < $1.name }
    }
}
