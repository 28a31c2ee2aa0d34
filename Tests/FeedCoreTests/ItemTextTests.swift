import Testing

@testable import FeedCore

/// A post's whole text as its title and its abstract, when the feed gives neither.
@Suite struct ItemTextTests {
    @Test("the first sentence titles, the rest summarises; one sentence alone has no abstract")
    func firstSentence() {
        let text = "Shipped the new sync today! It took three tries. More tomorrow."
        let titled = ItemText.titled(text)
        #expect(titled.title == "Shipped the new sync today!")
        #expect(titled.abstract == "It took three tries. More tomorrow.")
        #expect(ItemText.titled("Just one line.") == ("Just one line.", nil))
        #expect(ItemText.titled("no end at all") == ("no end at all", nil))
        // A full stop inside a number or a name ends no sentence.
        #expect(ItemText.titled("Swift 6.3 is out. Try it.").title == "Swift 6.3 is out.")
    }

    @Test("a long first sentence is cut between words, and the abstract goes on from the cut")
    func longSentence() throws {
        let words = (1...60).map { "word\($0)" }
        let text = words.joined(separator: " ") + "."
        let titled = ItemText.titled(text)
        #expect(titled.title.count <= ItemText.titleLimit, "\(titled.title.count)")
        #expect(titled.title.hasSuffix("…"))
        let shown = titled.title.dropLast().split(separator: " ").map(String.init)
        #expect(shown == Array(words.prefix(shown.count)), "whole words, in order")
        let abstract = try #require(titled.abstract)
        #expect(abstract.hasPrefix("…" + words[shown.count] + " "), "\(abstract.prefix(40))")
        #expect(abstract.count <= ItemText.abstractLimit)
    }

    @Test("an excerpt keeps a short text whole and cuts a long one between words")
    func excerpt() {
        #expect(ItemText.excerpt("Short.") == "Short.")
        let long = String(repeating: "lorem ipsum ", count: 60)
        let cut = ItemText.excerpt(long)
        #expect(cut.count <= ItemText.abstractLimit && cut.hasSuffix("…"))
        #expect(cut.dropLast().hasSuffix("lorem") || cut.dropLast().hasSuffix("ipsum"), "\(cut.suffix(12))")
        // One word longer than the limit is cut where the limit falls.
        let word = String(repeating: "a", count: 400)
        #expect(ItemText.excerpt(word) == String(repeating: "a", count: ItemText.abstractLimit - 1) + "…")
    }

    @Test("the text is one line of plain text: markup read as text, white space folded")
    func body() {
        #expect(
            ItemText.body("<p>Coffee &amp; <b>code</b>.</p>\n<p>Then sleep.</p>", isHTML: true)
                == "Coffee & code. Then sleep.")
        #expect(ItemText.body("<p>By its look</p>", isHTML: false) == "By its look")
        #expect(ItemText.body("  two\n\nlines  ", isHTML: false) == "two lines")
        #expect(ItemText.body("a < b and c > d", isHTML: false) == "a < b and c > d")
        #expect(ItemText.body(" \n ", isHTML: false) == nil)
        #expect(ItemText.body("<p></p>", isHTML: true) == nil)
    }

    @Test("a post's text as paragraphs: HTML block by block, plain text at its blank lines")
    func paragraphs() {
        let html = """
            <p>Deploys took <b>14</b> minutes.</p><h2>The fix</h2><ul><li>Key by the lockfile</li></ul>\
            <p>One<br>line.<br> <br>Two &amp; more.</p><script>alert(1)</script><hr><p>&lt;script&gt;</p>
            """
        #expect(
            ItemText.paragraphs(html, isHTML: true) == [
                "Deploys took 14 minutes.", "The fix", "Key by the lockfile", "One line.", "Two & more.", "<script>",
            ])
        let text = "Walked to the harbour.\nThe fog was thick.\n\n  Coffee at six.  \r\n \n\n\nThird."
        #expect(
            ItemText.paragraphs(text, isHTML: false) == [
                "Walked to the harbour. The fog was thick.", "Coffee at six.", "Third.",
            ])
        #expect(ItemText.paragraphs("<p> </p><div></div>", isHTML: true).isEmpty)
        // The plain reading of the same HTML is the paragraphs run together.
        #expect(HTMLPlainText.plain(html) == ItemText.paragraphs(html, isHTML: true).joined(separator: " "))
    }

    @Test("an item's paragraphs come from the first body path that holds text")
    func paragraphsOfAnItem() throws {
        let item: JSONValue = .object([
            "content_text": .string(" \n "), "content_html": .string("<p>A</p><p>B</p>"),
        ])
        let paths = [try JSONPointer("/content_text"), try JSONPointer("/content_html")]
        #expect(ItemText.paragraphs(of: item, at: paths) == ["A", "B"])
        #expect(ItemText.paragraphs(of: item, at: []).isEmpty)
    }

    @Test("blocks say what each was: headings, list items (numbered in an ol, nested lists their own), paragraphs")
    func blocksAndTheirKinds() {
        let blocks = HTMLPlainText.blocks(
            "Intro<h2>Head</h2>text<ol><li>one</li><li>two<ul><li>inner</li></ul></li></ol></ul><li>stray</li>"
                + "<script><ol><li>no</li></ol></script><p>end</p>")
        #expect(
            blocks == [
                TextBlock(.paragraph, "Intro"), TextBlock(.heading, "Head"), TextBlock(.paragraph, "text"),
                TextBlock(.numberedItem, "one"), TextBlock(.numberedItem, "two"), TextBlock(.listItem, "inner"),
                TextBlock(.listItem, "stray"), TextBlock(.paragraph, "end"),
            ], "\(blocks)")
        let html = "<p>a <b>b</b></p><h3>c</h3><ul><li>d</li></ul>"
        #expect(HTMLPlainText.paragraphs(html) == HTMLPlainText.blocks(html).map(\.text))
        #expect(HTMLPlainText.plain(html) == "a b c d", "the one-line reading is as it was")
    }
}
