/// A board named once (`--playlist lobby='v=kiosk:World&v=stats&rotate=30,15'`) that a
/// screen asks for by name (`/board?playlist=lobby`): the query of a ``BoardQuery``, checked
/// at start so that a typo exits there rather than showing a 400 on a TV.
public enum BoardPlaylist {
    /// A playlist's name: letters, digits, `.`, `_`, `-`.
    public static func isName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 64
            && name.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
                    || $0 == "." || $0 == "_" || $0 == "-"
            }
    }

    /// What is wrong with a board's query (`v=…&rotate=…`), or `nil` when it makes a board.
    public static func problem(in query: String) -> String? {
        do {
            _ = try BoardQuery(
                request: HTTPRequest(
                    method: "GET", path: "/board", version: "HTTP/1.1", queryArguments: fields(of: query), headers: []))
            return nil
        } catch {
            return "\(error.parameter): \(error.message)"
        }
    }

    /// The arguments of a query string, percent-decoded (`+` stays a plus).
    static func fields(of query: String) -> [HTTPRequest.Field] {
        query.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decoded(_ text: Substring) -> String { String(text).removingPercentEncoding ?? String(text) }
            return HTTPRequest.Field(name: decoded(parts[0]), value: parts.count > 1 ? decoded(parts[1]) : "")
        }
    }

    /// `request` with the playlist it names (`?playlist=NAME`) in place of that argument,
    /// the request's other arguments after it (`screen`, `now`); the request itself when it
    /// names none; `nil` for a name not in `playlists`.
    static func resolve(_ request: HTTPRequest, in playlists: [String: String]) -> HTTPRequest? {
        guard let name = request.query("playlist") else { return request }
        guard let query = playlists[name] else { return nil }
        var resolved = request
        resolved.queryArguments =
            fields(of: query) + request.queryArguments.filter { $0.name.lowercased() != "playlist" }
        return resolved
    }
}
