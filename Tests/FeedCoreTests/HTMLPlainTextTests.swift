import FeedCore
import Testing

/// Text sent as HTML, as a person reads it: tags left out, references read, plain text out.
@Suite("HTML as plain text")
struct HTMLPlainTextTests {
    @Test("tags left out, a paragraph's end a space, references read, white space collapsed")
    func plainText() {
        #expect(HTMLPlainText.plain("Caf&eacute; news &#8211; part 1 &amp; more") == "Café news – part 1 & more")
        let post = "<p>Body of <strong>post</strong> with a <a href=\"https://x\">link</a>.</p>\n<p>Two.</p>"
        #expect(HTMLPlainText.plain(post) == "Body of post with a link. Two.")
        #expect(HTMLPlainText.plain("<p>Short &hellip;</p>\n") == "Short …")
        #expect(HTMLPlainText.plain("line<br>next<br/>last") == "line next last")
        #expect(HTMLPlainText.plain("&#x41;&#66;&#0;&bogus; & x") == "AB&#0;&bogus; & x", "unknown references stay")
    }

    @Test("what a script or a style holds is no text; a `<` that opens no tag is")
    func scriptsAndComparisons() {
        #expect(HTMLPlainText.plain("a<script>alert('<b>x</b>')</script>b<style>p{}</style>c") == "abc")
        #expect(HTMLPlainText.plain("a < b and c > d") == "a < b and c > d")
        #expect(HTMLPlainText.plain("x &lt;script&gt; y") == "x <script> y", "plain text out, for the page to escape")
        // No `>` after a `<`: the rest is text, read once.
        let hostile = String(repeating: "<a", count: 50_000)
        #expect(HTMLPlainText.plain(hostile) == hostile)
    }

    @Test("HTML by its name: WordPress' rendered, a name that ends in html")
    func namedAsHTML() throws {
        for html in ["/title/rendered", "/content_html", "/bodyHtml"] {
            #expect(HTMLPlainText.isHTML(at: try JSONPointer(html)), "\(html)")
        }
        for text in ["/html_url", "/title", "/Html"] {
            #expect(!HTMLPlainText.isHTML(at: try JSONPointer(text)), "\(text)")
        }
    }

    @Test("HTML by its look: a text that opens, closes and ends with tags; angle brackets alone are no markup")
    func markupByItsLook() {
        let status =
            "<p>Hello <a href=\"https://mastodon.social/tags/swift\" class=\"hashtag\">#<span>swift</span></a></p>"
        #expect(HTMLPlainText.isMarkup(status))
        #expect(HTMLPlainText.isMarkup("\n  <div>a<br>b</div>\n"))
        for text in ["<none>", "<none>:<none>", "a <b>c</b>", "<p>unclosed", "5 < 6 > 4", "<3 </3>", ""] {
            #expect(!HTMLPlainText.isMarkup(text), "\(text)")
        }
    }

    @Test("text sent escaped: a reference that reads and no tag; AT&T, a lone ampersand and markup are not")
    func escapedText() {
        #expect(HTMLPlainText.isEscaped("How do I use &quot;Sendable&quot;?"))
        #expect(HTMLPlainText.isEscaped("Q&amp;A"))
        #expect(HTMLPlainText.isEscaped("it&#39;s"))
        #expect(HTMLPlainText.isEscaped("Vec&lt;T&gt; and a < b"))
        #expect(!HTMLPlainText.isEscaped("AT&T"))
        #expect(!HTMLPlainText.isEscaped("fish & chips; peas"))
        #expect(!HTMLPlainText.isEscaped("a &bogus; reference"))
        #expect(!HTMLPlainText.isEscaped("<p>Tom &amp; Jerry</p>"), "markup is read as markup")
        #expect(HTMLPlainText.plain("Vec&lt;T&gt; &amp; a < b") == "Vec<T> & a < b")
        #expect(HTMLPlainText.hasTag("x <b>y") && HTMLPlainText.hasTag("</x") && HTMLPlainText.hasTag("<!-- -->"))
        #expect(!HTMLPlainText.hasTag("a < b") && !HTMLPlainText.hasTag("1<2") && !HTMLPlainText.hasTag("<"))
    }
}
