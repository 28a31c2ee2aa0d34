/// The one builder of test documents shaped as a Jira search answer (`/rest/api/2/search`):
/// issue `n` is `OPS-(100 + n)`, id `10000 + n`, its values in its `fields`: a summary, its
/// status, priority and type as objects named by `name`, its assignee `Person n` by
/// `displayName` (`null` for every even `n`), created at 2026-11-30T10:00 written with the
/// offset `+0000` as Jira writes it; an `expand` that is empty text.
public enum JiraSearch {
    public static func text(statuses: [String]) -> String {
        let issues = statuses.enumerated().map { index, status in
            let assignee =
                index.isMultiple(of: 2) ? "null" : #"{"displayName": "Person \#(index)", "emailAddress": "p@x"}"#
            return #"""
                {"expand": "", "id": "\#(10_000 + index)", "self": "https://jira.example/rest/api/2/issue/\#(10_000 + index)",
                 "key": "OPS-\#(100 + index)",
                 "fields": {"summary": "Disk full on db-\#(index)", "status": {"self": "s", "name": "\#(status)", "id": "3"},
                            "priority": {"name": "High", "id": "2"}, "assignee": \#(assignee),
                            "created": "2026-11-30T10:00:00.000+0000", "issuetype": {"name": "Bug", "subtask": false}}}
                """#
        }
        return
            #"{"startAt": 0, "maxResults": 50, "total": \#(statuses.count), "issues": [\#(issues.joined(separator: ","))]}"#
    }
}
