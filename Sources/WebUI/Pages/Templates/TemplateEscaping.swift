import Mustache

/// How every template escapes a `{{value}}`: ``HTMLEscaping``, in place of the Mustache
/// library's own HTML escaping.
///
/// The library's escaper walks `Character`s and looks each up among `< > & " '`, so a quote
/// followed by a combining mark (one grapheme cluster, `"` U+0301) passes through unescaped
/// and closes the attribute a string stands in: `/?section=X%22%CC%81%20onmouseover%3D…`
/// added an `onmouseover` to the list page's `data-section`, and a feed's section, title or
/// cell value did the same wherever a template puts it in an attribute. It is also slow: 20 µs for a story's 272-byte abstract against 0.4 µs,
/// which made a list entry cost 91 µs to render against 38 µs with ours (BENCHMARKS.md).
///
/// Every template's source is parsed with ``pragma`` in front (``parse(_:)``), which makes
/// the rest of it, and the partials it includes, escape with ``ContentType``. The pragma
/// names `HTML`, which ``parse(_:)`` registers as ours before it parses anything, so a
/// template that names `HTML` itself gets ours too.
enum TemplateEscaping {
    /// The library's content type for `HTML`, from now on.
    struct ContentType: MustacheContentType {
        func escapeText(_ text: String) -> String { HTMLEscaping.escape(text) }
    }

    /// What goes before every template's source: a standalone tag on a line of its own,
    /// which renders as nothing (the line with it is dropped), so lines are counted from
    /// the second (``sourceLine(_:)``).
    static let pragma = "{{% CONTENT_TYPE: HTML}}\n"

    /// Registers ``ContentType`` as the library's `HTML`, once per process, before the
    /// first template is parsed (`MustacheContentTypes` is the library's own table; the
    /// library reads a pragma's name when it parses a template).
    private static let registered: Void = MustacheContentTypes.register(ContentType(), named: "HTML")

    /// `source` parsed as a template that escapes with ``ContentType``.
    static func parse(_ source: String) throws -> MustacheTemplate {
        _ = registered
        return try MustacheTemplate(string: pragma + source)
    }

    /// The line of a template's own source (from 1) that the parser's `line` (of the source
    /// with ``pragma`` in front) is.
    static func sourceLine(_ line: Int) -> Int { max(line - 1, 1) }
}
