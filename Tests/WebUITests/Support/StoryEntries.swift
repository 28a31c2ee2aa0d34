import Foundation

/// The story entries of a rendered list or kiosk page (or of one page-stream fragment), read
/// from feedweb's own templates: each `<li>` whose class names a story, in page order.
struct StoryEntry: Sendable, CustomStringConvertible {
    /// The element's `id`.
    let id: String
    /// Its `data-key`.
    let key: String
    /// Its class names.
    let classes: [String]
    /// The text of its title (as written in the HTML: entities not decoded).
    let title: String
    /// The `src` of its image, if it has one.
    let imageSource: String?
    /// The `data-fallback` of its image, if it has one.
    let imageFallback: String?

    var description: String { "\(id) \(classes) \(title) src=\(imageSource ?? "-")" }

    /// Every story entry (`<li class="story …">` or `<li class="board-story …">`) of `html`.
    static func all(in html: String) -> [StoryEntry] {
        var entries: [StoryEntry] = []
        var rest = Substring(html)
        while let start = rest.range(of: "<li class=\"") {
            guard let headEnd = rest[start.lowerBound...].firstIndex(of: ">") else { break }
            let head = rest[start.lowerBound...headEnd]
            let classes = (attribute("class", in: head) ?? "").split(separator: " ").map(String.init)
            let end = rest[headEnd...].range(of: "</li>")?.lowerBound ?? rest.endIndex
            let content = rest[headEnd..<end]
            rest = rest[end...]
            guard classes.contains("story") || classes.contains("board-story") else { continue }
            let image = content.range(of: "<img ").flatMap { range in
                content[range.lowerBound...].firstIndex(of: ">").map { content[range.lowerBound...$0] }
            }
            entries.append(
                StoryEntry(
                    id: attribute("id", in: head) ?? "", key: attribute("data-key", in: head) ?? "",
                    classes: classes, title: title(in: content) ?? "",
                    imageSource: image.flatMap { attribute("src", in: $0) },
                    imageFallback: image.flatMap { attribute("data-fallback", in: $0) }))
        }
        return entries
    }

    /// The value of the double-quoted attribute `name` in an element's start tag.
    static func attribute(_ name: String, in head: Substring) -> String? {
        guard let range = head.range(of: " \(name)=\"") else { return nil }
        let value = head[range.upperBound...]
        guard let close = value.firstIndex(of: "\"") else { return nil }
        return String(value[..<close])
    }

    /// The list's `<h2 class="story-title"><a …>TEXT</a>` or the kiosk's
    /// `<h2 class="board-title">TEXT</h2>`.
    private static func title(in content: Substring) -> String? {
        if let start = content.range(of: "<h2 class=\"story-title\">") {
            let after = content[start.upperBound...]
            guard let open = after.firstIndex(of: ">"), let close = after.range(of: "</a>") else { return nil }
            return String(after[after.index(after: open)..<close.lowerBound])
        }
        if let start = content.range(of: "<h2 class=\"board-title\">") {
            let after = content[start.upperBound...]
            guard let close = after.range(of: "</h2>") else { return nil }
            return String(after[..<close.lowerBound])
        }
        return nil
    }
}
