import FeedCore
import Foundation
import NIOConcurrencyHelpers

/// The HTML of items' fragments (a table row, a list entry) as a template rendered them
/// lately, so that a page or a frame renders through the templates only the items that
/// changed since they were last rendered, not every item it shows (BENCHMARKS.md, "A table
/// page of 1,000 rows", and "A list page under a fast feed").
///
/// A fragment is kept by its item's key with the item it was rendered from, and used again
/// only
///   - for the very same item (``FeedItem/sharesFields(with:)``: a changed item is a new box
///     of fields, and a box that an entry holds is never changed in place),
///   - rendered to the same `Shape` (what the HTML depends on besides its item and `now`:
///     the template set's version, a table's columns, …),
///   - while every time it says relative to `now` ("5 min ago") says the same at the new
///     `now`.
/// So a kept fragment is exactly what rendering it again would give.
///
/// Bounded: fragments are kept in two generations; when the newer holds ``generationRows``
/// fragments or ``generationBytes`` of HTML, it becomes the older and the older is dropped.
/// So at most twice that is held, with the items they were rendered from: an item the feed
/// has since changed or dropped stays until its generation goes.
///
/// A dropped generation is let go one fragment per item a call asks for, outside the lock,
/// not all at once: freeing a generation of 1,024 entries and their items in one call held
/// up the list page's frame that made it (BENCHMARKS.md, "A list page under a fast feed").
/// So the items a rolling feed drops are freed at the pace new ones are rendered, as without
/// the cache. A call keeps at most as many fragments as it releases, so the retired never
/// pile up: a generation of evenly sized fragments is gone when the next is dropped.
///
/// A leaf lock: nothing is taken while it is held; fragments are checked and rendered
/// outside it.
final class FragmentCache<Shape: Equatable & Sendable>: Sendable {
    /// A time a fragment says relative to `now`, and the words it said it in.
    struct RelativeText: Sendable {
        let date: Date
        let text: String
    }

    private struct Entry {
        /// Held so that its box of fields is never changed in place while the entry is here.
        let item: FeedItem
        let html: String
        let relative: [RelativeText]
    }

    private struct State {
        var shape: Shape?
        var newer: [String: Entry] = [:]
        var older: [String: Entry] = [:]
        /// Fragments of dropped generations not yet released: about one generation's
        /// worth at most, since a call releases as many as it may keep (a generation
        /// dropped for its bytes can leave some of the one before for the next).
        var retired: [Entry] = []
        /// Bytes of HTML in ``newer`` and in ``older``.
        var newerBytes = 0
        var olderBytes = 0
        /// Fragments rendered through the cache, kept or not.
        var rendered = 0

        /// Keeps `entry` in the newer generation, which becomes the older once it holds
        /// `rows` fragments or `bytes` bytes.
        mutating func keep(_ entry: Entry, rows: Int, bytes: Int) {
            if let replaced = newer.updateValue(entry, forKey: entry.item.key) {
                newerBytes -= replaced.html.utf8.count
            }
            newerBytes += entry.html.utf8.count
            if newer.count >= rows || newerBytes >= bytes {
                retired.append(contentsOf: older.values)
                older = newer
                olderBytes = newerBytes
                newer = [:]
                newerBytes = 0
            }
        }

        /// Up to `count` of the retired fragments, for the caller to release outside the lock.
        mutating func takeRetired(_ count: Int) -> [Entry] {
            let taken = min(count, retired.count)
            guard taken > 0 else { return [] }
            defer { retired.removeLast(taken) }
            return Array(retired.suffix(taken))
        }
    }

    /// Fragments a generation holds before it becomes the older one.
    let generationRows: Int
    /// Bytes of HTML a generation holds before it becomes the older one.
    let generationBytes: Int
    private let state = NIOLockedValueBox(State())

    /// A cache whose generations hold `rows` fragments or `bytes` bytes of HTML.
    init(rows: Int, bytes: Int) {
        self.generationRows = rows
        self.generationBytes = bytes
    }

    /// Each of `items`' fragment, in their order: kept HTML where it still holds, else what
    /// `render` makes (then kept when `relative` can say which times it shows relative to
    /// `now`; `nil`: not kept). `render` is called outside the lock, once per item that was
    /// not kept; its `made` (the values it rendered from) comes back with its HTML.
    func fragments<Made>(
        _ items: some Collection<FeedItem>, shape: Shape, now: Date, render: (FeedItem) -> (html: String, made: Made),
        relative: (Made, FeedItem) -> [RelativeText]?
    ) -> [(html: String, made: Made?)] {
        var released: [Entry] = []
        let found: [(entry: Entry, isNewer: Bool)?] = state.withLockedValue { state in
            if state.shape != shape { state = State(shape: shape, rendered: state.rendered) }
            // As many as this call can keep: the retired are gone by the next drop.
            released = state.takeRetired(items.count)
            return items.map { item in
                if let entry = state.newer[item.key] { return (entry, true) }
                return state.older[item.key].map { ($0, false) }
            }
        }
        released.removeAll()  // the retired fragments and their items freed here, unlocked
        var fragments: [(html: String, made: Made?)] = []
        fragments.reserveCapacity(found.count)
        var kept: [Entry] = []
        var renders = 0
        for (item, found) in zip(items, found) {
            if let (entry, isNewer) = found, entry.item.sharesFields(with: item),
                entry.relative.allSatisfy({ RelativeTime.describe($0.date, now: now) == $0.text })
            {
                fragments.append((entry.html, nil))
                // One found in the older generation moves to the newer, so those in use stay.
                if !isNewer { kept.append(entry) }
                continue
            }
            let (html, made) = render(item)
            renders += 1
            fragments.append((html, made))
            if let texts = relative(made, item) {
                kept.append(Entry(item: item, html: html, relative: texts))
            }
        }
        guard !kept.isEmpty || renders > 0 else { return fragments }
        state.withLockedValue { state in
            state.rendered += renders
            // Another shape came meanwhile (a reload of the templates): these are of the old.
            guard state.shape == shape else { return }
            for entry in kept { state.keep(entry, rows: generationRows, bytes: generationBytes) }
        }
        return fragments
    }

    /// Bytes of HTML kept (both generations): at most about twice ``generationBytes``.
    var heldBytes: Int { state.withLockedValue { $0.newerBytes + $0.olderBytes } }

    /// Fragments kept (both generations, one in both counted twice): at most twice
    /// ``generationRows``.
    var heldRows: Int { state.withLockedValue { $0.newer.count + $0.older.count } }

    /// Fragments of dropped generations waiting to be released.
    var retiredRows: Int { state.withLockedValue { $0.retired.count } }

    /// Fragments rendered through the cache since it was made (those not kept were).
    var renderedRows: Int { state.withLockedValue { $0.rendered } }
}
