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
        #expect(shown.map(\.label) == ["Summary", "Status", "Priority", "Assignee", "Created", "Issue type"])
        let status = try #require(columns.first { $0.pointer.description == "/fields/status/name" })
        #expect(status.format == .status(ItemColumn.StatusTones()))
        let created = try #require(columns.first { $0.pointer.description == "/fields/created" })
        #expect(created.format == .relative, "a time with its offset as +0000 is a time")
        #expect(!columns.contains { $0.name == "expand" }, "an empty text in every item says nothing")
        #expect(reading.profile.fields[.section] == (try JSONPointer("/fields/status/name")))
        #expect(reading.notes.contains { $0.contains("filter: /fields/status/name, 3 values") })
    }

    @Test("a Jira issue is named by its summary, led by its key; its numeric id is last")
    func jiraKeyFirst() throws {
        let reading = ItemShapeDetector.reading(
            of: try JSONValue(parsing: JiraSearch.text(statuses: ["To Do", "In Progress", "Done", "To Do"])),
            overrides: .init())
        #expect(reading.profile.keyPath == (try JSONPointer("/id")), "the id still keys the issue")
        #expect(reading.profile.fields[.title] == (try JSONPointer("/fields/summary")))
        let shown = reading.profile.columns.map(\.pointer.description)
        #expect(shown.first == "/key", "\(shown)")
        #expect(shown.last == "/id", "\(shown)")
        // Jira's names run together in lower case are headed as words.
        for (name, heading) in [
            ("issuetype", "Issue type"), ("duedate", "Due date"), ("resolutiondate", "Resolution date"),
            ("timespent", "Time spent"), ("hostname", "Hostname"),
        ] {
            #expect(ItemShapeDetector.label(for: name) == heading, "\(name)")
        }
    }

    @Test("a number for programs beside one people use goes last; alone, or beside a repeated one, it stays")
    func numbersForPrograms() throws {
        func shown(_ items: [String]) throws -> [String] {
            ItemShapeDetector.reading(
                of: try JSONValue(parsing: "[\(items.joined(separator: ","))]"), overrides: .init()
            )
            .profile.columns.map(\.pointer.description)
        }
        let sentry = try shown(
            (0..<4).map {
                #"{"id": "\#(4000 + $0)", "shortId": "BACKEND-\#(10 + $0)", "title": "Error \#($0)", "count": "\#($0)"}"#
            })
        #expect(sentry.last == "/id" && sentry.first == "/shortId", "\(sentry)")
        let github = try shown(
            (0..<4).map {
                #"{"id": \#(1_296_269 + $0), "number": \#(42 + $0), "title": "Issue \#($0)", "state": "open"}"#
            })
        #expect(github.last == "/id", "\(github)")
        let alone = try shown((0..<4).map { #"{"id": \#(7 + $0), "name": "host-\#($0)", "load": \#($0)}"# })
        #expect(alone.first == "/id", "\(alone)")
        let repeated = try shown((0..<4).map { #"{"id": \#(7 + $0), "number": 1, "name": "host-\#($0)"}"# })
        #expect(repeated.first == "/id", "\(repeated)")
        let words = try shown((0..<4).map { #"{"id": "a\#($0)", "key": "K-\#($0)", "name": "n\#($0)"}"# })
        #expect(words.first == "/id", "an id that is not a number stays: \(words)")
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

    @Test("Azure DevOps' work items: keys in a namespace headed, formatted and filtered by their last part")
    func azureWorkItems() throws {
        let items = ["New", "Active", "Resolved", "Active", "Closed"].enumerated().map { index, state in
            let assigned = index.isMultiple(of: 2) ? "null" : #"{"displayName": "Ada", "uniqueName": "ada@x"}"#
            return #"""
                {"id": \#(100 + index), "rev": 3, "url": "https://dev.azure.com/org/_apis/wit/workItems/\#(100 + index)",
                 "fields": {"System.Title": "Checkout fails \#(index)", "System.State": "\#(state)",
                            "System.AssignedTo": \#(assigned), "System.CreatedDate": "2026-11-2\#(index)T10:00:00.123Z",
                            "Microsoft.VSTS.Common.Priority": \#(1 + index % 3)}}
                """#
        }
        let reading = ItemShapeDetector.reading(
            of: try JSONValue(parsing: #"{"count": 5, "value": [\#(items.joined(separator: ","))]}"#),
            overrides: .init())
        let columns = reading.profile.columns
        let labels = Dictionary(uniqueKeysWithValues: columns.map { ($0.pointer.description, $0.label) })
        #expect(labels["/fields/System.State"] == "State", "\(labels)")
        #expect(labels["/fields/System.AssignedTo/displayName"] == "Assigned to", "\(labels)")
        #expect(labels["/fields/System.CreatedDate"] == "Created date", "\(labels)")
        let state = try #require(columns.first { $0.pointer.description == "/fields/System.State" })
        #expect(state.format == .status(ItemColumn.StatusTones()))
        #expect(reading.profile.fields[.section] == (try JSONPointer("/fields/System.State")), "\(reading.notes)")
        #expect(labels["/url"] == nil, "an address through Azure's _apis is for programs: \(labels)")
        // A part's name with one dot is no namespace.
        #expect(ItemShapeDetector.label(for: "memory.rss_bytes").hasPrefix("Memory"))
        #expect(ItemShapeDetector.label(for: "System.State") == "State")
        #expect(ItemShapeDetector.shownFormat(named: "System.State", samples: [.string("Active")]) == state.format)
    }

    @Test("a Linear issue: an assignee that is someone or null shows by name; its state filters by its name")
    func linearIssues() throws {
        let nodes = ["Todo", "In Progress", "Done", "Todo", "In Progress", "Done"].enumerated().map { index, state in
            #"""
            {"id": "i\#(index)", "identifier": "ENG-\#(10 + index)", "title": "Fix \#(index)", "state": {"name": "\#(state)"},
             "assignee": \#(index % 3 == 1 ? #"{"name": "Grace"}"# : "null"), "priority": \#(index % 4),
             "team": "\#(index < 3 ? "core" : "web")"}
            """#
        }
        let reading = ItemShapeDetector.reading(
            of: try JSONValue(parsing: #"{"data": {"issues": {"nodes": [\#(nodes.joined(separator: ","))]}}}"#),
            overrides: .init())
        let columns = reading.profile.columns
        let assignee = try #require(columns.first { $0.name == "assignee" }, "\(columns.map(\.name))")
        #expect(assignee.pointer == (try JSONPointer("/assignee/name")))
        #expect(assignee.label == "Assignee")
        // Its state, by the name of the thing, before its team of fewer values.
        #expect(reading.profile.fields[.section] == (try JSONPointer("/state/name")), "\(reading.notes)")
    }
}
