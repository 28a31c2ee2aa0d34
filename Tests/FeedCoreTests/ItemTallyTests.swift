import FeedCore
import Testing

/// A value read across the objects of an array an item holds: a pod's containers ready and
/// their restarts, as `kubectl get pods` shows them.
@Suite("Items: tallies across an array")
struct ItemTallyTests {
    @Test("how many say yes, of how many; the sum of their numbers; nothing to tally")
    func tallies() throws {
        let containers = try JSONValue(
            parsing:
                #"[{"ready": true, "restartCount": 2}, {"ready": "True", "restartCount": "3"}, {"ready": false}, 7]"#)
        let ready = ItemTally(member: "ready", kind: .count).of(containers)
        #expect(ready?.value == 2 && ready?.of == 3)
        let restarts = ItemTally(member: "restartCount", kind: .sum).of(containers)
        #expect(restarts?.value == 5)
        #expect(ItemTally(member: "restartCount", kind: .sum).of(try JSONValue(parsing: #"[{"ready": true}]"#)) == nil)
        #expect(ItemTally(member: "ready", kind: .count).of(.array([])) == nil, "no container yet")
        #expect(ItemTally(member: "ready", kind: .count).of(.string("x")) == nil)
    }

    @Test("--column takes count(MEMBER) and sum(MEMBER)")
    func formatNames() throws {
        let column = try ItemColumn(parsing: "Ready=/status/containerStatuses:count(ready)")
        #expect(column.format == .tally(ItemTally(member: "ready", kind: .count)))
        #expect(column.pointer == (try JSONPointer("/status/containerStatuses")))
        #expect(ItemColumn.Format(name: "sum(restartCount)") == .tally(ItemTally(member: "restartCount", kind: .sum)))
        #expect(ItemColumn.Format.tally(ItemTally(member: "ready", kind: .count)).name == "count(ready)")
        for bad in ["count()", "avg(x)", "count(a(b))", "count(ready"] {
            #expect(ItemColumn.Format(name: bad) == nil, "\(bad)")
        }
    }

    @Test("a pod list: its containers ready and their restarts are columns; arrays with neither are not tallied")
    func podsFound() throws {
        func pod(_ name: String, ready: [Bool], restarts: [Int]) -> String {
            let statuses = zip(ready, restarts).map { #"{"name": "c", "ready": \#($0), "restartCount": \#($1)}"# }
            return
                #"{"metadata": {"name": "\#(name)", "namespace": "default"}, "spec": {"containers": [{"name": "c"}]},"#
                + #" "status": {"phase": "Running", "conditions": [{"type": "Ready", "status": "True"}],"#
                + #" "containerStatuses": [\#(statuses.joined(separator: ","))]}}"#
        }
        let document = try JSONValue(
            parsing: #"{"kind": "PodList", "items": ["#
                + [pod("web-1", ready: [true, true], restarts: [0, 1]), pod("api-1", ready: [false], restarts: [4])]
                .joined(separator: ",") + "]}")
        let columns = ItemShapeDetector.reading(of: document, overrides: .init()).profile.columns
        let tallied = columns.filter { if case .tally = $0.format { true } else { false } }
        #expect(tallied.map(\.label) == ["Ready", "Restarts"], "\(columns.map(\.label))")
        #expect(tallied.allSatisfy { $0.pointer.description == "/status/containerStatuses" })
        #expect(Set(columns.map(\.name)).count == columns.count, "each column its own URL name")
    }
}
