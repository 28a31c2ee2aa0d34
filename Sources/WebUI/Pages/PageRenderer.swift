import FeedCore
import Foundation

/// Renders pages and fragments from the templates. The only code that turns feed data
/// into HTML; it is called once per change per page (see ``PageCache``), never per request.
struct PageRenderer: Sendable {
    /// Appended to static URLs so browsers fetch new assets after they change.
    let assetVersion: String
    /// Where a missing or broken thumbnail points.
    let placeholder = "/static/placeholder.svg"

    struct Frame {
        let title: String
        let bodyClass: String
        let stream: String
        let navLatest: Bool
        let badge: BadgeView
        let updatedMachine: String?
        let updatedText: String?
        let main: String
        let footer: String
        let assetVersion: String
    }

    struct BadgeView {
        let kind: String
        let label: String
    }

    struct SectionLink {
        let name: String
        let href: String
        let current: Bool
    }

    struct ListContext {
        let heading: String
        let countText: String
        let section: String?
        let sections: [SectionLink]
        let stories: [StoryView]
        let emptyText: String
    }

    struct ErrorContext {
        let code: Int
        let heading: String
        let message: String
    }

    /// The list page, optionally filtered to one section.
    func list(view: PublishedView?, section: String?, badge: StatusBadge, source: String, now: Date) -> [UInt8] {
        let items = (view?.items ?? []).filter { section == nil || $0.section == section }
        var sectionNames: [String] = []
        var seen = Set<String>()
        for item in view?.items ?? [] {
            if let name = item.section, seen.insert(name).inserted { sectionNames.append(name) }
        }
        sectionNames.sort()
        let context = ListContext(
            heading: section ?? "Latest",
            countText: items.count == 1 ? "1 story" : "\(items.count) stories",
            section: section,
            sections: sectionNames.map {
                SectionLink(name: $0, href: "/?section=" + StoryView.queryEscape($0), current: $0 == section)
            },
            stories: items.map { StoryView($0, now: now, placeholder: placeholder) },
            emptyText: view == nil
                ? "Waiting for the first document from upstream…"
                : (section == nil ? "The feed has no stories right now." : "No stories in this section right now.")
        )
        let main = Templates.library.render(context, withTemplate: "list") ?? ""
        return page(
            title: section.map { "\($0) · feedweb" } ?? "Latest · feedweb", bodyClass: "page-list",
            stream: "list", navLatest: section == nil, badge: badge, updated: view?.publishedAt, main: main,
            source: source)
    }

    /// The detail page of one item.
    func detail(item: FeedItem, badge: StatusBadge, updated: Date?, source: String, now: Date) -> [UInt8] {
        let context = DetailView(item, now: now, placeholder: placeholder)
        let main = Templates.library.render(context, withTemplate: "detail") ?? ""
        return page(
            title: "\(item.title ?? "Story") · feedweb", bodyClass: "page-detail", stream: "item:" + item.key,
            navLatest: false, badge: badge, updated: updated, main: main, source: source)
    }

    /// A 4xx page.
    func error(code: Int, heading: String, message: String) -> [UInt8] {
        let main = Templates.library.render(ErrorContext(code: code, heading: heading, message: message), withTemplate: "error") ?? ""
        return page(
            title: "\(heading) · feedweb", bodyClass: "page-error", stream: "", navLatest: false,
            badge: StatusBadge(kind: .live, since: nil), updated: nil, main: main, source: "", showBadge: false)
    }

    /// One list entry: the same template the list page uses.
    func storyFragment(_ item: FeedItem, now: Date) -> String {
        Templates.library.render(StoryView(item, now: now, placeholder: placeholder), withTemplate: "story") ?? ""
    }

    private func page(
        title: String, bodyClass: String, stream: String, navLatest: Bool, badge: StatusBadge, updated: Date?,
        main: String, source: String, showBadge: Bool = true
    ) -> [UInt8] {
        let frame = Frame(
            title: title, bodyClass: bodyClass, stream: stream, navLatest: navLatest,
            badge: BadgeView(kind: showBadge ? badge.kind.rawValue : "hidden", label: badge.label),
            updatedMachine: updated.map(RelativeTime.machine),
            updatedText: updated.map { RelativeTime.describe($0, now: Date()) },
            main: main,
            footer: source.isEmpty ? "feedweb" : "feedweb · source: \(source)",
            assetVersion: assetVersion)
        return Array((Templates.library.render(frame, withTemplate: "layout") ?? "").utf8)
    }
}
