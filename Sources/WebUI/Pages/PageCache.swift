import FeedCore
import NIOConcurrencyHelpers

/// Rendered pages kept in memory until what they show changes.
///
/// An entry is valid for one ``Stamp`` (published view's id, status badge, asset version,
/// and for `/stats` the five-second window);
/// a request whose stamp matches gets the stored response, so a page is rendered once per
/// change, not per request. At most `capacity` entries are kept (query strings are user
/// input: a flood of unknown `?section=` values must not grow memory).
final class PageCache: Sendable {
    struct Stamp: Hashable, Sendable {
        /// The id of the published view shown (`nil`: none): its epoch too, since a new
        /// epoch (a cluster's, a relay's upstream's) may come back to the same sequence.
        let published: EventID?
        let badge: StatusBadge
        let assetVersion: String
        /// The version of the templates it was rendered from (``TemplateSet/version``).
        var templates = TemplateSet.builtin.version
        /// The `/stats` window shown (0 for every other page).
        var statsWindow: Int64 = 0
    }

    private struct Entry {
        let stamp: Stamp
        let response: PreparedResponse
    }

    /// Guards the rendered pages by route. A leaf: nothing is taken while it is held;
    /// pages are rendered between a miss and the store, outside it (two requests may both
    /// render one; the later store wins).
    private let entries = NIOLockedValueBox<[String: Entry]>([:])
    /// Guards the count of renders. A leaf.
    private let renders = NIOLockedValueBox<UInt64>(0)
    private let onRender: (@Sendable (_ nanoseconds: UInt64) -> Void)?
    let capacity: Int

    /// How many pages were rendered since start (for tests and metrics).
    var renderCount: UInt64 { renders.withLockedValue { $0 } }

    /// - Parameter onRender: told how long each render took, in nanoseconds.
    init(capacity: Int = 512, onRender: (@Sendable (_ nanoseconds: UInt64) -> Void)? = nil) {
        self.capacity = capacity
        self.onRender = onRender
    }

    /// The response for `route` at `stamp`, rendering it with `render` if needed.
    func response(for route: String, stamp: Stamp, render: () -> PreparedResponse?) -> PreparedResponse? {
        if let entry = entries.withLockedValue({ $0[route] }), entry.stamp == stamp {
            return entry.response
        }
        let start = MonotonicTime.now()
        guard let response = render() else { return nil }
        onRender?(MonotonicTime.now() &- start)
        renders.withLockedValue { $0 += 1 }
        entries.withLockedValue { entries in
            if entries.count >= capacity {
                entries = entries.filter { $0.value.stamp == stamp }
                if entries.count >= capacity { entries.removeAll() }
            }
            entries[route] = Entry(stamp: stamp, response: response)
        }
        return response
    }
}
