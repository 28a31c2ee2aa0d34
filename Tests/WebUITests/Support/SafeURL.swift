/// Which `href`/`src` values a page may carry: feedweb's own paths, same-page links, and
/// `http:`/`https:` URLs; nothing that runs script or embeds data.
enum SafeURL {
    static func isSafe(_ value: String) -> Bool {
        if value.hasPrefix("#") { return !value.contains(":") }  // same-page links (the skip link)
        if value.hasPrefix("/") { return !value.hasPrefix("//") }
        let lower = value.lowercased()
        return (lower.hasPrefix("https://") || lower.hasPrefix("http://")) && !value.contains(" ")
            && !value.contains("\"")
    }
}
