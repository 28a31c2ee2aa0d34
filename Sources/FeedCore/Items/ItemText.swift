/// An item's whole text (a JSON Feed post's `content_text`, or its `content_html` read as
/// text) as what a story shows when the feed gives no title or no summary: a microblog's
/// posts have neither, only their text.
///
/// Lengths are in characters (grapheme clusters); a text is cut only between words, and
/// a cut is marked with `…`. The result is plain text, never markup.
public enum ItemText {
    /// The most characters of a title taken from the text.
    static let titleLimit = 120
    /// The most characters of an abstract taken from the text.
    static let abstractLimit = 280

    /// `raw` as one line of plain text: markup (`isHTML`, or by its look) read as text,
    /// runs of white space as one space, trimmed; `nil` when nothing is left.
    static func body(_ raw: String, isHTML: Bool) -> String? {
        let text =
            isHTML || HTMLPlainText.isMarkup(raw)
            ? HTMLPlainText.plain(raw) : raw.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        return text.isEmpty ? nil : text
    }

    /// `raw` as paragraphs of plain text: markup (`isHTML`, or by its look) read block by
    /// block (``HTMLPlainText/paragraphs(_:)``), other text split at its blank lines; in
    /// each, runs of white space as one space. Invariant: no paragraph is empty or begins or
    /// ends with white space.
    static func paragraphs(_ raw: String, isHTML: Bool) -> [String] {
        blocks(raw, isHTML: isHTML).map(\.text)
    }

    /// ``paragraphs(_:isHTML:)`` with what each block was (``HTMLPlainText/blocks(_:)``);
    /// every block of a text that is not markup is a paragraph.
    static func blocks(_ raw: String, isHTML: Bool) -> [TextBlock] {
        if isHTML || HTMLPlainText.isMarkup(raw) { return HTMLPlainText.blocks(raw) }
        var paragraphs: [TextBlock] = []
        var lines: [Substring] = []
        func endParagraph() {
            let words = lines.flatMap { $0.split(whereSeparator: \.isWhitespace) }
            if !words.isEmpty { paragraphs.append(TextBlock(.paragraph, words.joined(separator: " "))) }
            lines.removeAll()
        }
        for line in raw.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            if line.allSatisfy(\.isWhitespace) { endParagraph() } else { lines.append(line) }
        }
        endParagraph()
        return paragraphs
    }

    /// The whole text of `item` as paragraphs (``paragraphs(_:isHTML:)``), from the first
    /// of `paths` that holds text; empty when none does. What an item page shows of a post.
    public static func paragraphs(of item: JSONValue, at paths: [JSONPointer]) -> [String] {
        blocks(of: item, at: paths).map(\.text)
    }

    /// ``paragraphs(of:at:)`` with what each block was: a heading, a list's item, a
    /// paragraph.
    public static func blocks(of item: JSONValue, at paths: [JSONPointer]) -> [TextBlock] {
        for pointer in paths {
            guard let raw = item.value(at: pointer)?.stringValue else { continue }
            let blocks = blocks(raw, isHTML: HTMLPlainText.isHTML(at: pointer))
            if !blocks.isEmpty { return blocks }
        }
        return []
    }

    /// The text's first sentence as a title, and what follows it as an abstract (`nil` when
    /// nothing does). A first sentence longer than ``titleLimit`` is cut; the abstract then
    /// goes on from the cut, led by `…`, so that nothing shows twice.
    static func titled(_ text: String) -> (title: String, abstract: String?) {
        let sentence = firstSentence(of: text)
        if sentence.count <= titleLimit {
            let rest = text[sentence.endIndex...].drop(while: \.isWhitespace)
            return (String(sentence), rest.isEmpty ? nil : excerpt(String(rest)))
        }
        let cut = cutBetweenWords(text, limit: titleLimit - 1)
        let rest = text[cut.endIndex...].drop(while: \.isWhitespace)
        return (cut + "…", rest.isEmpty ? nil : excerpt("…" + rest))
    }

    /// The text's beginning, at most ``abstractLimit`` characters, cut between words.
    static func excerpt(_ text: String) -> String {
        guard text.count > abstractLimit else { return text }
        return cutBetweenWords(text, limit: abstractLimit - 1) + "…"
    }

    /// The text up to and including its first `.`, `!` or `?` that ends a sentence (one
    /// followed by white space or the text's end); the whole text when there is none.
    private static func firstSentence(of text: String) -> Substring {
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(after: index)
            if ".!?".contains(text[index]), next == text.endIndex || text[next].isWhitespace {
                return text[..<next]
            }
            index = next
        }
        return text[...]
    }

    /// The longest beginning of `text` of at most `limit` characters that ends between two
    /// words, without the white space there; the first `limit` characters when the first
    /// word alone is longer.
    private static func cutBetweenWords(_ text: String, limit: Int) -> Substring {
        let end = text.index(text.startIndex, offsetBy: limit, limitedBy: text.endIndex) ?? text.endIndex
        guard end < text.endIndex else { return text[...] }
        guard !text[end].isWhitespace else { return text[..<end] }
        let head = text[..<end]
        guard let space = head.lastIndex(where: \.isWhitespace) else { return head }
        let words = trimmedEnd(text[..<space])
        return words.isEmpty ? head : words
    }

    private static func trimmedEnd(_ text: Substring) -> Substring {
        var end = text.endIndex
        while end > text.startIndex, text[text.index(before: end)].isWhitespace {
            end = text.index(before: end)
        }
        return text[..<end]
    }
}
