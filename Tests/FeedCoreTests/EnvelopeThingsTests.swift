import FeedCore
import TestSupport
import Testing

/// Things an item's envelope refers to that name themselves (a Jira issue's
/// `fields.status.name`, its `fields.assignee.displayName`): shown, filtered and ordered as
/// the item's own members would be.
@Suite("Things in an envelope")
struct EnvelopeThingsTests {
    @Test("a Jira issue's status, priority, assignee and type as columns by their names, in the fields' order")
    func jiraColumns() throws {
        let reading = ItemShapeDetector.reading(
            of: try JSONValue(parsing: JiraSearch.text(statuses: ["To Do", "In Progress", "Done", "To Do"])),
            overrides: .init())
        #expect(reading.profile.itemsPath == (try JSONPointer("/issues")))
        let columns = reading.profile.columns
        let shown = columns.filter { $0.pointer.tokens.first == "fields" }
        #expect(
            shown.map(\.pointer.description) == [
                "/fields/summary", "/fields/status/name", "/fields/priority/name", "/fields/assignee/displayName",
                "/fields/created", "/fields/issuetype/name",
            ])
        #expect(shown.map(\.label) == ["Summary", "Status", "Priority", "Assignee", "Created", "Issuetype"])
        let status = try #require(columns.first { $0.pointer.description == "/fields/status/name" })
        #expect(status.format == .status(ItemColumn.StatusTones()))
        let created = try #require(columns.first { $0.pointer.description == "/fields/created" })
        #expect(created.format == .relative, "a time with its offset as +0000 is a time")
        #expect(!columns.contains { $0.name == "expand" }, "an empty text in every item says nothing")
        #expect(reading.profile.fields[.section] == (try JSONPointer("/fields/status/name")))
        #expect(reading.notes.contains { $0.contains("filter: /fields/status/name, 3 values") })
    }

    @Test("a thing that is a text in some item, or names itself in too few, is no named thing")
    func notNamedThings() throws {
        let mixed = #"""
            [{"fields": {"summary": "a", "owner": {"name": "Ann"}, "team": {"name": "core"}}},
             {"fields": {"summary": "b", "owner": "bob", "team": {"id": 7}}},
             {"fields": {"summary": "c", "owner": {"name": "Cy"}, "team": {"id": 8}}}]
            """#
        let columns = ItemShapeDetector.reading(of: try JSONValue(parsing: mixed), overrides: .init()).profile.columns
        #expect(columns.contains { $0.pointer.description == "/fields/owner" }, "a text in one item: its own column")
        #expect(!columns.contains { $0.pointer.tokens.count == 3 }, "\(columns.map(\.pointer.description))")
    }
}
