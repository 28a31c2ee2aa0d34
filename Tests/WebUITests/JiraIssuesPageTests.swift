import FeedCore
import Foundation
import TestSupport
import Testing

@testable import WebUI

/// A Jira search answer as a board shows it: each issue's status, priority, assignee and
/// type by their names, its times as times, filtered by status, over HTTP.
@Suite(.timeLimit(.minutes(2)), .onThreadsOfItsOwn)
struct JiraIssuesPageTests {
    @Test(
        "status coloured (In Progress busy) and filtered, assignee by name or a dash, created as a time, no empty expand column"
    )
    func issuesPage() async throws {
        let statuses = ["To Do", "In Progress", "Done", "To Do", "Done"]
        let server = try TestServer(
            document: try JSONValue(parsing: JiraSearch.text(statuses: statuses)), detection: .init())
        let table = try await HTTPTestClient.get(port: server.port, "/").text
        let headings = TableColumnOrderTests.headings(table)
        for name in ["summary", "status", "priority", "assignee", "created", "issuetype"] {
            #expect(headings.contains(name), "\(name) in \(headings)")
        }
        #expect(!headings.contains("expand"), "\(headings)")
        /// Each cell of `column` as its classes and its contents, `classes|contents`.
        func cells(_ column: String, in page: String) -> [String] {
            page.matches(of: /<td class="([^"]*)" data-col="([^"]+)">(.*?)<\/td>/).filter { $0.output.2 == column }.map
            {
                "\($0.output.1)|\($0.output.3)"
            }
        }
        let statusCells = cells("status", in: table)
        #expect(statusCells.count == statuses.count, "\(statusCells)")
        #expect(statusCells.contains { $0.contains("status-good") && $0.contains(">Done<") }, "\(statusCells)")
        #expect(statusCells.contains { $0.contains("status-busy") && $0.contains(">In Progress<") }, "\(statusCells)")
        let assignees = cells("assignee", in: table)
        #expect(assignees.contains { $0.hasSuffix("|Person 1") }, "\(assignees)")
        #expect(!assignees.contains { $0.contains("field") }, "no object summarised: \(assignees)")
        let created = cells("created", in: table)
        #expect(created.count == statuses.count && created.allSatisfy { !$0.contains("+0000") }, "\(created)")
        #expect(created.allSatisfy { $0.contains("ago") || $0.contains("<time") }, "\(created)")
        // Filtered by status: only the issues done.
        #expect(table.contains(#"href="/?section=Done""#), "the status is the filter")
        let done = try await HTTPTestClient.get(port: server.port, "/?section=Done").text
        let doneStatuses = cells("status", in: done)
        #expect(doneStatuses.count == statuses.filter { $0 == "Done" }.count, "\(doneStatuses)")
        #expect(doneStatuses.allSatisfy { $0.contains(">Done<") })
    }
}
