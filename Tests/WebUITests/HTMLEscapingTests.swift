import TestSupport
import Testing

@testable import WebUI

/// Every `& < > " '` escaped whatever follows it; the characters XML forbids replaced; all
/// else byte for byte.
@Suite struct HTMLEscapingTests {
    /// What the escaper must make of each character, written out scalar by scalar: the
    /// reference the byte-level escaper is checked against.
    static func reference(_ text: String) -> String { HTMLText.escaped(text) }

    @Test("a quote, an apostrophe or a bracket with a combining mark after it is still escaped")
    func combiningMarks() {
        #expect(HTMLEscaping.escape("x\"\u{0301} on=1") == "x&quot;\u{0301} on=1")
        #expect(HTMLEscaping.escape("'\u{0301}") == "&#39;\u{0301}")
        #expect(HTMLEscaping.escape("<\u{0338}b>") == "&lt;\u{0338}b&gt;")
        #expect(HTMLEscaping.escape("&\u{20DD}") == "&amp;\u{20DD}")
    }

    @Test("controls and U+FFFE, U+FFFF become U+FFFD; tab, line feed, carriage return stay")
    func forbiddenCharacters() {
        #expect(HTMLEscaping.escape("a\u{0}b\u{1F}c\td\ne\rf") == "a\u{FFFD}b\u{FFFD}c\td\ne\rf")
        #expect(HTMLEscaping.escape("\u{FFFE}\u{FFFF}\u{FFFD}\u{FFFC}") == "\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFC}")
        #expect(HTMLEscaping.escape("\u{EFFF}ï¿") == "\u{EFFF}ï¿", "EF bytes that are no U+FFFE/F stay")
    }

    @Test("text with nothing to escape comes back as it was, and the empty string too")
    func unchanged() {
        for text in ["", "plain", "Zürich · 東京 · 👩‍👩‍👧 · café", "\u{10FFFF}"] {
            #expect(HTMLEscaping.escape(text) == text)
        }
    }

    @Test("agrees with the scalar-by-scalar reference on every scalar class, at every position")
    func agreesWithReference() {
        let pieces = [
            "a", "&", "<", ">", "\"", "'", "\t", "\u{0}", "\u{1B}", "\u{7F}", "é", "\u{0301}", "東", "👩‍👩‍👧",
            "\u{FFFE}", "\u{FFFF}", "\u{FFFD}", "\u{EFBF}", "\u{10FFFF}",
        ]
        var checked = 0
        for first in pieces {
            for second in pieces {
                for third in pieces {
                    let text = first + second + third
                    #expect(HTMLEscaping.escape(text) == Self.reference(text), "\(Array(text.unicodeScalars))")
                    checked += 1
                }
            }
        }
        #expect(checked == pieces.count * pieces.count * pieces.count)
        var appended = "head:"
        HTMLEscaping.escape("<a & b>", into: &appended)
        #expect(appended == "head:&lt;a &amp; b&gt;")
    }
}
