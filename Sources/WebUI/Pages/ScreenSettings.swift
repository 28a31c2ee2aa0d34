/// How boards and kiosks behave where their URL does not say: the boards named once
/// (`--playlist`), the seconds a marked item is shown full screen (`--attention`) and the
/// dim schedule (`--dim`). A screen's own `?attention=` and `?dim=` win over these
/// (`?dim=` empty: never dimmed).
public struct ScreenSettings: Sendable, Equatable {
    /// Boards by name (`--playlist NAME=QUERY`): `/board?playlist=NAME` is `/board?QUERY`
    /// (``BoardPlaylist``).
    public var playlists: [String: String] = [:]
    /// Seconds a board or kiosk shows an item matching a `--mark` full screen; 0: never.
    public var attention = 0
    /// The local times a board is dimmed between, `HH:MM-HH:MM`; `nil`: never.
    public var dim: String?

    public init() {}

    /// The most seconds of `attention`: a day.
    public static let maxAttention = BoardQuery.maxSeconds

    /// Whether `text` is a dim schedule, `HH:MM-HH:MM` (the end may be earlier: over midnight).
    public static func isDimRange(_ text: String) -> Bool {
        BoardQuery.dimRange(text) != nil
    }
}
