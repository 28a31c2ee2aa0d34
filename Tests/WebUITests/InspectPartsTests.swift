import FeedCore
import Foundation
import TestSupport
import Testing

@testable import WebUI

/// The parts of `/inspect` that need no server: the JSON tree (hostile names and strings
/// escaped, scalars as their JSON text, the node limit), the fold of upstream exchanges,
/// and the waterfall's order.
@Suite("Inspect parts", .onThreadsOfItsOwn)
struct InspectPartsTests {
    @Test("the tree escapes every name and string, and gives each scalar's JSON text")
    func treeEscapes() {
        let hostile = "<script>alert('x')</script>&\""
        let html = JSONTreeHTML.render(
            .object([hostile: .string(hostile), "n": .double(1.5), "list": .array([.null, .bool(true)])]))
        #expect(!html.contains("<script>"))
        #expect(html.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;&quot;"))
        #expect(html.contains("<span class=\"j-val\">1.5</span>"))
        #expect(html.contains("data-path=\"/list\""))
        #expect(html.contains("data-key=\"1\" ") || html.contains("data-type=\"boolean\" data-key=\"1\""))
        #expect(!html.contains("data-truncated"))
    }

    @Test("past the node limit the tree says how many it left out")
    func treeLimit() {
        let big = JSONValue.array((0..<(JSONTreeHTML.maxNodes + 10)).map { .int(Int64($0)) })
        let html = JSONTreeHTML.render(big)
        #expect(html.contains("data-truncated=\"true\""))
        #expect(html.contains("more (the whole document is at /api/state)"))
    }

    @Test("upstream exchanges: connects, answers, bytes, failures and polls, newest last, at most 50")
    func exchanges() {
        let exchanges = UpstreamExchanges()
        let start = Date(timeIntervalSince1970: 1_000_000)
        exchanges.record(.connecting, now: start)
        exchanges.record(.answered(status: 200, requestedAt: start, at: start + 0.1), now: start + 0.1)
        exchanges.record(.received(bytes: 100), now: start + 0.2)
        exchanges.record(.received(bytes: 50), now: start + 0.3)
        exchanges.record(.backingOff(until: start + 2, error: "upstream closed", at: start + 1), now: start + 1)
        exchanges.record(.reconnecting(reason: "upstream closed"), now: start + 2)
        exchanges.record(.answered(status: 503, requestedAt: start + 2, at: start + 2.1), now: start + 2.1)
        exchanges.record(.backingOff(until: start + 4, error: "upstream answered HTTP 503", at: start + 2.1))
        let (_, list) = exchanges.exchanges()
        #expect(list.count == 2)
        #expect(list[0].kind == .connect && list[0].status == 200 && list[0].bytes == 150)
        #expect(list[0].error == "upstream closed" && list[0].duration(now: start + 9) == 1)
        #expect(list[1].kind == .reconnect && list[1].status == 503 && list[1].error == "upstream answered HTTP 503")

        let polls = UpstreamExchanges()
        polls.record(.connecting, now: start)
        for n in 0..<60 {
            let at = start + Double(n)
            polls.record(.polled(status: 200, bytes: UInt64(n), requestedAt: at, at: at + 0.01), now: at + 0.01)
        }
        let (_, polled) = polls.exchanges()
        #expect(polled.count == UpstreamExchanges.capacity)
        #expect(polled.last?.bytes == 59 && polled.last?.kind == .poll && polled.last?.endedAt != nil)
    }

    @Test("the waterfall draws the stages known, in order, scaled to the last")
    func waterfall() {
        let svg = InspectView.waterfall([1000, nil, 4000, 8000])
        #expect(svg.components(separatedBy: "<rect").count - 1 == 3)
        #expect(svg.contains("class=\"wf-3\" x=\"80.0\" y=\"0\" width=\"80.0\""))
    }
}
