import Foundation

/// A Kubernetes watch's list, read before a watch that starts over while objects are kept
/// (after `410 Expired`, or with a state restored from `--state`): a watch that starts
/// without a `resourceVersion` says what there is, not what went, so the objects deleted
/// meanwhile would stay. The list (the same URL without `watch`, page by page) is every
/// object there is: the kept ones it lacks go, and the watch then starts at the list's
/// `resourceVersion` (the "list, then watch" of Kubernetes' own clients).
///
/// The I/O-free part: which URL is a watch, each page's URL, and what a page holds.
enum KubernetesList {
    /// The most objects a page asks for (`limit`).
    static let pageLimit = 500
    /// The most pages read before the list is given up.
    static let maxPages = 1000

    /// One page of a list: its objects, the list's `resourceVersion`, and the `continue`
    /// token of the next page (`nil`: the last).
    struct Page: Equatable {
        var items: [JSONValue]
        var resourceVersion: String
        var next: String?
    }

    /// Whether `url` watches: its query has `watch` as `1`, `true` or bare.
    static func isWatch(_ url: URL) -> Bool {
        guard let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems else { return false }
        return items.contains { $0.name == "watch" && ($0.value == nil || $0.value == "1" || $0.value == "true") }
    }

    /// The query parameters of a watch that a list does not take.
    static let watchParameters: Set<String> = [
        "watch", "resourceVersion", "resourceVersionMatch", "allowWatchBookmarks", "timeoutSeconds",
        "sendInitialEvents", "limit", "continue",
    ]

    /// The URL of the list's page after `token` (`nil`: the first) of the watch `url`: its
    /// query without ``watchParameters``, then `limit` and `continue`. Selectors and every
    /// other part stay as they were.
    static func pageURL(of url: URL, continuing token: String?) -> URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
        var items = (components.percentEncodedQueryItems ?? []).filter { !watchParameters.contains($0.name) }
        items.append(URLQueryItem(name: "limit", value: String(pageLimit)))
        if let token {
            items.append(
                URLQueryItem(name: "continue", value: StreamResume.ResumeQuery.percentEncoded(token)))
        }
        components.percentEncodedQueryItems = items
        return components.url ?? url
    }

    /// The page `value` is, or `nil` when it is not a list: an object with an array of
    /// `items` and a `metadata.resourceVersion`.
    static func page(_ value: JSONValue) -> Page? {
        guard let items = value["items"]?.arrayValue, let metadata = value["metadata"],
            let version = metadata["resourceVersion"]?.stringValue, !version.isEmpty
        else { return nil }
        let next = metadata["continue"]?.stringValue
        return Page(items: items, resourceVersion: version, next: next?.isEmpty == false ? next : nil)
    }
}
