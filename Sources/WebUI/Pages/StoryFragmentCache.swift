import FeedCore
import Foundation

/// The HTML of list entries as the `story` template rendered them lately
/// (``FragmentCache``), so that a new page client's whole list, and a slow client's
/// catch-up, is made of entries the frames already rendered, not 1,000 entries rendered
/// again each time (BENCHMARKS.md, "A list page under a fast feed"). A generation holds
/// 1,024 entries or 2 MiB of HTML: a list of 1,000 fits in one, and a feed that rolls
/// fast holds at most ~2,000 entries of items it has dropped.
typealias StoryFragmentCache = FragmentCache<StoryShape>

/// What a list entry's HTML depends on besides its item and the time it says relative to
/// `now` (``StoryView``).
struct StoryShape: Equatable, Sendable {
    /// The template set's version (``TemplateSet/version``).
    let templates: String
    let placeholder: String
    let showsPlaceholder: Bool
}

extension FragmentCache where Shape == StoryShape {
    convenience init(generationRows: Int = 1_024, generationBytes: Int = 2 << 20) {
        self.init(rows: generationRows, bytes: generationBytes)
    }

    /// `item`'s entry: kept HTML where it still holds, else what `render` makes (then kept).
    func story(_ item: FeedItem, shape: Shape, now: Date, render: (FeedItem) -> String) -> String {
        let relative: ((), FeedItem) -> [RelativeText]? = { _, item in
            guard let moment = StoryView.moment(of: item) else { return [] }
            return [RelativeText(date: moment, text: RelativeTime.describe(moment, now: now))]
        }
        return fragments(
            CollectionOfOne(item), shape: shape, now: now, render: { (render($0), ()) }, relative: relative
        )
        .first?.html ?? ""
    }
}
