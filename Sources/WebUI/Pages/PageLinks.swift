/// Where the pages' and fragments' links to feedweb's own pages point: paths (`/items/KEY`),
/// or, with `--public-origin`, absolute URLs on that origin.
///
/// A page of another origin that shows feedweb's fragments (an htmx or Datastar page of the
/// user's own, docs/dialects.md) resolves a path against itself: a row's `/items/KEY` would
/// open the user's site, not feedweb's item page. With the origin people reach feedweb at,
/// every link a fragment carries to feedweb (an item, a section, the list, the placeholder
/// picture, a feed's URL that is one of feedweb's paths, such as the demo's pictures) names
/// feedweb, wherever the fragment is shown. feedweb's scripts and styles keep their paths:
/// only feedweb's own pages load them. One value for the process: the fragments are
/// rendered once and shared by every client, so every client gets the same.
public struct PageLinks: Sendable, Equatable {
    /// `""` (paths), or an origin as a browser serializes it (``AllowedOrigins``):
    /// `scheme://host[:port]`, lower case, no default port, no trailing `/`.
    public let origin: String

    /// Links as paths, resolved against the page that shows them (the default).
    public static let paths = PageLinks(serialized: "")

    private init(serialized origin: String) {
        self.origin = origin
    }

    /// Reads `--public-origin`: an http or https origin, `scheme://host[:port]`, with at
    /// most a `/` after it (`https://dash.example/`); anything else is a problem naming it.
    public init(origin text: String) throws(AllowedOrigins.Problem) {
        var text = Substring(text)
        if text.hasSuffix("/") && !text.hasSuffix("://") { text = text.dropLast() }
        self.init(serialized: try AllowedOrigins.serialized(String(text), anyAllowed: false))
    }

    /// The list, `/`.
    var home: String { origin + "/" }

    /// An item's page, `/items/KEY`; `key` is an item key, safe in a path as it is.
    func item(_ key: String) -> String { origin + "/items/" + key }

    /// The list of one section, `/?section=NAME` (the name percent-encoded).
    func section(_ name: String) -> String { origin + "/?section=" + StoryView.queryEscape(name) }

    /// The picture shown where a story's thumbnail is missing or broken.
    var placeholder: String { origin + "/static/placeholder.svg" }

    /// A URL from the feed as an `href` or `src` may carry it (``URLPolicy/safeURL(_:)``),
    /// one of feedweb's paths on ``origin``; `nil` for one the policy drops.
    func safeURL(_ candidate: String?) -> String? {
        guard let url = URLPolicy.safeURL(candidate) else { return nil }
        return url.hasPrefix("/") ? origin + url : url
    }
}
