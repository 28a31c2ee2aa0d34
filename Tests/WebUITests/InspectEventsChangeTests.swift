import FeedCore
import Testing

@testable import WebUI

/// `/inspect`'s event log redrawn row by row (``InspectEventsChange``): new events on top,
/// newest first, events that left the log removed, events whose stages filled in swapped;
/// and each dialect's words for it.
@Suite("Inspect event rows", .onThreadsOfItsOwn)
struct InspectEventsChangeTests {
    static func event(_ seq: UInt64, lastWrite: UInt64? = nil) -> InspectedEvent {
        InspectedEvent(
            id: EventID(epoch: "ep", seq: seq), kind: .patch, operations: 1, bytes: 10,
            arrivedAt: WallTime(microseconds: 1_000_000 * Int64(seq)),
            stages: Stages(received: 1, parsed: 2, committed: 3, firstWrite: lastWrite, lastWrite: lastWrite),
            eventBytes: [])
    }

    @Test("new events newest first, gone ones and filled-in ones by id; whole when the table comes or is the user's")
    func between() {
        let old = (1...4).map { Self.event($0) }
        let new = [Self.event(2), Self.event(3, lastWrite: 9), Self.event(4), Self.event(5), Self.event(6)]
        let id = { EventID(epoch: "ep", seq: $0) }
        #expect(
            InspectEventsChange.between(old, new, ownTemplate: false)
                == .rows(.init(added: [id(6), id(5)], removed: [id(1)], updated: [id(3)])))
        #expect(InspectEventsChange.between(old, old, ownTemplate: false) == .rows(.init()))
        #expect(InspectEventsChange.between([], new, ownTemplate: false) == .whole)
        #expect(InspectEventsChange.between(old, [], ownTemplate: false) == .whole)
        #expect(InspectEventsChange.between(old, new, ownTemplate: true) == .whole)
    }

    @Test("a frame's log: row by row with the built-in templates, whole with a row or log template of the user's own")
    func ownTemplates() {
        func frame(_ events: [InspectedEvent], version: UInt64, replaced: [String]) -> InspectFrame {
            var frame = InspectFrame(
                snapshot: nil, eventsVersion: version, events: events, exchangesVersion: 0, exchanges: [],
                screens: ScreenList(pageStreams: [], morePageStreams: 0, groups: [], showings: []))
            frame.templates.replaced = replaced
            return frame
        }
        let before = (1...3).map { Self.event($0) }
        let after = (1...4).map { Self.event($0) }
        for (replaced, expected) in [
            ([], InspectEventsChange.rows(.init(added: [EventID(epoch: "ep", seq: 4)]))),
            (["inspectEvent"], .whole), (["story", "inspectEvents"], .whole),
        ] as [([String], InspectEventsChange)] {
            let parts = frame(after, version: 2, replaced: replaced).changes(
                since: frame(before, version: 1, replaced: replaced))
            #expect(parts.events == expected, "replacing \(replaced)")
        }
        #expect(
            frame(before, version: 1, replaced: []).changes(since: frame(before, version: 1, replaced: [])).isEmpty)
    }

    static let frame = PageFrame(
        view: "inspect", id: "ep-6",
        parts: [
            .inspect(
                [.init(id: "jt-1", html: "<li id=\"jt-1\">x</li>")],
                rows: PageFrame.Rows(
                    container: "inspect-events-rows",
                    prepend: [
                        .init(id: "ie-ep-6", html: "<tr id=\"ie-ep-6\"></tr>"),
                        .init(id: "ie-ep-5", html: "<tr id=\"ie-ep-5\"></tr>"),
                    ], remove: ["ie-ep-1"], replace: [.init(id: "ie-ep-3", html: "<tr id=\"ie-ep-3\"><td>9</td></tr>")])
            )
        ])

    @Test("feedweb's own: rows swapped by id among the fragments, put on top and removed in `rows`")
    func feedweb() throws {
        let events = try PageDialectTests.parsed(FeedwebDialect.events(Self.frame))
        #expect(events.map(\.type) == ["inspect"])
        let data = try JSONValue(parsing: Array(try #require(events.first).data.utf8))
        #expect(data["html"]?.objectValue?.keys.sorted() == ["ie-ep-3", "jt-1"])
        #expect(data["rows"]?["into"] == .string("inspect-events-rows"))
        #expect(
            data["rows"]?["prepend"]
                == .array([.string("<tr id=\"ie-ep-6\"></tr>"), .string("<tr id=\"ie-ep-5\"></tr>")]))
        #expect(data["rows"]?["remove"] == .array([.string("ie-ep-1")]))
    }

    @Test("htmx: rows in <template>s, deleted, put on top with afterbegin, swapped")
    func htmx() throws {
        let data = try #require(try PageDialectTests.parsed(HTMXDialect.events(Self.frame)).first?.data)
        #expect(
            data == """
                <li hx-swap-oob="true" id="jt-1">x</li>
                <template><tr id="ie-ep-1" hx-swap-oob="delete"></tr></template>
                <template><tbody hx-swap-oob="afterbegin:#inspect-events-rows"><tr id="ie-ep-6"></tr><tr id="ie-ep-5"></tr></tbody></template>
                <template><tr hx-swap-oob="true" id="ie-ep-3"><td>9</td></tr></template>
                """)
    }

    @Test("Datastar: removed, prepended to the body, swapped with the other elements")
    func datastar() {
        let patches = DatastarDialect.patches(Self.frame)
        #expect(
            patches == [
                .init(selector: "#ie-ep-1", mode: "remove", elements: ""),
                .init(
                    selector: "#inspect-events-rows", mode: "prepend",
                    elements: "<tr id=\"ie-ep-6\"></tr><tr id=\"ie-ep-5\"></tr>"),
                .init(selector: nil, mode: nil, elements: "<li id=\"jt-1\">x</li><tr id=\"ie-ep-3\"><td>9</td></tr>"),
            ])
    }
}
