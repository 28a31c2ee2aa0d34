import FeedCore
import Logging
import WebUI

/// What the options set: the configuration feedweb runs with, the log level, and the
/// parts that the source and the profile are put together from once every option is read
/// (``FeedwebOptions/resolve(commandLine:environment:)``).
///
/// Each default is set once, as an initial value: the application's in
/// ``FeedwebConfiguration``, the command line's own here. An option that is not given
/// leaves its setting as it is, and `--help` shows the initial value as its default.
struct FeedwebSettings: Sendable {
    var configuration = FeedwebConfiguration()
    var logLevel = Logger.Level.info
    /// `--export-templates`: where to write the built-in templates (then exit).
    var exportTemplates: String?
    /// `--upstream`: an SSE feed or a WebSocket; with `poll`, `nil` means the demo (the
    /// configuration's source).
    var upstream: String?
    /// `--poll`: a JSON API.
    var poll: String?
    /// `--mode`: how `upstream` is read.
    var mode = SourceMode.document
    /// `--interval`: the time between polls of `poll`.
    var pollInterval = UpstreamConfiguration.defaultPollInterval
    /// `--keep`: the items kept in append mode.
    var keep = 200
    /// `--profile`; `nil`: found in the first document with items (the demo: the
    /// configuration's).
    var profile: ItemProfile?
    /// `--items-path`, over the profile's.
    var itemsPath: JSONPointer?
    /// `--key-path`, over the profile's.
    var keyPath: PointerChoice?
    /// `--version-path`, over the profile's.
    var versionPath: PointerChoice?
    /// `--field NAME=/pointer`, in the order given; a `nil` pointer drops the field.
    var fields: [(field: ItemProfile.Field, pointer: JSONPointer?)] = []
    /// `--mark`.
    var marks: [ItemMark] = []
    /// `--column`, in the order given.
    var columns: [ItemColumn] = []
    /// `--sort`.
    var sort: ItemSort?

    /// The settings no option changed: where `--help` reads the defaults.
    static let initial = FeedwebSettings()
}

/// How `--upstream` is read (`--mode`).
enum SourceMode: String, CaseIterable, Sendable {
    /// Streamdata's `data`/`patch` events, or each WebSocket message a whole document.
    case document
    /// Each event or message one item.
    case append
    /// Firebase's streaming `put`/`patch` events (SSE only).
    case firebase
}

/// The value of a pointer option that may also say "none" (`none` or `""`).
typealias PointerChoice = ItemProfile.Pointing
