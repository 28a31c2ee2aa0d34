import FeedCore
import Foundation

/// The HTML of list entries as the `story` template rendered them lately
/// (``FragmentCache``), so that a new page client's whole list, and a slow client's
/// catch-up, is made of entries the frames already rendered, not 1,000 entries rendered
/// again each time (BENCHMARKS.md, "A list page under a fast feed"). A generation holds
/// 1,024 entries or 2 MiB of HTML: a list of 1,000 fits in one, and a feed that rolls
/// fast holds at most ~3,000 entries of items it has dropped (two generations, and about
/// one more of dropped entries waiting to be let go).
typealias StoryFragmentCache = FragmentCache<StoryShape>

/// What a list entry's HTML depends on besides its item and the time it says relative to
/// `now` (``StoryView``).
struct StoryShape: Equatable, Sendable {
    /// The template set's version (``TemplateSet/version``).
    let templates: String
    /// Where its links and placeholder point.
    let links: PageLinks
    let showsPlaceholder: Bool
}

extension FragmentCache where Shape == StoryShape {
    convenience init(generationRows: Int = 1_024, generationBytes: Int = 2 << 20) {
        self.init(rows: generationRows, bytes: generationBytes)
    }

    /// `items`' entries, in their order: kept HTML where it still holds, else what `render`
    /// makes (then kept). `render` gives an entry's HTML and the moment it says relative to
    /// `now` (``StoryView/moment(of:)``), parsed once for both.
    func stories(
        _ items: some Collection<FeedItem>, shape: Shape, now: Date,
        render: (FeedItem) -> (html: String, moment: Date?)
    ) -> [String] {
        let relative: (Date?, FeedItem) -> [RelativeText]? = { moment, _ in
            guard let moment else { return [] }
            return [RelativeText(date: moment, text: RelativeTime.describe(moment, now: now))]
        }
        return fragments(
            items, shape: shape, now: now,
            render: {
                let made = render($0)
                return (made.html, made.moment)
            }, relative: relative
        )
        .map(\.html)
    }
}
