import FeedCore
import Testing

/// A feed that describes one thing (a service's health, a position, the weather now): its
/// plain values and its small objects' values are the items, one named value each.
@Suite struct NamedValuesTests {
    private func reading(_ text: String, _ overrides: ItemProfile.Overrides = .init()) throws -> ItemReading {
        ItemShapeDetector.reading(of: try JSONValue(parsing: text), overrides: overrides)
    }

    private func keys(_ reading: ItemReading, _ text: String) throws -> [String] {
        ItemExtractor(profile: reading.profile).items(in: try JSONValue(parsing: text)).map(\.key)
    }

    @Test("a health answer with a small object and a list: each value an item, a part's named by both names")
    // An object with an object in it is no part.
    func health() throws {
        let text = #"""
            {"status": "ok", "uptime_seconds": 12345, "version": "1.4.2",
             "memory": {"rss_bytes": 52428800, "heap_bytes": 31457280}, "load": [0.42, 0.35, 0.3],
             "build": {"commit": "4f5a9c0", "labels": {"team": "core"}}}
            """#
        let health = try reading(text)
        #expect(health.origin == .found, "\(health.notes)")
        #expect(health.profile.itemsPath == .root)
        #expect(health.profile.itemsForm == .values(nameMember: "name", valueMember: "value"))
        #expect(health.notes.first?.contains("named values of the document, its small objects' too") == true)
        #expect(
            try keys(health, text) == [
                "status", "uptime_seconds", "version", "memory.rss_bytes", "memory.heap_bytes", "load",
            ])
    }

    @Test("an empty array beside them is where items will come: the note says how to show the values now")
    func emptyArrayFirst() throws {
        let waiting = try reading(#"{"status": "ok", "warnings": [], "memory": {"rss_bytes": 5, "heap_bytes": 3}}"#)
        #expect(waiting.origin == .undecided)
        #expect(
            waiting.notes.contains {
                $0.contains("/warnings is an empty array")
                    && $0.contains("the document holds 3 named values: --items-path '' shows them now")
            }, "\(waiting.notes)")
    }

    @Test("a position: two values of its own and two of its part")
    func position() throws {
        let text = #"""
            {"message": "success", "timestamp": 1796080000,
             "iss_position": {"latitude": "-12.3456", "longitude": "101.2345"}}
            """#
        let position = try reading(text)
        #expect(position.origin == .found, "\(position.notes)")
        #expect(
            try keys(position, text) == ["message", "timestamp", "iss_position.latitude", "iss_position.longitude"])
    }

    @Test("a part with values enough to be items is not chosen over the thing with more of its own")
    func partAgainstTheThing() throws {
        let text = #"""
            {"status": "UP", "uptime": 9, "version": "2", "node": "a1",
             "memory": {"total": 8, "free": 3, "used": 5}}
            """#
        let host = try reading(text)
        #expect(host.profile.itemsPath == .root, "\(host.notes)")
        #expect(try keys(host, text).suffix(3) == ["memory.total", "memory.free", "memory.used"])
    }

    @Test("a summary of figures beside an object of objects: the figures, not the three values deep inside")
    func summaryBesideDeeperValues() throws {
        let text = #"""
            {"domains_being_blocked": 121860, "dns_queries_today": 23511, "ads_blocked_today": 2830,
             "ads_percentage_today": 12.03, "status": "enabled",
             "gravity_last_updated": {"file_exists": true, "absolute": 1796000000,
                                      "relative": {"days": 0, "hours": 22, "minutes": 13}}}
            """#
        let summary = try reading(text)
        #expect(summary.profile.itemsPath == .root, "\(summary.notes)")
        #expect(try keys(summary, text).first == "domains_being_blocked")
        #expect(try keys(summary, text).count == 5, "an object with an object inside is no part")
    }

    @Test("rates stay the items: as many as the values beside them, or too many to be a part")
    func ratesStay() throws {
        let few = try reading(#"{"base": "EUR", "date": "2026-11-30", "rates": {"AUD": 1.6, "CHF": 0.9}}"#)
        #expect(few.profile.itemsPath == .root, "two rates and two values beside them: one thing, \(few.notes)")
        let three = try reading(
            #"{"amount": 1.0, "base": "EUR", "date": "2026-11-30", "rates": {"AUD": 1.6, "CHF": 0.9, "USD": 1.05}}"#)
        #expect(three.profile.itemsPath == (try JSONPointer("/rates")), "\(three.notes)")
        let codes = ["AUD", "BRL", "CAD", "CHF", "CNY", "GBP", "JPY", "USD", "ZAR"]
        let rates = codes.map { #""\#($0)": 1.5"# }.joined(separator: ", ")
        let many = try reading(
            #"{"success": true, "timestamp": 1796080000, "base": "EUR", "date": "2026-11-30", "rates": {\#(rates)}}"#)
        #expect(many.profile.itemsPath == (try JSONPointer("/rates")), "\(many.notes)")
    }

    @Test("a thing that says its state: its own values and its parts', not a larger object inside it")
    func statedThing() throws {
        let text = #"""
            {"job": {"averagePrintTime": 8000.5, "estimatedPrintTime": 8811.2, "lastPrintTime": null, "user": "alice",
                     "filament": {"tool0": {"length": 810.9, "volume": 5.36}},
                     "file": {"date": 1796000000, "display": "w.gcode", "name": "w.gcode", "origin": "local",
                              "path": "w.gcode", "size": 1468987}},
             "progress": {"completion": 22.1, "filepos": 337942, "printTime": 276, "printTimeLeft": 912,
                          "printTimeLeftOrigin": "estimate"},
             "state": "Printing"}
            """#
        let printer = try reading(text)
        #expect(printer.profile.itemsPath == .root, "\(printer.notes)")
        let keys = try keys(printer, text)
        #expect(keys.contains("state") && keys.contains("progress.completion"), "\(keys)")
        #expect(!keys.contains { $0.hasPrefix("job") }, "\(keys)")
        // Without a state of its own nothing says which object is the thing: the largest
        // object of values is the items.
        let stateless = try reading(
            text.replacingOccurrences(of: #""state": "Printing""#, with: #""mode": "Printing""#))
        #expect(stateless.profile.itemsPath == (try JSONPointer("/job/file")), "\(stateless.notes)")
        // A status beside currencies: the rates stay the items.
        let rates = try reading(#"{"status": "ok", "rates": {"AUD": 1.6, "CHF": 0.9, "USD": 1.05}, "base": "EUR"}"#)
        #expect(rates.profile.itemsPath == (try JSONPointer("/rates")), "\(rates.notes)")
    }

    @Test("a repository: its figures and names, not its API addresses nor its node id, a part's neither")
    func repository() throws {
        let text = #"""
            {"id": 1296269, "node_id": "MDEwOlJlcG9zaXRvcnkxMjk2MjY5", "full_name": "octo/hello",
             "keys_url": "https://api.github.com/repos/octo/hello/keys{/key_id}",
             "url": "https://api.github.com/repos/octo/hello", "html_url": "https://github.com/octo/hello",
             "stargazers_count": 80,
             "license": {"key": "mit", "url": "https://api.github.com/licenses/mit", "node_id": "MDc6TGljZW5zZTEz"}}
            """#
        let repository = try reading(text)
        #expect(repository.profile.itemsPath == .root, "\(repository.notes)")
        #expect(try keys(repository, text) == ["id", "full_name", "html_url", "stargazers_count", "license.key"])
    }

    @Test("a list of one item, an error, two values: no named values")
    func notOneThing() throws {
        let list = try reading(#"{"count": 1, "next": null, "previous": null, "results": [{"id": 7, "name": "a"}]}"#)
        #expect(list.profile.itemsPath == (try JSONPointer("/results")), "\(list.notes)")
        let paged = try reading(#"{"data": [{"id": 1}], "meta": {"page": 1, "per_page": 20, "total": 1}}"#)
        #expect(paged.profile.itemsPath == (try JSONPointer("/data")), "\(paged.notes)")
        for error in [
            #"{"error": {"code": 401, "message": "Unauthorized"}, "path": "/x", "time": 1796080000}"#,
            #"{"status": 503, "message": "down", "detail": {"retry": 30, "region": "eu"}}"#,
        ] {
            #expect(try reading(error).origin == .undecided, "\(error)")
        }
        #expect(try reading(#"{"ok": true, "detail": {"count": 2}}"#).origin == .undecided)
    }

    @Test("a lone object in an array beside one thing's values: the note names the whole document")
    func weatherNote() throws {
        let weather = try reading(
            #"""
            {"weather": [{"id": 803, "main": "Clouds"}], "main": {"temp": 4.2, "humidity": 81, "pressure": 1012},
             "wind": {"speed": 4.1, "deg": 240}, "name": "London", "dt": 1796080000}
            """#)
        #expect(weather.profile.itemsPath == (try JSONPointer("/weather")))
        #expect(weather.notes.contains { $0.contains("the document holds 7 named values: --items-path '' shows them") })
    }

    @Test("a part's value is formatted by its own name")
    func formatsByOwnName() {
        #expect(ItemShapeDetector.shownFormat(ofValueNamed: "sys.sunrise", value: .int(1_796_025_000)) == .relative)
        #expect(ItemShapeDetector.shownFormat(ofValueNamed: "memory.rss_bytes", value: .int(52_428_800)) == .bytes)
        #expect(ItemShapeDetector.shownFormat(ofValueNamed: "sys.id", value: .int(2_075_535)) == .text)
        guard case .status = ItemShapeDetector.shownFormat(ofValueNamed: "db.status", value: .string("UP")) else {
            Issue.record("db.status is no status")
            return
        }
    }
}
