/// Text a feed sends as HTML (WordPress' `title.rendered` and `content.rendered`, a
/// `body_html`), as the plain text a person reads in a cell, a tile or a title: its tags
/// left out, its character references read (`Caf&eacute; &#8211; news` → `Café – news`).
/// The result is plain text, never markup: pages escape it like any other value.
public enum HTMLPlainText {
    /// Whether the member at `pointer` holds HTML by its name: WordPress' `rendered`, or a
    /// name that ends in `html` (`content_html`, `bodyHtml`).
    public static func isHTML(at pointer: JSONPointer) -> Bool {
        guard let name = pointer.tokens.last else { return false }
        let lower = name.lowercased()
        return lower == "rendered" || lower.hasSuffix("_html") || (name.hasSuffix("Html") && name.count > 4)
    }

    /// Whether `text` is markup by its look: past leading white space it opens with a tag
    /// (`<p`, `<div`), ends with one and closes one on the way (`</p>`). A text in angle
    /// brackets alone (Docker's `<none>`) is no markup.
    public static func isMarkup(_ text: String) -> Bool {
        let trimmed = text.utf8.drop { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
        guard trimmed.count >= 7, trimmed.first == UInt8(ascii: "<"),
            let second = trimmed.dropFirst().first, (0x41...0x5A).contains(second) || (0x61...0x7A).contains(second),
            trimmed.reversed().first(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 })
                == UInt8(ascii: ">")
        else { return false }
        return text.contains("</")
    }

    /// Whether `text` is plain text sent escaped for HTML (Stack Exchange's and Reddit's
    /// titles: `How do I use &quot;Sendable&quot;?`, `Q&amp;A`): it holds a character
    /// reference that reads as a character and no tag (a `<` before a letter, `/` or `!`),
    /// so that ``plain(_:)`` only reads its references. `AT&T` and `a < b` are not.
    public static func isEscaped(_ text: String) -> Bool {
        guard text.utf8.contains(UInt8(ascii: "&")), !hasTag(text) else { return false }
        var index = text.startIndex
        while let ampersand = text[index...].firstIndex(of: "&") {
            if reference(in: text, at: ampersand) != nil { return true }
            index = text.index(after: ampersand)
        }
        return false
    }

    /// Whether `text` has a `<` before a letter, `/` or `!`: what ``plain(_:)`` would take
    /// for a tag.
    public static func hasTag(_ text: String) -> Bool {
        var previousOpens = false
        for byte in text.utf8 {
            if previousOpens,
                (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x2F || byte == 0x21
            {
                return true
            }
            previousOpens = byte == UInt8(ascii: "<")
        }
        return false
    }

    /// The text of `html`: tags left out (and what is inside `script` and `style`), a
    /// paragraph's, a line break's or a list item's end as a space, character references
    /// read, runs of white space as one space, trimmed. Linear in `html`'s length.
    public static func plain(_ html: String) -> String {
        read(html, breaksParagraphs: false).first?.text ?? ""
    }

    /// The text of `html` as paragraphs, as ``plain(_:)`` reads it but for the end of a
    /// block (a paragraph, a heading, a list item, a quotation, a `div`, a table row) and two
    /// line breaks in a row, each of which ends a paragraph. Invariant: no paragraph is empty
    /// or begins or ends with white space. Linear in `html`'s length.
    public static func paragraphs(_ html: String) -> [String] {
        read(html, breaksParagraphs: true).map(\.text)
    }

    /// ``paragraphs(_:)`` with what each block was: a heading (`h1` … `h6`), a list's item
    /// (`li`; numbered in an `ol`) or a paragraph. A heading or an item that opens after
    /// text begins a block of its own.
    public static func blocks(_ html: String) -> [TextBlock] {
        read(html, breaksParagraphs: true)
    }

    /// Tags that open a block of a kind of its own.
    private static let blockStarts: [Substring: TextBlock.Kind] = [
        "h1": .heading, "h2": .heading, "h3": .heading, "h4": .heading, "h5": .heading, "h6": .heading,
        "li": .listItem,
    ]

    /// Tags that end a block of text where they close.
    private static let blockEnds: Set<Substring> = [
        "/p", "/div", "/li", "/h1", "/h2", "/h3", "/h4", "/h5", "/h6", "/tr", "/blockquote", "/pre", "/ul", "/ol",
        "/table", "/figure", "hr", "hr/",
    ]

    /// `html`'s text, one paragraph (``plain(_:)``) or each block's apart, with its kind
    /// (``blocks(_:)``).
    private static func read(_ html: String, breaksParagraphs: Bool) -> [TextBlock] {
        var paragraphs: [TextBlock] = []
        var kind = TextBlock.Kind.paragraph
        // The lists open around the text, innermost last: numbered (`ol`) or not.
        var lists: [Bool] = []
        var out = ""
        out.reserveCapacity(breaksParagraphs ? 256 : html.utf8.count)
        var pendingSpace = false
        // Line breaks since the last text: two in a row end a paragraph.
        var breaks = 0
        func append(_ character: Character) {
            if character.isWhitespace {
                pendingSpace = !out.isEmpty
                return
            }
            if pendingSpace { out.append(" ") }
            pendingSpace = false
            breaks = 0
            out.append(character)
        }
        func endParagraph() {
            if !out.isEmpty { paragraphs.append(TextBlock(kind, out)) }
            out = ""
            pendingSpace = false
            breaks = 0
            kind = .paragraph
        }
        var index = html.startIndex
        var skippingUntil: String?
        // Once no `>` follows, none follows a later `<` either: each is text, and no search
        // runs again (a hostile `<<<<…` costs linear time).
        var closes = true
        while index < html.endIndex {
            let character = html[index]
            // A tag begins with a letter, `/` or `!` after its `<`; `a < b` is text.
            let next = html.index(after: index)
            let opensTag =
                next < html.endIndex && (html[next].isLetter || html[next] == "/" || html[next] == "!")
            if character == "<", opensTag, closes {
                guard let close = html[index...].firstIndex(of: ">") else {
                    closes = false
                    continue
                }
                let tag = html[html.index(after: index)..<close].lowercased()
                let name = tag.prefix { $0.isLetter || $0.isNumber || $0 == "/" }
                if skippingUntil == nil, name == "ol" || name == "ul" {
                    lists.append(name == "ol")
                } else if skippingUntil == nil, name == "/ol" || name == "/ul" {
                    _ = lists.popLast()
                }
                if let until = skippingUntil {
                    if name == until { skippingUntil = nil }
                } else if name == "script" || name == "style" {
                    skippingUntil = "/" + name
                } else if breaksParagraphs, blockEnds.contains(name) {
                    endParagraph()
                } else if breaksParagraphs, let starts = blockStarts[name] {
                    endParagraph()
                    kind = starts == .listItem && lists.last == true ? .numberedItem : starts
                } else if name == "br" || name == "br/" {
                    append(" ")
                    breaks += 1
                    if breaksParagraphs, breaks == 2 { endParagraph() }
                } else if ["/p", "/div", "/li", "/h1", "/h2", "/h3", "/h4", "/tr", "/td"].contains(name) {
                    append(" ")
                }
                index = html.index(after: close)
                continue
            }
            if skippingUntil != nil {
                index = html.index(after: index)
                continue
            }
            if character == "&", let (read, end) = reference(in: html, at: index) {
                append(read)
                index = end
                continue
            }
            append(character)
            index = html.index(after: index)
        }
        endParagraph()
        return paragraphs
    }

    /// The character that the reference starting at `start` (an `&`) stands for, and where
    /// the reference ends; `nil` when there is none there (a lone `&` is itself).
    private static func reference(in text: String, at start: String.Index) -> (Character, String.Index)? {
        let body = text[text.index(after: start)...].prefix(10)
        guard let semicolon = body.firstIndex(of: ";") else { return nil }
        let name = body[..<semicolon]
        let end = text.index(after: semicolon)
        if name.hasPrefix("#") {
            let digits = name.dropFirst()
            let code =
                digits.first == "x" || digits.first == "X"
                ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
            guard let code, let scalar = Unicode.Scalar(code), code != 0 else { return nil }
            return (Character(scalar), end)
        }
        guard let character = named[String(name)] else { return nil }
        return (character, end)
    }

    /// The named references that text in feeds uses (HTML's full list has 2,231).
    private static let named: [String: Character] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " ", "hellip": "…", "mdash": "—",
        "ndash": "–", "lsquo": "‘", "rsquo": "’", "ldquo": "“", "rdquo": "”", "laquo": "«", "raquo": "»",
        "bull": "•", "middot": "·", "copy": "©", "reg": "®", "trade": "™", "deg": "°", "euro": "€", "pound": "£",
        "yen": "¥", "cent": "¢", "sect": "§", "para": "¶", "times": "×", "divide": "÷", "plusmn": "±",
        "frac12": "½", "frac14": "¼", "frac34": "¾", "eacute": "é", "egrave": "è", "ecirc": "ê", "euml": "ë",
        "aacute": "á", "agrave": "à", "acirc": "â", "auml": "ä", "aring": "å", "atilde": "ã", "iacute": "í",
        "igrave": "ì", "icirc": "î", "iuml": "ï", "oacute": "ó", "ograve": "ò", "ocirc": "ô", "ouml": "ö",
        "otilde": "õ", "oslash": "ø", "uacute": "ú", "ugrave": "ù", "ucirc": "û", "uuml": "ü", "ccedil": "ç",
        "ntilde": "ñ", "szlig": "ß", "Eacute": "É", "Egrave": "È", "Aacute": "Á", "Agrave": "À", "Auml": "Ä",
        "Ouml": "Ö", "Uuml": "Ü", "Ccedil": "Ç", "Ntilde": "Ñ", "Oslash": "Ø", "Aring": "Å", "aelig": "æ",
        "AElig": "Æ",
    ]
}
