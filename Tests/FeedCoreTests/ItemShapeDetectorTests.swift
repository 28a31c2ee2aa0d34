import FeedCore
import TestSupport
import Testing

/// How a feed started without `--profile` is read: the built-in shapes recognised, the
/// items, their key, title and filter found, the columns and their formats, and what an
/// undecided reading says about a document without items.
@Suite("Item shape detector")
struct ItemShapeDetectorTests {
    private func reading(_ text: String, _ overrides: ItemProfile.Overrides = .init()) throws -> ItemReading {
        ItemShapeDetector.reading(of: try JSONValue(parsing: text), overrides: overrides)
    }

    static let quotes = #"""
        {"quotes": [
          {"symbol": "ACME", "name": "Acme Corporation", "price": 182.52, "change_pct": -0.4, "volume": 1204300},
          {"symbol": "GLBX", "name": "Globex", "price": 41.07, "change_pct": 1.25, "volume": 8930112},
          {"symbol": "INIT", "name": "Initech", "price": 12.88, "change_pct": 0, "volume": 310554}
        ], "as_of": "2026-11-29T10:00:00Z"}
        """#

    static let pipelines = #"""
        {"pipelines": [
          {"id": 41, "repo": "web", "branch": "main", "status": "passed", "duration_s": 312, "commit": "a1b2c3d", "author": "ada", "url": "https://ci.example/41"},
          {"id": 42, "repo": "web", "branch": "fix", "status": "failed", "duration_s": 95, "commit": "b2c3d4e", "author": "grace", "url": "https://ci.example/42"},
          {"id": 43, "repo": "api", "branch": "main", "status": "running", "duration_s": 12, "commit": "c3d4e5f", "author": "ada", "url": "https://ci.example/43"},
          {"id": 44, "repo": "api", "branch": "main", "status": "passed", "duration_s": 280, "commit": "d4e5f6a", "author": "ken", "url": "https://ci.example/44"}
        ]}
        """#

    @Test("an object's largest array of objects is the items; a unique symbol is preferred to a unique name")
    func quotesAreFound() throws {
        let reading = try reading(Self.quotes)
        #expect(reading.origin == .found)
        #expect(reading.profile.layout == .table)
        #expect(reading.profile.itemsPath == (try JSONPointer("/quotes")))
        #expect(reading.profile.keyPath == (try JSONPointer("/symbol")))
        #expect(reading.profile.fields[.title] == (try JSONPointer("/name")))
        #expect(reading.profile.columns.map(\.name) == ["symbol", "name", "price", "change_pct", "volume"])
        #expect(reading.profile.columns.map(\.label) == ["Symbol", "Name", "Price", "Change %", "Volume"])
        #expect(reading.profile.columns.map(\.format) == [.automatic, .automatic, .number, .percent, .number])
        #expect(reading.notes.contains { $0.contains("/quotes") && $0.contains("largest array") })
        #expect(reading.notes.contains { $0.contains("key: /symbol") })
    }

    @Test("an id keys the items; a status with few values is the filter; formats come from names and values")
    func pipelinesAreFound() throws {
        let reading = try reading(Self.pipelines)
        let profile = reading.profile
        #expect(profile.keyPath == (try JSONPointer("/id")))
        #expect(profile.fields[.section] == (try JSONPointer("/status")))
        #expect(profile.fields[.url] == (try JSONPointer("/url")))
        let formats = Dictionary(uniqueKeysWithValues: profile.columns.map { ($0.name, $0.format) })
        #expect(formats["id"] == .text, "an id is not a quantity")
        #expect(formats["status"] == .status(ItemColumn.StatusTones()))
        #expect(formats["duration_s"] == .duration(.seconds))
        #expect(formats["url"] == .link)
        // The repository is shared by several builds: it names none of them, so the key does.
        #expect(profile.fields[.title] == (try JSONPointer("/id")))
    }

    @Test("a trade stream's one-letter members: headed as written where two read alike; milliseconds as moments")
    func oneLetterMembers() throws {
        // Binance's trade events: `e` the event's type and `E` its time, `m` and `M` flags.
        let trades = (0..<3).map { index in
            let time = 1_796_360_616_784 + index * 300
            return #"{"e": "trade", "E": \#(time), "s": "BTCUSDT", "t": \#(1017 + index), "p": "43164.60393628", "#
                + #""q": "0.00150000", "T": \#(time - 1), "m": \#(index == 1), "M": true}"#
        }
        let columns = try reading("[" + trades.joined(separator: ", ") + "]").profile.columns
        let labels = columns.map(\.label)
        // The pages show headings in capitals: told apart there too.
        #expect(Set(labels.map { $0.uppercased() }).count == labels.count, "no heading twice: \(labels)")
        let byName = Dictionary(uniqueKeysWithValues: columns.map { ($0.pointer.tokens.last ?? "", $0) })
        #expect(byName["e"]?.label == "e" && byName["E"]?.label == "E time", "\(labels)")
        #expect(byName["m"]?.label == "m" && byName["M"]?.label == "M (2)", "\(labels)")
        #expect(byName["E"]?.format == .relative && byName["T"]?.format == .relative, "moments by their values")
        #expect(byName["t"]?.format != .relative, "a trade id is no moment")
        // Binance's combined stream: each event in an envelope, `data`.
        let combined = try reading(
            "[" + trades.map { #"{"stream": "btcusdt@trade", "data": \#($0)}"# }.joined(separator: ", ") + "]")
        let headings = combined.profile.columns.map(\.label)
        #expect(Set(headings.map { $0.uppercased() }).count == headings.count, "no heading twice: \(headings)")
        // Amounts of a trillion and more, far apart, are no moments; nor is one item's.
        let caps = try reading(#"[{"n": "A", "mc": 1400000000000}, {"n": "B", "mc": 2900000000000}]"#).profile
        #expect(caps.columns.first { $0.pointer.tokens.last == "mc" }?.format == .number)
        let one = try reading(#"[{"n": "A", "E": 1796360616784}]"#).profile
        #expect(one.columns.first { $0.pointer.tokens.last == "E" }?.format == .number, "one value says too little")
    }

    @Test("a title named so titles its item though others share it; a group's name does not")
    func sharedTitles() throws {
        // ntfy's notifications: the same alert raised again and again.
        let titles = ["Disk full on db-2", "Backup done", "Disk full on db-2", "Backup done", "Deploy finished"]
        let alerts = titles.enumerated().map { index, title in
            #"{"id": "m\#(index)", "time": \#(1_796_360_000 + index), "event": "message", "title": "\#(title)", "#
                + #""message": "Host web-\#(index) at 05:41:\#(10 + index)", "priority": \#(index % 5 + 1)}"#
        }
        let notifications = try reading(
            "[" + (alerts + alerts.map { $0.replacingOccurrences(of: #""m"#, with: #""n"#) }).joined(separator: ", ")
                + "]")
        #expect(notifications.profile.fields[.title] == (try JSONPointer("/title")))
        #expect(notifications.profile.keyPath == (try JSONPointer("/id")))
        // Each message its own words, as ntfy's JSON stream sends them: the title still titles.
        let distinct = try reading("[" + alerts.joined(separator: ", ") + "]")
        #expect(distinct.profile.fields[.title] == (try JSONPointer("/title")))
        // With no title, the message does.
        let untitled = try reading(
            "[" + alerts.map { $0.replacingOccurrences(of: #""title""#, with: #""label_""#) }.joined(separator: ", ")
                + "]")
        #expect(untitled.profile.fields[.title] == (try JSONPointer("/message")))
        // Builds of one repository: the repository names none of them.
        let builds = try reading(
            #"[{"id": 1, "repo": "api", "status": "ok"}, {"id": 2, "repo": "api", "status": "failed"}, "#
                + #"{"id": 3, "repo": "web", "status": "ok"}, {"id": 4, "repo": "api", "status": "ok"}]"#)
        #expect(builds.profile.fields[.title] != (try JSONPointer("/repo")))
    }

    @Test("a document that is an array of objects is the items")
    func arrayAtTheRoot() throws {
        let reading = try reading(#"[{"uuid": "a-1", "v": 1}, {"uuid": "a-2", "v": 2}]"#)
        #expect(reading.profile.itemsPath == .root)
        #expect(reading.profile.keyPath == (try JSONPointer("/uuid")))
        #expect(reading.notes.first?.contains("the document, an array of 2 objects") == true)
        let items = ItemExtractor(profile: reading.profile).items(
            in: try JSONValue(parsing: #"[{"uuid": "a-1", "v": 1}, {"uuid": "a-2", "v": 2}]"#))
        #expect(items.map(\.key) == ["a-1", "a-2"])
        #expect(items.first?.raw["v"] == .int(1), "the item keeps its own JSON")
    }

    @Test("nested three levels down; of two arrays the one with more objects")
    func nestedAndTwoArrays() throws {
        let nested = try reading(#"{"data": {"page": {"rows": [{"id": 1}, {"id": 2}]}}}"#)
        #expect(nested.profile.itemsPath == (try JSONPointer("/data/page/rows")))
        let two = try reading(
            #"{"tags": [{"t": "a"}], "builds": [{"id": 1}, {"id": 2}, {"id": 3}], "counts": [1, 2, 3, 4]}"#)
        #expect(two.profile.itemsPath == (try JSONPointer("/builds")))
        // Equal sizes: the shallower array wins.
        let tie = try reading(#"{"deep": {"list": [{"a": 1}, {"a": 2}]}, "top": [{"b": 1}, {"b": 2}]}"#)
        #expect(tie.profile.itemsPath == (try JSONPointer("/top")))
    }

    @Test("the three built-in shapes are recognised and read with their profiles")
    func builtInShapes() throws {
        let nyt = try reading(ItemSamples.nyt)
        #expect(nyt.origin == .recognised)
        #expect(nyt.profile.name == "nyt-newswire")
        #expect(nyt.profile.layout == .news)
        #expect(nyt.profile.versionPath == (try JSONPointer("/num_results")))
        let books = try reading(ItemSamples.googleBooks)
        #expect(books.profile.name == "google-books")
        let wiki = try reading(ItemSamples.wikimedia)
        #expect(wiki.profile.name == "wikimedia-recentchange")
        // An empty newswire still says what it is.
        let empty = try reading(#"{"status": "OK", "num_results": 0, "results": []}"#)
        #expect(empty.profile.name == "nyt-newswire")
    }

    @Test("a paginated API's results that are not stories are a table, not the newswire")
    func resultsThatAreNotNews() throws {
        let reading = try reading(
            #"{"count": 2, "next": null, "results": [{"id": 7, "sku": "X-7", "price": 9.5}, {"id": 8, "sku": "X-8", "price": 3}]}"#
        )
        #expect(reading.origin == .found)
        #expect(reading.profile.itemsPath == (try JSONPointer("/results")))
    }

    @Test("no array at all, or only an empty one: undecided, saying what the document holds")
    func nothingToShow() throws {
        let none = try reading(#"{"status": "ok", "uptime": 12}"#)
        #expect(none.origin == .undecided)
        #expect(!none.isDecided)
        let text = none.notes.joined()
        #expect(text.contains("no array of objects"), "\(text)")
        #expect(text.contains("\"status\"") && text.contains("\"uptime\""), "names what is there: \(text)")
        let empty = try reading(#"{"quotes": []}"#)
        #expect(empty.origin == .undecided)
        #expect(empty.notes.joined().contains("/quotes is an empty array"), "\(empty.notes)")
        let scalars = try reading(#"[1, 2, 3]"#)
        #expect(scalars.origin == .undecided)
    }

    @Test("an object of named values is the items: exchange rates, a health answer's fields; an empty array first")
    func namedValues() throws {
        let rates = try reading(
            #"{"amount": 1.0, "base": "EUR", "date": "2026-11-30", "rates": {"AUD": 1.6521, "CHF": 0.9312, "USD": 1.0573}}"#
        )
        #expect(rates.origin == .found)
        #expect(rates.profile.itemsPath == (try JSONPointer("/rates")), "\(rates.notes)")
        #expect(rates.profile.itemsForm == .values(nameMember: "name", valueMember: "rates"))
        #expect(rates.profile.keyPath == (try JSONPointer("/name")))
        #expect(rates.profile.fields[.title] == (try JSONPointer("/name")))
        #expect(rates.profile.columns.map(\.label) == ["Name", "Rates"])
        #expect(rates.profile.columns.map(\.format) == [.automatic, .number])
        let items = ItemExtractor(profile: rates.profile).items(in: try JSONValue(parsing: Self.ratesDocument))
        #expect(items.map(\.key) == ["AUD", "CHF", "USD"])
        #expect(items.map(\.title) == ["AUD", "CHF", "USD"])
        #expect(items.last?.raw["rates"] == .double(1.0573))

        // The document itself, a health answer of three values or more: its members, words
        // as statuses; an object named `name` leaves `name` to the values and keys by `key`.
        let health = try reading(#"{"status": "ok", "uptime": 12, "version": "1.2"}"#)
        #expect(health.profile.itemsPath == .root)
        #expect(health.profile.itemsForm == .values(nameMember: "name", valueMember: "value"))
        #expect(health.notes.first?.contains("the document's members") == true, "\(health.notes)")
        let named = try reading(#"{"id": 3, "name": {"first": "Ada", "last": "Lovelace", "title": "Countess"}}"#)
        #expect(named.profile.itemsForm == .values(nameMember: "key", valueMember: "name"))
        #expect(named.profile.keyPath == (try JSONPointer("/key")))

        // Items to come in an empty array win over the counts beside it; so does an array of
        // objects, and two values are a record's fields, no list.
        let waiting = try reading(#"{"meta": {"page": 1, "per_page": 20, "total": 0}, "data": []}"#)
        #expect(waiting.origin == .undecided)
        let list = try reading(#"{"meta": {"page": 1, "per_page": 20, "total": 1}, "data": [{"id": 1}]}"#)
        #expect(list.profile.itemsPath == (try JSONPointer("/data")))
        #expect(try reading(#"{"ok": true, "count": 2}"#).origin == .undecided)
        // An error sent in place of the feed decides nothing: the next answer does.
        for error in [
            #"{"error": "rate limited", "code": 429, "retry_after": 30}"#,
            #"{"status": 503, "message": "Service unavailable", "request_id": "x1"}"#,
        ] {
            #expect(try reading(error).origin == .undecided, "\(error)")
        }

        // Given, an object of values is read so even with one member.
        var overrides = ItemProfile.Overrides()
        overrides.itemsPath = try JSONPointer("/counts")
        let given = try reading(#"{"counts": {"errors": 3}, "other": {"a": 1, "b": 2, "c": 3, "d": 4}}"#, overrides)
        #expect(given.profile.itemsForm == .values(nameMember: "name", valueMember: "counts"))
        #expect(given.notes.first?.contains("as given") == true, "\(given.notes)")
        // One thing's status, its named values among objects and arrays: given, they are the
        // items, a small object's values too; an array of objects is left out.
        overrides.itemsPath = .root
        let deviceDocument = #"{"wifi": {"rssi": -61}, "meters": [{"power": 41}], "uptime": 9, "ok": true}"#
        let device = try reading(deviceDocument, overrides)
        #expect(device.profile.itemsForm == .values(nameMember: "name", valueMember: "value"), "\(device.notes)")
        #expect(device.notes.contains { $0.contains("from 3 of its 4 members") && $0.contains("--items-path /meters") })
        let deviceItems = ItemExtractor(profile: device.profile).items(in: try JSONValue(parsing: deviceDocument))
        #expect(deviceItems.map(\.key) == ["wifi.rssi", "uptime", "ok"])
        #expect(device.profile.columns.last?.formatNamedBy == (try JSONPointer("/name")))
        // A lone object in an array beside named values: the note says where they are.
        let weather = try reading(
            #"{"weather": [{"id": 803, "main": "Clouds"}], "main": {"temp": 4.2, "humidity": 81, "pressure": 1012}}"#)
        #expect(weather.notes.contains { $0.contains("/main holds 3 named values: --items-path /main shows them") })
        // Mostly objects, a plain value beside them: the objects are the items.
        let coins = try reading(#"{"as_of": 1, "bitcoin": {"usd": 1}, "ether": {"usd": 2}}"#, overrides)
        #expect(coins.profile.itemsForm == .members(nameMember: "name"), "\(coins.notes)")
    }

    @Test("rows of values without names (OpenSky's states): a hint to name them; given, columns by position")
    func rowsWithoutNames() throws {
        let states = #"""
            {"time": 1796040000, "states": [
              ["4b1815", "SWR123  ", "Switzerland", 1796039990, 1796039995, 8.5, 47.4, 10000.0, false, 230.5],
              ["3c6444", "DLH9LF  ", "Germany", 1796039991, 1796039996, 9.1, 48.1, 11200.0, false, 240.1],
              ["a0f1bb", "UAL901  ", "United States", 1796039992, 1796039997, -73.8, 40.6, 0.0, true, 0.0]]}
            """#
        let found = try reading(states)
        #expect(found.origin == .undecided)
        let hint = found.notes.joined()
        #expect(hint.contains("/states holds rows of values without names"), "\(hint)")
        #expect(hint.contains("--items-path /states"), "\(hint)")

        var overrides = ItemProfile.Overrides()
        overrides.itemsPath = try JSONPointer("/states")
        let given = try reading(states, overrides)
        #expect(given.profile.itemsForm == .rows(names: (0..<10).map(String.init), header: false), "\(given.notes)")
        #expect(given.profile.keyPath == (try JSONPointer("/0")), "\(given.notes)")
        overrides.columns = [
            try ItemColumn(parsing: "Callsign=/1"), try ItemColumn(parsing: "Country=/2"),
            try ItemColumn(parsing: "Altitude=/7:number"),
        ]
        let named = try reading(states, overrides)
        let items = ItemExtractor(profile: named.profile).items(in: try JSONValue(parsing: states))
        #expect(named.profile.columns.map(\.label) == ["Callsign", "Country", "Altitude"])
        #expect(items.map(\.key) == ["4b1815", "3c6444", "a0f1bb"])
        #expect(items.last?.raw["7"] == .double(0), "\(items.last?.raw ?? .null)")
        #expect(items.last?.raw["8"] == .bool(true))
    }

    static let ratesDocument =
        #"{"amount": 1.0, "base": "EUR", "date": "2026-11-30", "rates": {"AUD": 1.6521, "CHF": 0.9312, "USD": 1.0573}}"#

    @Test("a GeoJSON feed (USGS): epoch updates are moments, constant columns go first, the title stays")
    func geoJSONFeatures() throws {
        func feature(_ index: Int) -> String {
            let time = 1_796_040_000_000 + index * 60_000
            return #"""
                {"type": "Feature", "properties": {"mag": \#(Double(index) / 2 + 1), "place": "\#(index) km SW of Volcano",
                 "time": \#(time), "updated": \#(time + 5000), "tz": null, "url": "https://earthquake.usgs.gov/e/\#(index)",
                 "felt": null, "alert": null, "status": "automatic", "tsunami": 0, "sig": \#(index * 40), "net": "hv",
                 "code": "7451\#(index)", "sources": ",hv,", "types": ",origin,", "nst": \#(40 + index), "dmin": 0.0\#(index),
                 "rms": 0.1\#(index), "gap": \#(100 + index), "magType": "md", "type": "earthquake",
                 "title": "M \#(index) - \#(index) km SW of Volcano"},
                 "geometry": {"type": "Point", "coordinates": [-155.3, 19.4, 2.1]}, "id": "hv7451\#(index)"}
                """#
        }
        let document =
            #"{"type": "FeatureCollection", "features": ["# + (0..<5).map(feature).joined(separator: ",") + "]}"
        let profile = try reading(document).profile
        #expect(profile.itemsPath == (try JSONPointer("/features")))
        let labels = profile.columns.map(\.label)
        #expect(profile.columns.first { $0.name == "updated" }?.format == .relative, "\(labels)")
        #expect(labels.contains("Title"), "the title is never dropped: \(labels)")
        for constant in ["Type", "Tsunami", "Net", "Sources", "Types", "Mag type"] {
            #expect(!labels.contains(constant), "\(constant) is the same in every item: \(labels)")
        }
        #expect(labels.contains("Status"), "a status the same for all still tells: \(labels)")
        #expect(labels.count == ItemShapeDetector.maxColumns)
    }

    @Test("a Jenkins job list: each ball's colour is a status (blue good, red bad, moving busy), `_class` left out")
    func jenkinsJobs() throws {
        let profile = try reading(
            #"""
            {"_class": "hudson.model.Hudson", "jobs": [
              {"_class": "hudson.model.FreeStyleProject", "name": "build-main", "url": "http://jenkins.local/job/build-main/", "color": "blue"},
              {"_class": "hudson.model.FreeStyleProject", "name": "deploy", "url": "http://jenkins.local/job/deploy/", "color": "red_anime"},
              {"_class": "hudson.model.FreeStyleProject", "name": "e2e", "url": "http://jenkins.local/job/e2e/", "color": "yellow"},
              {"_class": "hudson.model.FreeStyleProject", "name": "docs", "url": "http://jenkins.local/job/docs/", "color": "notbuilt"}
            ]}
            """#
        ).profile
        #expect(profile.columns.map(\.name) == ["name", "url", "color"])
        guard case .status(let tones) = profile.columns.last?.format else {
            Issue.record("color is no status: \(profile.columns)")
            return
        }
        #expect(tones.tone(of: "blue") == .good)
        #expect(tones.tone(of: "red") == .bad)
        #expect(tones.tone(of: "red_anime") == .busy)
        #expect(tones.tone(of: "notbuilt") == .neutral)
        #expect(tones.shown["blue"] == "success" && tones.shown["red_anime"] == "building", "as Jenkins says them")
        #expect(profile.columns.last?.label == "Status", "headed by what it shows, not by its colour")
        // A colour that is no ball is no status.
        let paint = try reading(#"{"cars": [{"id": 1, "color": "blue"}, {"id": 2, "color": "teal"}]}"#).profile
        #expect(paint.columns.last?.format == .automatic)
    }

    @Test(
        "a host list: a small object's vague members headed with its name, units the cells show left out, `up` a status"
    )
    func hostList() throws {
        func host(_ name: String, up: Bool, cpu: Int, used: Int) -> String {
            #"{"hostname": "\#(name)", "up": \#(up), "uptime_seconds": \#(cpu * 3600), "#
                + #""cpu": {"user": \#(cpu), "system": \#(cpu / 2), "idle": \#(100 - cpu * 3 / 2)}, "#
                + #""memory": {"total_bytes": 17179869184, "used_bytes": \#(used)}, "disk_free_bytes": \#(used * 3)}"#
        }
        let document =
            #"{"hosts": ["# + host("web-1", up: true, cpu: 30, used: 1_000_000_000) + ", "
            + host("db-1", up: false, cpu: 12, used: 8_000_000_000) + ", "
            + host("cache-1", up: true, cpu: 50, used: 4_000_000_000) + "]}"
        let profile = try reading(document).profile
        let labels = profile.columns.map(\.label)
        #expect(
            labels == [
                "Hostname", "Up", "Uptime", "CPU user", "CPU system", "CPU idle", "Memory total", "Memory used",
                "Disk free",
            ], "\(labels)")
        #expect(profile.columns.map(\.name).contains("user"), "the name still sorts: ?sort=user")
        guard case .status(let tones) = profile.columns[1].format else {
            Issue.record("up is no status: \(profile.columns[1])")
            return
        }
        #expect(tones.tone(of: "true") == .good && tones.tone(of: "false") == .bad)
        #expect(tones.shown == ["true": "yes", "false": "no"])
        #expect(profile.columns[2].format == .duration(.seconds) && profile.columns[6].format == .bytes)
    }

    @Test("Docker's containers: named by their first name, their ids and digests for programs, running well")
    func dockerContainers() throws {
        let document = ContainerList.document(states: ["running", "exited", "restarting", "running"])
        let profile = ItemShapeDetector.reading(of: document, overrides: .init()).profile
        #expect(profile.fields[.title] == (try JSONPointer("/Names/0")))
        #expect(profile.keyPath == (try JSONPointer("/Id")))
        #expect(ItemShapeDetector.isIDName("ImageID") && ItemShapeDetector.isIDName("objectID"))
        #expect(
            !ItemShapeDetector.isIDName("PID") && !ItemShapeDetector.isIDName("VALID")
                && !ItemShapeDetector.isIDName("Paid"))
        let labels = profile.columns.map(\.label)
        #expect(labels.contains("Project") && !labels.contains { $0.contains("docker") }, "\(labels)")
        let state = try #require(profile.columns.first { $0.name == "State" })
        guard case .status(let tones) = state.format else {
            Issue.record("State is \(state.format)")
            return
        }
        #expect(["running", "exited", "restarting", "dead"].map { tones.tone(of: $0) } == [.good, .bad, .busy, .bad])
        // A CI run's `state` stays busy while it runs.
        let runs = try reading(#"{"runs": [{"id": 1, "state": "running"}, {"id": 2, "state": "passed"}]}"#).profile
        guard case .status(let ci) = runs.columns.last?.format else {
            Issue.record("state is \(String(describing: runs.columns.last))")
            return
        }
        #expect(ci.tone(of: "running") == .busy)
    }

    @Test("Alertmanager's alerts: named by the alert's name, an active alert bad, a suppressed one not")
    func alertmanagerAlerts() throws {
        let alerts = try reading(
            #"""
            [{"labels": {"alertname": "HighLatency", "severity": "warning", "instance": "api-1:9100"},
              "annotations": {"summary": "HighLatency on api-1"}, "startsAt": "2026-11-30T13:00:00.000Z",
              "fingerprint": "000000000000feed", "status": {"state": "active", "silencedBy": [], "inhibitedBy": []}},
             {"labels": {"alertname": "DiskFull", "severity": "critical", "instance": "db-2:9100"},
              "annotations": {"summary": "DiskFull on db-2"}, "startsAt": "2026-11-30T14:00:00.000Z",
              "fingerprint": "000000000000feee", "status": {"state": "suppressed", "silencedBy": ["s1"], "inhibitedBy": []}}]
            """#)
        #expect(alerts.profile.fields[.title] == (try JSONPointer("/labels/alertname")), "\(alerts.notes)")
        let state = try #require(alerts.profile.columns.first { $0.pointer == (try? JSONPointer("/status/state")) })
        guard case .status(let tones) = state.format else {
            Issue.record("state is \(state.format)")
            return
        }
        #expect(["active", "suppressed", "unprocessed"].map { tones.tone(of: $0) } == [.bad, .neutral, .busy])
    }

    @Test("PagerDuty's incidents: a reference named by its summary beside an id, an incident's number not grouped")
    func pagerDutyIncidents() throws {
        func incident(_ index: Int, _ status: String, _ service: String) -> String {
            #"{"id": "PT4KHL\#(index)", "incident_number": \#(1234 + index), "title": "Incident \#(index)", "#
                + #""status": "\#(status)", "service": {"id": "PIJ90N\#(index)", "summary": "\#(service)", "#
                + #""type": "service_reference", "self": "https://api.pagerduty.com/services/PIJ90N\#(index)"}}"#
        }
        let incidents = try reading(
            #"{"incidents": ["# + incident(0, "triggered", "Mail") + ", " + incident(1, "resolved", "API") + "]}"
        ).profile
        let service = try #require(incidents.columns.first { $0.label == "Service" }, "\(incidents.columns)")
        #expect(service.pointer == (try JSONPointer("/service/summary")))
        let number = try #require(incidents.columns.first { $0.name == "incident_number" })
        #expect(number.format == .text, "1234, not 1,234")
        #expect(ItemShapeDetector.isCodeWord("run_number") && ItemShapeDetector.isCodeWord("year"))
        #expect(!ItemShapeDetector.isCodeWord("percentage") && !ItemShapeDetector.isCodeWord("num_comments"))
        // Without an id, a `summary` is a text of its own, not a name (Alertmanager's annotations).
        let alerts = try reading(
            #"{"alerts": [{"name": "a", "annotations": {"summary": "Disk full", "description": "on db-1"}},"#
                + #" {"name": "b", "annotations": {"summary": "Slow", "description": "on api-1"}}]}"#
        ).profile
        #expect(alerts.columns.map(\.label) == ["Name", "Summary", "Description"], "\(alerts.columns)")
    }

    /// The Things Network's stored uplinks: a device's readings two levels down.
    static let uplinks = #"""
        [{"end_device_ids": {"device_id": "sensor-01", "dev_eui": "70B3D57ED0001"}, "received_at": "2026-11-30T16:30:00Z",
          "uplink_message": {"f_port": 1, "decoded_payload": {"temperature": 21.4, "humidity": 55, "battery": 3.6},
                             "rx_metadata": [{"rssi": -80}]}},
         {"end_device_ids": {"device_id": "sensor-02", "dev_eui": "70B3D57ED0002"}, "received_at": "2026-11-30T16:31:00Z",
          "uplink_message": {"f_port": 1, "decoded_payload": {"temperature": 19.9, "humidity": null, "battery": 3.1},
                             "rx_metadata": [{"rssi": -92}]}}]
        """#

    @Test("a LoRaWAN uplink: its decoded readings two levels down are columns; named by its device's id")
    func sensorUplinks() throws {
        let profile = try reading(Self.uplinks).profile
        let readings = profile.columns.filter { $0.pointer.tokens.count == 3 }
        #expect(readings.map(\.label) == ["Temperature", "Humidity", "Battery"], "\(profile.columns)")
        #expect(readings.first?.pointer == (try JSONPointer("/uplink_message/decoded_payload/temperature")))
        #expect(profile.fields[.title] == (try JSONPointer("/end_device_ids/device_id")), "a name people can read")
        #expect(profile.columns.first { $0.name == "f_port" }?.format == .text, "a port is a code, not a quantity")
        #expect(profile.columns.first { $0.name == "dev_eui" }?.holdsIDs == true, "an EUI is an id, no tile's fact")
        // An object of texts is no readings; nor is one of a single number, nor a hex id a name.
        let texts = try reading(
            #"[{"id": 1, "m": {"k": 1, "p": {"a": "x", "b": "y"}}, "device_id": "PT4KHL0"},"#
                + #" {"id": 2, "m": {"k": 2, "p": {"a": "z", "b": "w"}}, "device_id": "PT4KHL1"}]"#
        ).profile
        #expect(!texts.columns.contains { $0.pointer.tokens.count == 3 }, "\(texts.columns)")
        #expect(texts.keyPath == (try JSONPointer("/id")))
        #expect(texts.fields[.title] == (try JSONPointer("/id")), "an opaque id names nothing")
    }

    @Test("a series of readings is one column: a Prometheus range, Graphite's datapoints, a named sparkline; no point")
    func seriesOfReadings() throws {
        let range = try reading(
            #"""
            {"status": "success", "data": {"resultType": "matrix", "result": [
              {"metric": {"instance": "web-1:9100"}, "values": [[1796065200, "0.5"], [1796065215, "0.75"], [1796065230, "NaN"]]},
              {"metric": {"instance": "web-2:9100"}, "values": [[1796065200, "1.5"], [1796065215, "1.25"]]}]}}
            """#
        ).profile
        let values = try #require(range.columns.first { $0.name == "values" }, "\(range.columns)")
        #expect(values.format == .series && values.format.isNumeric)
        let graphite = try reading(
            #"[{"target": "web1.cpu", "datapoints": [[12.5, 1796065200], [null, 1796065260], [14, 1796065320]]},"#
                + #" {"target": "web2.cpu", "datapoints": [[3, 1796065200], [4.5, 1796065260]]}]"#
        ).profile
        #expect(graphite.columns.first { $0.name == "datapoints" }?.format == .series, "\(graphite.columns)")
        let markets = try reading(
            #"[{"id": "bitcoin", "current_price": 43210.5, "sparkline_in_7d": {"price": [43000, 43100.5, 43210.5]}},"#
                + #" {"id": "ethereum", "current_price": 2290.1, "sparkline_in_7d": {"price": [2280, 2300, 2290.1]}}]"#
        ).profile
        let line = try #require(markets.columns.first { $0.format == .series }, "\(markets.columns)")
        #expect(line.label == "Sparkline in 7d")
        #expect(line.pointer == (try JSONPointer("/sparkline_in_7d/price")))
        // CoinGecko's markets, 16 members: the line is kept past 12 columns; the id that is
        // the name in lower case is no column.
        func market(_ id: String, _ name: String, _ price: Double) -> String {
            #"{"id": "\#(id)", "symbol": "\#(id.prefix(3))", "name": "\#(name)", "current_price": \#(price), "#
                + #""market_cap": 1, "market_cap_rank": 1, "total_volume": 1, "high_24h": 1, "low_24h": 1, "#
                + #""price_change_24h": 1, "price_change_percentage_24h": 1, "circulating_supply": 1, "ath": 1, "#
                + #""ath_date": "2021-11-10T14:24:11Z", "last_updated": "2026-11-30T19:00:00Z", "#
                + #""sparkline_in_7d": {"price": [\#(price - 1), \#(price)]}}"#
        }
        let wide = try reading(
            "[" + market("bitcoin", "Bitcoin", 43210) + ", " + market("ethereum", "Ethereum", 2290) + ", "
                + market("solana", "Solana", 58.9) + "]"
        ).profile
        #expect(wide.columns.count == ItemShapeDetector.maxColumns)
        #expect(wide.columns.last?.format == .series && !wide.columns.contains { $0.name == "id" }, "\(wide.columns)")
        // A point's coordinates, a colour: numbers, but no series.
        let quakes = try reading(
            #"[{"id": "a", "coordinates": [-155.3, 19.4, 2.1], "rgb": [255, 0, 0]},"#
                + #" {"id": "b", "coordinates": [-154.3, 19.4, 2.5], "rgb": [0, 255, 0]}]"#
        ).profile
        #expect(!quakes.columns.contains { $0.format == .series }, "\(quakes.columns)")
        // What a series holds.
        let prometheus = try #require(
            ItemSeries(try JSONValue(parsing: #"[[1796065200, "0.5"], [1796065215, "NaN"]]"#)))
        #expect(prometheus.values == [0.5, nil] && prometheus.latest == 0.5)
        let datapoints = try #require(ItemSeries(try JSONValue(parsing: "[[1, 1796065200], [null, 1796065260]]")))
        #expect(datapoints.values == [1, nil] && datapoints.latest == 1)
        #expect(ItemSeries(try JSONValue(parsing: #"[[1, 2], [3, 4]]"#)) == nil, "no time in either place")
        #expect(ItemSeries(try JSONValue(parsing: "[null, null]")) == nil, "no reading")
        #expect(ItemSeries(.array((0..<2_000).map { .int($0) }))?.values.count == ItemSeries.maximumPoints)
        #expect(ItemColumn.Format(name: "series") == .series)
    }

    @Test("sizes written for people: Elasticsearch's, Docker's, Kubernetes' quantities; not a count or a name")
    func writtenSizes() throws {
        let sizes: [(String, Double)] = [
            ("225b", 225), ("830kb", 830 * 1024), ("194.9mb", (194.9 * 1024 * 1024).rounded()),
            ("1.2GiB", (1.2 * 1024 * 1024 * 1024).rounded()),
            ("3 GB", 3 * 1024 * 1024 * 1024), ("128Mi", 128 * 1024 * 1024), ("2Ti", 2 * 1024 * 1024 * 1024 * 1024),
        ]
        for (text, bytes) in sizes { #expect(ItemShapeDetector.writtenSize(text) == bytes, "\(text)") }
        for text in [
            "5M", "12", "kb", "1.2 gigabytes", "500m", "B32", "1.2.3mb", "4mi", String(repeating: "9", count: 40) + "b",
        ] {
            #expect(ItemShapeDetector.writtenSize(text) == nil, "\(text)")
        }
        let indices = try reading(
            #"[{"index": "logs", "store.size": "1.2gb", "docs.count": "12"}, {"index": "orders", "store.size": "830kb", "docs.count": "3"}]"#
        ).profile
        #expect(indices.columns.first { $0.name == "store.size" }?.format == .bytes, "\(indices.columns)")
    }

    @Test("a number beside the name of what it is the id of is left out; the name is headed as the thing")
    func idBesideItsName() throws {
        let tags = try reading(
            #"""
            {"results": [
              {"id": 47, "name": "latest", "last_updater": 1156886, "last_updater_username": "doijanky", "full_size": 31435263},
              {"id": 48, "name": "1.27-alpine", "last_updater": 1156887, "last_updater_username": "ana", "full_size": 9435263}
            ]}
            """#
        ).profile
        #expect(!tags.columns.contains { $0.pointer.description == "/last_updater" }, "\(tags.columns)")
        let named = try #require(tags.columns.first { $0.pointer.description == "/last_updater_username" })
        #expect(named.label == "Last updater")
        // A number that is no id of a name beside it stays (a text there is no name of it).
        let kept = try reading(
            #"[{"id": "a", "owner": "ops", "owner_name": 5}, {"id": "b", "owner": "web", "owner_name": 6}]"#
        ).profile
        #expect(kept.columns.contains { $0.pointer.description == "/owner" }, "\(kept.columns)")
    }

    @Test("CloudWatch's values beside their timestamps, newest first: one series in time order, no times column")
    func seriesBesideItsTimes() throws {
        let text = #"""
            {"MetricDataResults": [
              {"Id": "m1", "Label": "CPU web-1", "Timestamps": ["2026-11-30T21:10:00Z", "2026-11-30T21:05:00Z", "2026-11-30T21:00:00Z"],
               "Values": [23.5, 20, 12.5], "StatusCode": "Complete"},
              {"Id": "m2", "Label": "CPU web-2", "Timestamps": ["2026-11-30T21:10:00Z", "2026-11-30T21:05:00Z", "2026-11-30T21:00:00Z"],
               "Values": [29, 35, 40], "StatusCode": "PartialData"}
            ]}
            """#
        let profile = try reading(text).profile
        #expect(profile.columns.first { $0.name == "Values" }?.format == .series, "\(profile.columns)")
        #expect(!profile.columns.contains { $0.name == "Timestamps" }, "\(profile.columns)")
        let document = try JSONValue(parsing: text)
        let first = try #require(document["MetricDataResults"]?.arrayValue?.first)
        let series = try #require(ItemSeries(at: JSONPointer(tokens: ["Values"]), in: first))
        #expect(series.values == [12.5, 20, 23.5] && series.latest == 23.5, "oldest first")
        // Times oldest first, or not as many as the values: the series as it was sent.
        let ascending = try JSONValue(parsing: #"{"times": [1796065200, 1796065260], "values": [1, 2]}"#)
        #expect(ItemSeries(at: JSONPointer(tokens: ["values"]), in: ascending)?.latest == 2)
        let uneven = try JSONValue(parsing: #"{"times": [1796065260], "values": [1, 2]}"#)
        #expect(ItemSeries(at: JSONPointer(tokens: ["values"]), in: uneven)?.latest == 2)
        let descending = try JSONValue(parsing: #"{"times": [1796065260, 1796065200], "values": [1, 2]}"#)
        #expect(ItemSeries(at: JSONPointer(tokens: ["values"]), in: descending)?.latest == 1)
    }

    /// WordPress' REST API's posts (`/wp-json/wp/v2/posts`), trimmed.
    static let posts = #"""
        [{"id": 100, "date": "2026-11-30T10:00:00", "date_gmt": "2026-11-30T09:00:00",
          "guid": {"rendered": "https://blog.example.com/?p=100"}, "status": "publish",
          "title": {"rendered": "Caf&eacute; news &#8211; part 0"},
          "content": {"rendered": "<p>Body <strong>0</strong></p>", "protected": false}},
         {"id": 101, "date": "2026-11-30T11:00:00", "date_gmt": "2026-11-30T10:00:00",
          "guid": {"rendered": "https://blog.example.com/?p=101"}, "status": "publish",
          "title": {"rendered": "Second &amp; last"},
          "content": {"rendered": "<p>Body <em>1</em></p>", "protected": false}}]
        """#

    @Test("WordPress' posts: titled by their rendered title's text, HTML shown as text, the date in UTC")
    func wordpressPosts() throws {
        let reading = try reading(Self.posts)
        let profile = reading.profile
        #expect(profile.fields[.title] == (try JSONPointer("/title/rendered")), "\(reading.notes)")
        let byName = Dictionary(profile.columns.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        #expect(byName["content"]?.format == .html && byName["content"]?.label == "Content", "\(profile.columns)")
        #expect(byName["content"]?.pointer == (try JSONPointer("/content/rendered")))
        #expect(byName["guid"]?.format == .link)
        #expect(byName["date"] == nil && byName["date_gmt"]?.label == "Date", "the moment in UTC: \(profile.columns)")
        let items = ItemExtractor(profile: profile).items(in: try JSONValue(parsing: Self.posts))
        #expect(items.map(\.title) == ["Café news – part 0", "Second & last"])
    }

    /// Kubernetes' pods as `kubectl proxy` serves them (`/api/v1/pods`), trimmed.
    static func pods(_ phases: [String]) -> String {
        let pods = phases.enumerated().map { index, phase in
            #"{"metadata": {"name": "app\#(index)-7d9f8b6c5-x\#(index)q", "generateName": "app\#(index)-7d9f8b6c5-", "#
                + #""namespace": "default", "uid": "5f2c000\#(index)-1b2a-4c3d-9e8f-0a1b2c3d4e5f", "#
                + #""resourceVersion": "12345\#(index)", "creationTimestamp": "2026-11-30T10:15:00Z"}, "#
                + #""spec": {"nodeName": "node-\#(index)"}, "status": {"phase": "\#(phase)", "podIP": "10.244.0.\#(index)"}}"#
        }
        return #"{"kind": "PodList", "items": ["# + pods.joined(separator: ", ") + "]}"
    }

    @Test("Kubernetes' pods: no column that says the name again, none of the API's bookkeeping; a phase coloured")
    func kubernetesPods() throws {
        let profile = try reading(Self.pods(["Running", "Pending", "Failed"])).profile
        #expect(profile.fields[.title] == (try JSONPointer("/metadata/name")))
        let names = profile.columns.map(\.name)
        #expect(names.contains("namespace") && names.contains("nodeName") && names.contains("podIP"), "\(names)")
        #expect(!names.contains("generateName"), "the start of each pod's name: \(names)")
        #expect(!names.contains("resourceVersion"), "the API server's, not a person's: \(names)")
        let phase = try #require(profile.columns.first { $0.name == "phase" })
        guard case .status(let tones) = phase.format else {
            Issue.record("phase is \(phase.format)")
            return
        }
        #expect(["Running", "Pending", "Failed"].map { tones.tone(of: $0) } == [.good, .busy, .bad])
        // Past the columns a table shows, a UUID goes before a column that tells something.
        let wide = try reading(
            #"[{"uid": "5f2c0000-1b2a-4c3d-9e8f-0a1b2c3d4e5f", "name": "a", "a1": 1, "a2": 2, "a3": 3, "a4": 4, "#
                + #""a5": 5, "a6": 6, "a7": 7, "a8": 8, "a9": 9, "a10": 10, "a11": 11},"#
                + #" {"uid": "5f2c0001-1b2a-4c3d-9e8f-0a1b2c3d4e5f", "name": "b", "a1": 1, "a2": 2, "a3": 3, "a4": 4, "#
                + #""a5": 5, "a6": 6, "a7": 7, "a8": 8, "a9": 9, "a10": 10, "a11": 12}]"#
        ).profile
        #expect(wide.columns.count == ItemShapeDetector.maxColumns)
        #expect(wide.columns.contains { $0.name == "a11" } && !wide.columns.contains { $0.name == "uid" })
    }

    /// The format found for the member `name` of three items holding `values`.
    private func format(of name: String, _ values: [String]) throws -> ItemColumn.Format? {
        let items = values.enumerated().map { #"{"id": "i\#($0.offset)", "\#(name)": \#($0.element)}"# }
        let profile = try reading("[" + items.joined(separator: ", ") + "]").profile
        return profile.columns.first { $0.name == name }?.format
    }

    @Test("times sent as seconds since 1970 under any word that says when; one moment in two units is one column")
    func momentsByTheirWords() throws {
        let now = 1_796_065_291
        let times = ["\(now)", "\(now - 40)", "\(now - 80)"]
        for name in ["last_reported", "created_at_i", "time_position", "last_contact", "expires", "reset"] {
            #expect(try format(of: name, times) == .relative, "\(name)")
        }
        #expect(try format(of: "last_reported", ["12", "13", "14"]) == .number, "no moment")
        #expect(try format(of: "bytes_reported", times) == .number, "a count of bytes, not a moment")
        #expect(try format(of: "reset_count", times) == .number, "a count of resets")
        #expect(try format(of: "balance_due", times) == .number, "an amount of money")
        let hits = try reading(
            #"{"hits": [{"objectID": "41", "title": "Show HN: a", "created_at": "2026-11-30T10:00:00Z", "#
                + #""created_at_i": \#(now - 3600)}, {"objectID": "42", "title": "Ask HN: b", "#
                + #""created_at": "2026-11-30T11:00:00Z", "created_at_i": \#(now)}]}"#
        ).profile
        #expect(hits.columns.map(\.name) == ["objectID", "title", "created_at"], "\(hits.columns)")
        // Docker's events: the moment in seconds and again in nanoseconds, camelCase.
        let events = try reading(
            "["
                + (0..<3).map { n in
                    #"{"status": "start", "id": "c\#(n)", "from": "nginx", "time": \#(now - n), "#
                        + #""timeNano": \#(now - n)123456789}"#
                }.joined(separator: ", ") + "]"
        ).profile
        #expect(events.columns.contains { $0.name == "time" && $0.format == .relative }, "\(events.columns)")
        #expect(!events.columns.contains { $0.name == "timeNano" }, "\(events.columns)")
        // A name that begins like another's but not as a word is no twin: `startedat`, `started`.
        let builds = try reading(
            "["
                + (0..<3).map { n in
                    #"{"id": "b\#(n)", "started": "2026-11-30T10:0\#(n):00Z", "startedat": "2026-11-30T11:0\#(n):00Z"}"#
                }.joined(separator: ", ") + "]"
        ).profile
        #expect(builds.columns.map(\.name).contains("startedat"), "\(builds.columns)")
    }

    @Test("a 1 or a 0 named as a question is a yes or a no; as a state, coloured as a flag named so")
    func flagsSentAsDigits() throws {
        let stations = ["1", "0", "1"]
        #expect(try format(of: "is_renting", stations) == .flag)
        #expect(try format(of: "hasWifi", stations) == .flag)
        #expect(try format(of: "is_renting", ["2", "0", "1"]) == .number, "a count")
        #expect(try format(of: "island", stations) == .number, "no question")
        guard case .status(let tones) = try format(of: "is_online", stations) else {
            Issue.record("is_online is no status")
            return
        }
        #expect(tones.tone(of: "1") == .good && tones.tone(of: "0") == .bad)
        #expect(tones.shown == ["1": "yes", "0": "no"])
        #expect(ItemColumn.Format(name: "flag") == .flag && ItemColumn.Format.flag.name == "flag")
    }

    @Test("a match is titled by both sides: home and away objects, homeTeam and awayTeam, or texts; a title given wins")
    func matchesTitledByBothSides() throws {
        let games = try reading(
            #"{"events": [{"id": "g1", "home": {"team": "Lakers", "score": 7}, "away": {"team": "Celtics", "score": 5}},"#
                + #" {"id": "g2", "home": {"team": "Bulls", "score": 3}, "away": {"team": "Knicks", "score": 4}}]}"#)
        #expect(games.profile.fields[.title] == (try JSONPointer("/home/team")), "\(games.notes)")
        #expect(games.profile.titleOpponent == (try JSONPointer("/away/team")))
        #expect(
            games.profile.scores == .init(home: try JSONPointer("/home/score"), away: try JSONPointer("/away/score")))
        let document = try JSONValue(
            parsing: #"{"matches": [{"id": 1, "stage": "GROUP_STAGE", "homeTeam": {"id": 5, "name": "Arsenal FC"}, "#
                + #""awayTeam": {"id": 6, "name": "Chelsea FC"}, "score": {"fullTime": {"home": 2, "away": 1}}}, "#
                + #"{"id": 2, "stage": "GROUP_STAGE", "homeTeam": {"id": 7, "name": "Liverpool FC"}, "#
                + #""awayTeam": {"id": 8, "name": "Everton FC"}, "score": {"fullTime": {"home": null, "away": null}}}]}"#
        )
        let matches = ItemShapeDetector.reading(of: document, overrides: .init()).profile
        let titles = ItemExtractor(profile: matches).items(in: document).map(\.title)
        #expect(titles == ["Arsenal FC – Chelsea FC", "Liverpool FC – Everton FC"], "\(titles)")
        #expect(matches.scores?.away == (try JSONPointer("/score/fullTime/away")), "a match to come has none yet")
        let flat = try reading(
            #"[{"id": 1, "home_team": "Ajax", "away_team": "PSV"}, {"id": 2, "home_team": "AZ", "away_team": "Twente"}]"#
        )
        #expect(flat.profile.titleOpponent == (try JSONPointer("/away_team")))
        #expect(flat.profile.scores == nil, "no score sent")
        let scored = try reading(
            #"[{"id": 1, "home_team": "Ajax", "away_team": "PSV", "home_goals": 2, "away_goals": "1"},"#
                + #" {"id": 2, "home_team": "AZ", "away_team": "Twente", "home_goals": null, "away_goals": null}]"#)
        #expect(scored.profile.scores?.home == (try JSONPointer("/home_goals")), "\(scored.notes)")
        var overrides = ItemProfile.Overrides()
        overrides.fields = [.init(field: .title, pointer: try JSONPointer("/id"))]
        let given = ItemShapeDetector.reading(of: document, overrides: overrides).profile
        #expect(given.titleOpponent == nil)
        #expect(given.fields[.title] == (try JSONPointer("/id")))
        // One side only is no match.
        let lone = try reading(#"[{"id": 1, "home": {"name": "A"}}, {"id": 2, "home": {"name": "B"}}]"#)
        #expect(lone.profile.titleOpponent == nil)
    }

    @Test("members of two objects with the same names are headed by their objects' names, each of them")
    func siblingObjects() throws {
        func game(_ id: Int, _ home: String, _ away: String) -> String {
            #"{"id": "g\#(id)", "home": {"team": "\#(home)", "score": \#(id * 7)}, "#
                + #""away": {"team": "\#(away)", "score": \#(id * 5)}}"#
        }
        let profile = try reading(
            #"{"events": ["# + game(1, "Lakers", "Celtics") + ", " + game(2, "Bulls", "Knicks") + ", "
                + game(3, "Heat", "Spurs") + "]}"
        ).profile
        let labels = profile.columns.map(\.label)
        #expect(labels == ["ID", "Home team", "Home score", "Away team", "Away score"], "\(labels)")
        #expect(profile.columns.map(\.name) == ["id", "team", "score", "away.team", "away.score"])
    }

    @Test("a flag named as a state is a status: up, online, healthy well when true; cancelled, failed wrong")
    func flagsNamedAsAState() throws {
        for name in ["up", "is_online", "isHealthy", "ok", "available"] {
            let tones = ItemColumn.StatusTones(flagNamed: name)
            #expect(tones?.tone(of: "true") == .good && tones?.tone(of: "false") == .bad, "\(name)")
        }
        for name in ["cancelled", "failed", "isDown", "degraded"] {
            let tones = ItemColumn.StatusTones(flagNamed: name)
            #expect(tones?.tone(of: "true") == .bad && tones?.tone(of: "false") == .neutral, "\(name)")
        }
        #expect(ItemColumn.StatusTones(flagNamed: "under_maintenance")?.tone(of: "true") == .busy)
        for name in ["enabled", "open", "featured", "island", "isbn"] {
            #expect(ItemColumn.StatusTones(flagNamed: name) == nil, "\(name) says nothing good or bad")
        }
        for lower in ["/delay", "/p99_latency_ms", "/error_count", "/cpu/user", "/memory/used_bytes", "/queueDepth"] {
            #expect(ItemShapeDetector.isLowerBetter(try JSONPointer(lower)), "\(lower): a rise is bad news")
        }
        for higher in ["/price", "/disk_free_bytes", "/cpu/idle", "/success_rate", "/uptime_seconds", "/score"] {
            #expect(!ItemShapeDetector.isLowerBetter(try JSONPointer(higher)), "\(higher): a rise is no bad news")
        }
        #expect(ItemShapeDetector.label(for: "com.docker.compose.project") == "Project")
        #expect(ItemShapeDetector.label(for: "com.example.vendor") == "Vendor")
        #expect(ItemShapeDetector.label(for: "io.kubernetes.pod.name") == "Name")
        // Elasticsearch's `_cat` names are words.
        #expect(ItemShapeDetector.label(for: "pri.store.size") == "Pri store size")
        #expect(ItemShapeDetector.label(for: "docs.count") == "Docs count")
        #expect(ItemShapeDetector.label(for: "app.kubernetes.io/name") == "Name")
        #expect(ItemShapeDetector.label(for: "km/h") == "Km/h")
        #expect(ItemShapeDetector.shortDigest("sha256:" + String(repeating: "ab12", count: 16)) == "ab12ab12ab12")
        #expect(ItemShapeDetector.shortDigest(String(repeating: "0f", count: 32)) == "0f0f0f0f0f0f")
        #expect(ItemShapeDetector.shortDigest("a1b2c3d") == nil, "a short digest is read whole")
        #expect(ItemShapeDetector.shortDigest("123e4567-e89b-12d3-a456-426614174000") == nil, "a UUID too")
        #expect(ItemShapeDetector.shortDigest("web-frontend-production-eu-1") == nil)
        #expect(ItemShapeDetector.label(for: "disk_free_bytes", shownAs: .bytes) == "Disk free")
        #expect(ItemShapeDetector.label(for: "uptime_seconds", shownAs: .duration(.seconds)) == "Uptime")
        #expect(ItemShapeDetector.label(for: "bytes", shownAs: .bytes) == "Bytes")
        #expect(ItemShapeDetector.label(for: "total_bytes", shownAs: .text) == "Total bytes")
    }

    @Test("an object whose members are objects: each member is an item, named and keyed by its member name")
    func membersOfAnObjectAreItems() throws {
        // A price API's shape: the coins are members, not elements.
        let prices = try reading(
            #"{"bitcoin": {"usd": 67012.5, "usd_24h_change": 1.2}, "ether": {"usd": 3512.1, "usd_24h_change": -0.4},"#
                + #" "doge": {"usd": 0.16, "usd_24h_change": -2.2}}"#)
        #expect(prices.origin == .found)
        #expect(prices.profile.itemsPath == .root)
        #expect(prices.profile.nameMember == "name")
        #expect(prices.profile.keyPath == (try JSONPointer("/name")))
        #expect(prices.profile.fields[.title] == (try JSONPointer("/name")))
        #expect(prices.profile.columns.map(\.label) == ["Name", "USD", "USD 24h change"])
        #expect(prices.notes.contains { $0.contains("members") && $0.contains("3 objects") }, "\(prices.notes)")

        // A health API's checks beside its overall status; members that already have a
        // `name` carry their member name as `key`, and their own name is the title.
        let health = try reading(
            #"{"status": "ok", "checks": {"api": {"name": "API server", "state": "up"},"#
                + #" "db": {"name": "Database", "state": "down"}, "queue": {"name": "Queue", "state": "up"},"#
                + #" "cache": {"name": "Cache", "state": "up"}}}"#)
        #expect(health.profile.itemsPath == (try JSONPointer("/checks")))
        #expect(health.profile.nameMember == "key")
        #expect(health.profile.keyPath == (try JSONPointer("/key")))
        #expect(health.profile.fields[.title] == (try JSONPointer("/name")))
        #expect(health.profile.fields[.section] == (try JSONPointer("/state")))
        let items = ItemExtractor(profile: health.profile).items(
            in: try JSONValue(
                parsing: #"{"checks": {"#
                    + #""api": {"name": "API server", "state": "up"}, "x": 3, "db": {"key": "own", "state": "down"}}}"#)
        )
        #expect(items.map(\.key) == ["api", "db"], "members that are not objects are not items")
        #expect(items.map { $0.title ?? $0.key } == ["API server", "db"], "what the pages name each item by")
        #expect(items.last?.raw == (try JSONValue(parsing: #"{"key": "db", "state": "down"}"#)), "the name wins")

        // An array of objects anywhere is still preferred; an object of objects is
        // preferred to an empty array; one member is a wrapper, not a collection.
        let both = try reading(#"{"meta": {"a": {"x": 1}, "b": {"x": 2}, "c": {"x": 3}}, "rows": [{"id": 1}]}"#)
        #expect(both.profile.itemsPath == (try JSONPointer("/rows")))
        #expect(both.profile.nameMember == nil)
        let status = try reading(
            #"{"incidents": [], "components": {"api": {"status": "up"}, "web": {"status": "down"}}}"#)
        #expect(status.profile.itemsPath == (try JSONPointer("/components")))
        let wrapper = try reading(#"{"result": {"status": "ok", "uptime": 3}}"#)
        #expect(wrapper.origin == .undecided)
        #expect(wrapper.notes.joined().contains("no object of objects"), "\(wrapper.notes)")

        // `--items-path` naming an object reads its members, even just one.
        var overrides = ItemProfile.Overrides()
        overrides.itemsPath = try JSONPointer("/checks")
        let given = try reading(#"{"checks": {"api": {"state": "up"}}}"#, overrides)
        #expect(given.profile.nameMember == "name")
        #expect(given.notes.first?.contains("as given (1)") == true, "\(given.notes)")
    }

    @Test(
        "a series' labels key it; a small object of plain values is a column per member; [time, value] shows the value")
    func prometheusSeries() throws {
        let text = #"""
            {"status": "success", "data": {"resultType": "vector", "result": [
              {"metric": {"__name__": "up", "job": "api", "instance": "10.0.0.1:9100"}, "value": [1796000000.1, "1"]},
              {"metric": {"__name__": "up", "job": "api", "instance": "10.0.0.2:9100"}, "value": [1796000000.1, "0"]}
            ]}}
            """#
        let series = try reading(text)
        let profile = series.profile
        #expect(profile.itemsPath == (try JSONPointer("/data/result")))
        #expect(profile.keyPath == (try JSONPointer("/metric")), "\(series.notes)")
        #expect(profile.fields[.title] == (try JSONPointer("/metric")))
        #expect(
            profile.columns.map(\.pointer.description) == [
                "/metric/__name__", "/metric/job", "/metric/instance", "/value/1",
            ])
        #expect(profile.columns.map(\.label) == ["Name", "Job", "Instance", "Value"])

        // Keyed by the labels, whatever their order: a new sample is an update of its series.
        let extractor = ItemExtractor(profile: profile)
        let before = extractor.items(in: try JSONValue(parsing: text))
        let after = extractor.items(
            in: try JSONValue(
                parsing:
                    #"{"data": {"result": [{"metric": {"instance": "10.0.0.1:9100", "job": "api", "__name__": "up"},"#
                    + #" "value": [1796000015.1, "0"]}]}}"#))
        #expect(after.first?.key == before.first?.key)
        #expect(before.first?.key != before.last?.key)
        #expect(before.first?.title == "up, api, 10.0.0.1:9100", "named by its labels' values")
        #expect(ItemChange.between(before, after).map(\.kind) == [.updated, .removed])

        // An object that names itself (an owner's login) is one column of that name; one
        // with many members and no name stays one summarised column.
        let nested = try reading(
            #"[{"id": 1, "owner": {"login": "ada", "org": {"name": "x"}}}, {"id": 2, "owner": {"login": "ken"}}]"#)
        #expect(nested.profile.columns.map(\.pointer.description) == ["/id", "/owner/login"])
        #expect(nested.profile.columns.map(\.label) == ["ID", "Owner"])
        let many = (1...8).map { #""m\#($0)": \#($0)"# }.joined(separator: ", ")
        let large = try reading(#"[{"id": 1, "stats": {\#(many)}}, {"id": 2, "stats": {\#(many)}}]"#)
        #expect(large.profile.columns.map(\.pointer.description) == ["/id", "/stats"])
    }

    @Test("one level down: a pod's metadata keys, names and fills columns; its status.phase filters")
    func kubernetesObjects() throws {
        let pods = (0..<5).map { index in
            #"{"metadata": {"name": "web-\#(index)", "namespace": "prod", "uid": "9f\#(index)", "labels": {"app": "web"}},"#
                + #" "spec": {"nodeName": "n\#(index % 2)", "containers": [{"name": "web"}]},"#
                + #" "status": {"phase": "\#(["Running", "Pending"][index % 2])", "podIP": "10.0.0.\#(index)","#
                + #" "conditions": [{"type": "Ready"}]}}"#
        }
        let reading = try reading(
            #"{"apiVersion": "v1", "kind": "PodList", "items": [\#(pods.joined(separator: ","))]}"#)
        let profile = reading.profile
        #expect(profile.keyPath == (try JSONPointer("/metadata/name")), "\(reading.notes)")
        #expect(profile.fields[.title] == (try JSONPointer("/metadata/name")))
        #expect(profile.fields[.section] == (try JSONPointer("/status/phase")))
        #expect(
            profile.columns.map(\.pointer.description) == [
                "/metadata/name", "/metadata/namespace", "/metadata/uid", "/spec/nodeName", "/status/phase",
                "/status/podIP",
            ])
        #expect(profile.columns.map(\.label) == ["Name", "Namespace", "UID", "Node name", "Phase", "Pod IP"])
        guard case .status(let tones) = profile.columns[4].format else {
            Issue.record("the phase is a status: \(profile.columns[4].format)")
            return
        }
        #expect(tones.tone(of: "Running") == .good, "a running pod is well")
        #expect(tones.tone(of: "Pending") == .busy)
        #expect(tones.tone(of: "Failed") == .bad)
        #expect(reading.notes.contains { $0.contains("key: /metadata/name") })
        let items = ItemExtractor(profile: profile).items(in: try JSONValue(parsing: "{\"items\": [\(pods[1])]}"))
        #expect(items.map(\.key) == ["web-1"])
        #expect(items.first?.title == "web-1")
        #expect(items.first?.section == "Pending")

        // Every pod running so far: the phase is still the filter, not the node.
        let running = pods.map { $0.replacingOccurrences(of: "Pending", with: "Running") }
        let calm = try self.reading(#"{"items": [\#(running.joined(separator: ","))]}"#)
        #expect(calm.profile.fields[.section] == (try JSONPointer("/status/phase")), "\(calm.notes)")
    }

    @Test("envelopes: a GraphQL edge's node, a Reddit child's data, a JSON:API resource's attributes")
    func envelopes() throws {
        let edges = try reading(
            #"{"data": {"repository": {"issues": {"edges": ["#
                + #"{"cursor": "Y3Vy1", "node": {"number": 7, "title": "Crash on start", "state": "OPEN"}},"#
                + #"{"cursor": "Y3Vy2", "node": {"number": 8, "title": "Slow page", "state": "CLOSED"}},"#
                + #"{"cursor": "Y3Vy3", "node": {"number": 9, "title": "Typo", "state": "OPEN"}},"#
                + #"{"cursor": "Y3Vy4", "node": {"number": 10, "title": "Dark mode", "state": "OPEN"}}]}}}}"#)
        #expect(edges.profile.itemsPath == (try JSONPointer("/data/repository/issues/edges")))
        #expect(edges.profile.fields[.title] == (try JSONPointer("/node/title")))
        // The node's number keys the edge; the cursor, unique text too, is named like no key.
        #expect(edges.profile.keyPath == (try JSONPointer("/node/number")))
        #expect(edges.profile.fields[.section] == (try JSONPointer("/node/state")))

        let children = (1...4).map { index in
            #"{"kind": "t3", "data": {"id": "x\#(index)", "title": "Post \#(index)", "score": \#(index * 10),"#
                + #" "subreddit": "\#(["swift", "linux"][index % 2])"}}"#
        }
        let listing = try reading(#"{"kind": "Listing", "data": {"children": [\#(children.joined(separator: ","))]}}"#)
        #expect(listing.profile.keyPath == (try JSONPointer("/data/id")))
        #expect(listing.profile.fields[.title] == (try JSONPointer("/data/title")))
        #expect(listing.profile.fields[.section] == (try JSONPointer("/data/subreddit")))

        let resources = (1...4).map { index in
            #"{"type": "builds", "id": "\#(index)", "attributes": {"status": "\#(["passed", "failed"][index % 2])","#
                + #" "branch": "main"}}"#
        }
        let api = try reading(#"{"data": [\#(resources.joined(separator: ","))]}"#)
        #expect(api.profile.keyPath == (try JSONPointer("/id")))
        #expect(api.profile.fields[.section] == (try JSONPointer("/attributes/status")))

        // An Airtable record's `fields` hold lists too, as the item's own members would.
        let records = try reading(
            #"{"records": [{"id": "rec1", "fields": {"Name": "Launch", "Tags": ["web", "urgent"]}},"#
                + #"{"id": "rec2", "fields": {"Name": "Billing", "Tags": []}}]}"#)
        #expect(records.profile.columns.map(\.pointer.description) == ["/id", "/fields/Name", "/fields/Tags"])
    }

    @Test("a GitHub answer: what is for programs left out, the least telling columns dropped first, html_url the link")
    func githubWorkflowRuns() throws {
        let runs = (1...4).map { index in
            let api = "https://api.github.com/repos/o/r/actions/runs/\(9000 + index)"
            let sha = String(repeating: "a1b2c3d4", count: 5)
            let members = [
                #""id": \#(9000 + index)"#, #""name": "CI""#, #""node_id": "WFR_kw\#(index)""#,
                #""head_branch": "main""#, #""head_sha": "\#(sha)""#, #""path": ".github/workflows/ci.yml""#,
                #""display_title": "Fix \#(index)""#, #""run_number": \#(40 + index)"#, #""event": "push""#,
                #""status": "\#(["completed", "in_progress"][index % 2])""#,
                #""conclusion": "\#(["success", "failure"][index % 2])""#, #""workflow_id": 161335"#,
                #""check_suite_id": \#(4000 + index)"#, #""check_suite_node_id": "CS_kw\#(index)""#,
                #""url": "\#(api)""#, #""html_url": "https://github.com/o/r/actions/runs/\#(9000 + index)""#,
                #""pull_requests": []"#, #""created_at": "2026-11-30T0\#(index):00:00Z""#,
                #""updated_at": "2026-11-30T0\#(index):05:00Z""#,
                #""actor": {"login": "ada", "id": 1, "node_id": "U_1", "url": "https://api.github.com/users/ada","#
                    + #" "html_url": "https://github.com/ada", "followers_url": "https://api.github.com/users/ada/followers","#
                    + #" "gists_url": "https://api.github.com/users/ada/gists{/gist_id}", "site_admin": false}"#,
                #""run_attempt": 1"#, #""jobs_url": "\#(api)/jobs""#, #""logs_url": "\#(api)/logs""#,
            ]
            return "{" + members.joined(separator: ", ") + "}"
        }
        let reading = try reading(#"{"total_count": 4, "workflow_runs": [\#(runs.joined(separator: ","))]}"#)
        let profile = reading.profile
        #expect(profile.keyPath == (try JSONPointer("/id")))
        #expect(profile.fields[.title] == (try JSONPointer("/display_title")))
        #expect(profile.fields[.url] == (try JSONPointer("/html_url")), "the page a person opens, not the API's")
        #expect(
            profile.columns.map(\.name) == [
                "id", "name", "head_branch", "path", "display_title", "run_number", "event", "status", "conclusion",
                "html_url", "created_at", "updated_at",
            ], "\(reading.notes)")
        // Fewer members: nothing is dropped but what is for programs.
        let few = (1...2).map { index in
            #"{"id": \#(index), "node_id": "N\#(index)", "sha": "\#(String(repeating: "ab", count: 20))","#
                + #" "url": "https://api.x.org/\#(index)", "commits_url": "https://x.org/\#(index)/commits{/sha}","#
                + #" "html_url": "https://x.org/\#(index)"}"#
        }
        let small = try self.reading("[" + few.joined(separator: ",") + "]")
        #expect(small.profile.columns.map(\.name) == ["id", "sha", "html_url"])
        #expect(small.profile.fields[.url] == (try JSONPointer("/html_url")))
    }

    @Test("what an item refers to does not key it; a forecast's moments do; an update time does not")
    func keysOneLevelDown() throws {
        // Each comment by a different author: the author's id is not the comment's.
        let comments = try reading(
            #"[{"body": "a", "author": {"id": 1, "login": "ada"}}, {"body": "a", "author": {"id": 2, "login": "ken"}},"#
                + #" {"body": "b", "author": {"id": 3, "login": "grace"}}]"#)
        #expect(comments.profile.keyPath == nil, "\(comments.notes)")
        // A forecast: a reading per hour, `dt` seconds since 1970.
        let forecast = try reading(
            #"{"list": [{"dt": 1796000000, "temp": -1.5}, {"dt": 1796003600, "temp": -1.5},"#
                + #" {"dt": 1796007200, "temp": 0.5}]}"#)
        #expect(forecast.profile.keyPath == (try JSONPointer("/dt")))
        #expect(forecast.profile.columns.first?.format == .relative)
        #expect(forecast.profile.columns.first?.label == "Time")
        // The only unique member moves with every update: a hash, not a key that changes.
        let updated = try reading(
            #"[{"v": 1, "updated_at": "2026-11-30T01:00:00Z"}, {"v": 1, "updated_at": "2026-11-30T02:00:00Z"},"#
                + #" {"v": 1, "updated_at": "2026-11-30T03:00:00Z"}]"#)
        #expect(updated.profile.keyPath == nil)
    }

    @Test("a key: unique and present in every item, else a hash of the item")
    func keys() throws {
        // `id` repeats, `code` is unique.
        let repeated = try reading(#"[{"id": 1, "code": "a"}, {"id": 1, "code": "b"}, {"id": 2, "code": "c"}]"#)
        #expect(repeated.profile.keyPath == (try JSONPointer("/code")))
        // Nothing unique: a hash.
        let none = try reading(#"[{"v": 1}, {"v": 1}, {"v": 2}]"#)
        #expect(none.profile.keyPath == nil)
        #expect(none.notes.contains { $0.contains("hash") })
        // A unique field of any name, when no preferred one is there, from three items on.
        let other = try reading(#"[{"host": "a", "load": 1}, {"host": "b", "load": 1}, {"host": "c", "load": 2}]"#)
        #expect(other.profile.keyPath == (try JSONPointer("/host")))
        // Items that arrive one at a time: only an id-like name counts.
        var alone = ItemProfile.Overrides()
        alone.itemsPath = try JSONPointer("/items")
        alone.itemsArriveAlone = true
        let appended = try reading(#"{"items": [{"content": "x", "type": "edit"}]}"#, alone)
        #expect(appended.profile.keyPath == nil)
        let withID = try reading(#"{"items": [{"content": "x", "event_id": "e1"}]}"#, alone)
        #expect(withID.profile.keyPath == (try JSONPointer("/event_id")))
    }

    @Test("what the options give is taken as given")
    func overrides() throws {
        var given = ItemProfile.Overrides()
        given.itemsPath = try JSONPointer("/quotes")
        given.keyPath = .at(try JSONPointer("/name"))
        given.columns = [try ItemColumn(parsing: "Last=/price:number"), try ItemColumn(parsing: "Ticker=/symbol")]
        given.sort = ItemSort(parsing: "price:desc")
        let taken = try reading(Self.quotes, given)
        #expect(taken.profile.keyPath == (try JSONPointer("/name")))
        #expect(taken.profile.columns.map(\.label) == ["Last", "Ticker"])
        #expect(taken.profile.sort == ItemSort(column: "price", descending: true))
        #expect(taken.profile.layout == .table)
        // A given items path where there is nothing: undecided, naming the pointer.
        given.itemsPath = try JSONPointer("/prices")
        let missing = try reading(Self.quotes, given)
        #expect(missing.origin == .undecided)
        #expect(missing.notes.joined().contains("/prices holds nothing"), "\(missing.notes)")
    }

    @Test("what is left, in seconds, by its name: a print's time left, a train's time to the station, a ttl")
    func timeLeft() {
        for name in ["printTimeLeft", "timeToStation", "time_remaining", "ttl"] {
            #expect(
                ItemShapeDetector.shownFormat(named: name, samples: [.int(5400), .int(95)]) == .duration(.seconds),
                "\(name)")
        }
        // A moment, a count and a time of day by other names stay what they were.
        #expect(ItemShapeDetector.shownFormat(named: "time", samples: [.int(1_764_410_000)]) == .relative)
        #expect(ItemShapeDetector.shownFormat(named: "timeouts", samples: [.int(3)]) == .number)
        #expect(
            ItemShapeDetector.shownFormat(named: "printTimeLeft", samples: [.string("soon")]) != .duration(.seconds))
    }

    @Test("formats from names and values: bytes, milliseconds, epochs, images, dates, statuses by their words")
    func formats() throws {
        let reading = try reading(
            #"""
            [{"host": "a", "disk_bytes": 1048576, "latencyMs": 12.5, "seen_at": 1764410000, "avatar": "https://x.example/a.png",
              "created": "2026-11-28T10:00:00Z", "health": "ok", "on": true, "tags": ["x", "y"]},
             {"host": "b", "disk_bytes": 2048, "latencyMs": 3, "seen_at": 1764410100, "avatar": "https://x.example/b.png",
              "created": "2026-11-28T11:00:00Z", "health": "degraded", "on": false, "tags": []}]
            """#)
        let formats = Dictionary(uniqueKeysWithValues: reading.profile.columns.map { ($0.name, $0.format) })
        #expect(formats["disk_bytes"] == .bytes)
        #expect(formats["latencyMs"] == .duration(.milliseconds))
        #expect(formats["seen_at"] == .relative)
        #expect(formats["avatar"] == .image)
        #expect(formats["created"] == .relative)
        #expect(formats["health"] == .status(ItemColumn.StatusTones()))
        #expect(formats["on"] == .automatic)
        #expect(formats["tags"] == .automatic)
    }

    @Test("a member no item has a value of yet: a status or a moment by its name alone, else no column")
    func formatsOfMembersWithoutValues() throws {
        // Every run still running: no conclusion, no completion time, no note yet.
        let reading = try reading(
            #"""
            {"workflow_runs": [
              {"id": 1, "name": "build", "status": "in_progress", "conclusion": null, "completed_at": null, "note": null},
              {"id": 2, "name": "test", "status": "queued", "conclusion": null, "completed_at": null, "note": null}]}
            """#)
        let formats = Dictionary(uniqueKeysWithValues: reading.profile.columns.map { ($0.name, $0.format) })
        #expect(formats["conclusion"] == .status(ItemColumn.StatusTones()), "\(formats)")
        #expect(formats["completed_at"] == .relative, "\(formats)")
        #expect(formats["note"] == nil, "a column of dashes tells nothing: \(formats)")
        #expect(formats["status"] == .status(ItemColumn.StatusTones()))
    }

    @Test("an Atlassian Statuspage summary: its components, by name, filtered and coloured by their status")
    func statuspageSummary() throws {
        let reading = try reading(
            #"""
            {"page": {"id": "kctbh9vrtdwd", "name": "Acme", "url": "https://status.acme.example", "updated_at": "2026-11-30T08:00:00Z"},
             "components": [
               {"id": "b13yz5g2cw10", "name": "API", "status": "operational", "created_at": "2024-01-01T00:00:00Z", "updated_at": "2026-11-30T07:00:00Z", "position": 1, "description": null, "group_id": null},
               {"id": "9t8mg0vbqj8s", "name": "Dashboard", "status": "degraded_performance", "created_at": "2024-01-01T00:00:00Z", "updated_at": "2026-11-30T07:40:00Z", "position": 2, "description": "The web app", "group_id": null},
               {"id": "lz5t4h4gq3vk", "name": "Webhooks", "status": "operational", "created_at": "2024-01-01T00:00:00Z", "updated_at": "2026-11-30T07:50:00Z", "position": 3, "description": null, "group_id": null},
               {"id": "r5v8qgq3xk2m", "name": "Billing", "status": "major_outage", "created_at": "2024-01-01T00:00:00Z", "updated_at": "2026-11-30T07:55:00Z", "position": 4, "description": null, "group_id": null},
               {"id": "2ph7c0s4j9zd", "name": "Search", "status": "under_maintenance", "created_at": "2024-01-01T00:00:00Z", "updated_at": "2026-11-30T06:00:00Z", "position": 5, "description": null, "group_id": null},
               {"id": "w0c4bq7nd2yx", "name": "Email", "status": "operational", "created_at": "2024-01-01T00:00:00Z", "updated_at": "2026-11-30T05:00:00Z", "position": 6, "description": null, "group_id": null}],
             "incidents": [], "scheduled_maintenances": [],
             "status": {"indicator": "major", "description": "Partial System Outage"}}
            """#)
        #expect(reading.profile.itemsPath == (try JSONPointer("/components")))
        #expect(reading.profile.keyPath == (try JSONPointer("/id")))
        #expect(reading.profile.fields[.title] == (try JSONPointer("/name")))
        #expect(reading.profile.fields[.section] == (try JSONPointer("/status")))
        let status = try #require(reading.profile.columns.first { $0.name == "status" })
        guard case .status(let tones) = status.format else {
            Issue.record("status is \(status.format)")
            return
        }
        let shown = ["operational", "degraded_performance", "partial_outage", "major_outage", "under_maintenance"]
        #expect(shown.map { tones.tone(of: $0) } == [.good, .busy, .busy, .bad, .busy])
        // Incidents as they go, and builds as Jenkins and CircleCI say them.
        #expect(["investigating", "identified", "monitoring"].map { tones.tone(of: $0) } == [.busy, .busy, .busy])
        #expect(["UNSTABLE", "failing", "fixed", "on_hold"].map { tones.tone(of: $0) } == [.busy, .bad, .good, .busy])
    }

    @Test(
        "no member named as a title: the first short text that differs in each item names it, not a time nor a digest")
    func departuresAndAlerts() throws {
        let departures = try reading(
            #"""
            {"departures": [
              {"flight": "BA 117", "destination": "New York JFK", "scheduled": "2026-11-30T11:20:00Z", "gate": "B32", "status": "Boarding"},
              {"flight": "LH 903", "destination": "Frankfurt", "scheduled": "2026-11-30T11:35:00Z", "gate": "A10", "status": "Delayed"},
              {"flight": "AF 1381", "destination": "Paris CDG", "scheduled": "2026-11-30T11:50:00Z", "gate": null, "status": "Cancelled"},
              {"flight": "EI 159", "destination": "Dublin", "scheduled": "2026-11-30T12:05:00Z", "gate": "C4", "status": "On time"},
              {"flight": "KL 1008", "destination": "Amsterdam", "scheduled": "2026-11-30T12:20:00Z", "gate": "A3", "status": "Landed"}]}
            """#)
        #expect(departures.profile.keyPath == (try JSONPointer("/scheduled")), "\(departures.notes)")
        #expect(departures.profile.fields[.title] == (try JSONPointer("/flight")), "\(departures.notes)")
        let status = try #require(departures.profile.columns.first { $0.name == "status" })
        guard case .status(let tones) = status.format else {
            Issue.record("status is \(status.format)")
            return
        }
        #expect(
            ["Boarding", "Delayed", "Cancelled", "On time", "Landed"].map { tones.tone(of: $0) } == [
                .busy, .busy, .bad, .good, .good,
            ])

        // Prometheus' alerts: keyed by their labels, named by the alert's name among them;
        // `activeAt` is a moment since (a JavaScript API's camel case).
        let alerts = try reading(
            #"""
            {"status": "success", "data": {"alerts": [
              {"labels": {"alertname": "HighLatency", "severity": "warning", "instance": "api-1:9100"}, "state": "firing", "activeAt": "2026-11-30T10:12:00Z", "value": "6.12e-01"},
              {"labels": {"alertname": "DiskFull", "severity": "critical", "instance": "db-2:9100"}, "state": "pending", "activeAt": "2026-11-30T10:40:00Z", "value": "9.5e-01"},
              {"labels": {"alertname": "Watchdog", "severity": "none", "instance": "prom-0:9090"}, "state": "firing", "activeAt": "2026-11-29T00:00:00Z", "value": "1e+00"}]}}
            """#)
        #expect(alerts.profile.keyPath == (try JSONPointer("/labels")), "\(alerts.notes)")
        #expect(alerts.profile.fields[.title] == (try JSONPointer("/labels/alertname")), "\(alerts.notes)")
        let formats = Dictionary(uniqueKeysWithValues: alerts.profile.columns.map { ($0.name, $0.format) })
        #expect(formats["activeAt"] == .relative)
        guard case .status(let states)? = formats["state"] else {
            Issue.record("state is \(String(describing: formats["state"]))")
            return
        }
        #expect(states.tone(of: "firing") == .bad && states.tone(of: "pending") == .busy)
        // PagerDuty's incidents as they go.
        #expect(["triggered", "acknowledged", "resolved"].map { states.tone(of: $0) } == [.bad, .busy, .good])
    }

    @Test("a forecast's series as arrays side by side (Open-Meteo): its rows are the items, the longest series first")
    func openMeteoForecast() throws {
        let forecast = try reading(
            #"""
            {"latitude": 52.52, "longitude": 13.41, "hourly_units": {"time": "iso8601", "temperature_2m": "°C"},
             "hourly": {"time": ["2026-11-30T00:00", "2026-11-30T03:00", "2026-11-30T06:00", "2026-11-30T09:00"],
                        "temperature_2m": [2.1, 1.8, 1.5, 3.2], "precipitation_probability": [10, 5, 0, 20]},
             "daily": {"time": ["2026-11-30", "2026-12-01"], "temperature_2m_max": [6.4, 7.0]}}
            """#)
        #expect(forecast.origin == .found)
        #expect(forecast.profile.itemsForm == .series)
        #expect(forecast.profile.itemsPath == (try JSONPointer("/hourly")), "\(forecast.notes)")
        #expect(forecast.profile.keyPath == (try JSONPointer("/time")), "\(forecast.notes)")
        #expect(forecast.profile.columns.map(\.name) == ["time", "temperature_2m", "precipitation_probability"])
        #expect(forecast.profile.columns.dropFirst().allSatisfy { $0.format == .number })
        // Times without a zone are moments, where the document's `utc_offset_seconds` says
        // (none here: UTC).
        #expect(forecast.profile.columns.first?.format == .relative)
        #expect(forecast.profile.columns.first?.localTimeOffset == 0)
        // Units beside the series (`hourly_units`) head their columns; a time's format is none.
        #expect(
            forecast.profile.columns.map(\.label) == ["Time", "Temperature 2m (°C)", "Precipitation probability"])
        #expect(forecast.notes.first?.contains("rows of /hourly") == true, "\(forecast.notes)")
        // A `--column` of those times reads them where the document says too.
        var given = ItemProfile.Overrides()
        given.columns = [ItemColumn(label: "Hour", pointer: try JSONPointer("/time"), format: .date)]
        let named = try reading(
            #"{"utc_offset_seconds": 3600, "hourly": {"time": ["2026-11-30T00:00", "2026-11-30T03:00"], "t": [1, 2]}}"#,
            given)
        #expect(named.profile.columns.map(\.localTimeOffset) == [3600], "\(named.profile.columns)")
        let items = ItemExtractor(profile: forecast.profile).items(
            in: try JSONValue(parsing: #"{"hourly": {"time": ["a", "b", "c"], "v": [1, 2]}}"#))
        #expect(items.map { $0.raw["v"] } == [.int(1), .int(2), nil], "a shorter array leaves its member out")

        // Arrays of objects are items of their own; a single array is no series.
        let list = try reading(#"{"tags": ["a", "b"], "counts": [1, 2], "runs": [{"id": 1}, {"id": 2}]}"#)
        #expect(try list.profile.itemsForm == .elements && list.profile.itemsPath == JSONPointer("/runs"))
        let single = try reading(#"{"values": [1, 2, 3], "unit": "ms"}"#)
        #expect(!single.isDecided)
    }

    @Test(
        "a table sent as rows of values: named by its first row (a spreadsheet) or by its columns beside it (a database)"
    )
    func rowsOfValues() throws {
        // The Google Sheets API: every value a text, the first row the header.
        let sheet = try reading(
            #"""
            {"range": "KPIs!A1:D5", "majorDimension": "ROWS", "values": [
              ["Region", "Owner", "Revenue", "Status"],
              ["North", "Ann", "12,400", "on track"],
              ["South", "Bo", "9,870", "at risk"],
              ["East", "Cy", "15,020", "on track"],
              ["West", "Di", "7,310", "behind"]]}
            """#)
        #expect(sheet.profile.itemsForm == .rows(names: ["Region", "Owner", "Revenue", "Status"], header: true))
        #expect(sheet.profile.itemsPath == (try JSONPointer("/values")), "\(sheet.notes)")
        #expect(sheet.profile.keyPath == (try JSONPointer("/Region")), "\(sheet.notes)")
        #expect(sheet.profile.fields[.title] == (try JSONPointer("/Region")), "named by its first column")
        #expect(sheet.profile.columns.map(\.name) == ["Region", "Owner", "Revenue", "Status"], "\(sheet.notes)")
        #expect(sheet.profile.columns.first { $0.name == "Revenue" }?.format == .number, "12,400 is a number")
        #expect(sheet.notes.first?.contains("first row naming the columns") == true, "\(sheet.notes)")
        let rows = ItemExtractor(profile: sheet.profile).items(
            in: try JSONValue(
                parsing:
                    #"{"values": [["Region", "Owner", "Revenue", "Status"], ["North", "Ann", "1", "ok", "extra"], ["South"]]}"#
            ))
        #expect(
            rows.map(\.raw) == [
                .object([
                    "Region": .string("North"), "Owner": .string("Ann"), "Revenue": .string("1"),
                    "Status": .string("ok"),
                ]),
                .object(["Region": .string("South")]),
            ], "values past the names left out, names past the values absent")

        // Datasette: the rows beside their columns; ClickHouse: beside `meta`.
        let datasette = try reading(
            #"""
            {"database": "ops", "table": "deploys", "columns": ["id", "service", "version", "state"],
             "rows": [[1, "api", "2.4.1", "done"], [2, "web", "1.9.0", "running"], [3, "worker", "0.8.3", "failed"]],
             "truncated": false}
            """#)
        #expect(
            datasette.profile.itemsForm == .rows(names: ["id", "service", "version", "state"], header: false),
            "\(datasette.notes)")
        #expect(datasette.profile.keyPath == (try JSONPointer("/id")))
        let clickhouse = try reading(
            #"""
            {"meta": [{"name": "host", "type": "String"}, {"name": "load", "type": "Float64"}],
             "data": [["db-1", 0.42], ["db-2", 1.7]], "rows": 2}
            """#)
        #expect(clickhouse.profile.itemsForm == .rows(names: ["host", "load"], header: false), "\(clickhouse.notes)")
        #expect(clickhouse.profile.itemsPath == (try JSONPointer("/data")))

        // Pairs of numbers are no table: a series of [time, value] has no names.
        let pairs = try reading(#"{"values": [[1796000000, 1.5], [1796000015, 1.7]]}"#)
        #expect(!pairs.isDecided)
    }

    @Test("numbers written for people: grouped digits, a currency or a percent sign; a plain or odd text is none")
    func formattedNumbers() {
        let cases: [(String, Double?)] = [
            ("12,400", 12_400), ("-1,204,300.50", -1_204_300.5), ("$1,234.50", 1_234.5), ("€99", 99), ("−£3.20", -3.2),
            ("1,234", 1_234), ("21.4", nil), ("12400", nil), ("1,23", nil), ("12,4000", nil), (",400", nil),
            ("1,234.", nil), ("$", nil), ("1.2.3", nil), ("1,234,56", nil), ("", nil), ("US$5", nil),
            ("45%", 45), ("-3.5%", -3.5), ("1,200%", 1_200), ("%", nil), ("45 %", nil), ("$5%", nil), ("--1,234", nil),
        ]
        for (text, value) in cases {
            #expect(ItemShapeDetector.formattedNumber(text) == value, "\(text)")
        }
    }

    @Test("a JSON Feed is read as news: each post's title, summary, author, tag, picture and date")
    func jsonFeed() throws {
        let text = #"""
            {"version": "https://jsonfeed.org/version/1.1", "title": "Example blog",
             "items": [
               {"id": "https://blog.example/p/2", "url": "https://blog.example/p/2", "title": "Faster builds",
                "summary": "The cache is warmer.", "content_html": "<p>Body</p>", "image": "https://blog.example/2.png",
                "date_published": "2026-11-30T10:00:00Z", "authors": [{"name": "Ada Lovelace"}], "tags": ["release", "ci"]},
               {"id": "https://blog.example/p/1", "title": "Hello", "content_text": "First post.",
                "date_published": "2026-11-29T09:00:00Z"}]}
            """#
        let feed = try reading(text)
        #expect(feed.origin == .recognised && feed.profile.name == "json-feed", "\(feed.notes)")
        #expect(feed.profile.layout == .news)
        let items = ItemExtractor(profile: feed.profile).items(in: try JSONValue(parsing: text))
        #expect(items.map(\.title) == ["Faster builds", "Hello"])
        let first = try #require(items.first)
        #expect(
            first.abstract == "The cache is warmer." && first.byline == "Ada Lovelace" && first.section == "release")
        #expect(first.thumbnail == "https://blog.example/2.png" && first.published == "2026-11-30T10:00:00Z")
        #expect(first.url == "https://blog.example/p/2")
        // A post without a summary is summarised by its text.
        #expect(items.last?.abstract == "First post." && items.last?.byline == nil, "a post without them")

        // Version 1.0: one `author`, whose name is the byline.
        let older = #"""
            {"version": "https://jsonfeed.org/version/1", "title": "Older blog",
             "items": [{"id": "1", "title": "Hello", "author": {"name": "Grace Hopper"}, "content_text": "Hi."}]}
            """#
        let version1 = try reading(older)
        #expect(version1.origin == .recognised && version1.profile.name == "json-feed", "\(version1.notes)")
        let post = ItemExtractor(profile: version1.profile).items(in: try JSONValue(parsing: older)).first
        #expect(post?.byline == "Grace Hopper")
    }

    @Test("a microblog's JSON Feed: posts without titles are titled by their text's first sentence")
    func microblogJSONFeed() throws {
        let text = #"""
            {"version": "https://jsonfeed.org/version/1.1", "title": "Manton Reece",
             "items": [
               {"id": "https://micro.blog/m/2", "url": "https://m.example/2.html",
                "content_html": "<p>Fixed the <a href=\"https://example.org\">sync bug</a>. Coffee &amp; code.</p>",
                "date_published": "2026-11-30T10:00:00-05:00", "authors": [{"name": "Manton Reece"}]},
               {"id": "https://micro.blog/m/1", "content_text": "A photo walk\nby the river", "summary": "Walk.",
                "date_published": "2026-11-29T10:00:00-05:00"},
               {"id": "https://micro.blog/m/0", "title": "A titled post", "content_text": "Its text. More of it."}]}
            """#
        let feed = try reading(text)
        #expect(feed.origin == .recognised && feed.profile.name == "json-feed", "\(feed.notes)")
        let items = ItemExtractor(profile: feed.profile).items(in: try JSONValue(parsing: text))
        #expect(items.map(\.title) == ["Fixed the sync bug.", "A photo walk by the river", "A titled post"])
        #expect(items.map(\.abstract) == ["Coffee & code.", "Walk.", "Its text. More of it."])
        #expect(items.first?.byline == "Manton Reece")

        // A title dropped (`--field title=`) stays dropped: the text does not stand in.
        var overrides = ItemProfile.Overrides()
        overrides.fields = [.init(field: .title, pointer: nil)]
        let untitled = ItemExtractor(profile: overrides.applied(to: feed.profile)).items(
            in: try JSONValue(parsing: text))
        #expect(untitled.map(\.title) == [nil, nil, nil])
        #expect(untitled.first?.abstract == "Fixed the sync bug. Coffee & code.")
    }

    @Test("Home Assistant's states: named by their friendly name, a sensor's reading is no filter value")
    func homeAssistantStates() throws {
        let reading = try reading(
            #"""
            [{"entity_id": "sensor.living_room_temperature", "state": "21.4", "attributes": {"unit_of_measurement": "°C", "friendly_name": "Living room temperature"}, "last_changed": "2026-11-30T08:00:00Z"},
             {"entity_id": "light.kitchen", "state": "on", "attributes": {"brightness": 180, "friendly_name": "Kitchen"}, "last_changed": "2026-11-30T07:00:00Z"},
             {"entity_id": "light.hallway", "state": "off", "attributes": {"friendly_name": "Hallway"}, "last_changed": "2026-11-30T07:30:00Z"},
             {"entity_id": "lock.back_door", "state": "locked", "attributes": {"friendly_name": "Back door"}, "last_changed": "2026-11-30T06:00:00Z"},
             {"entity_id": "switch.garage_heater", "state": "unavailable", "attributes": {"friendly_name": "Garage heater"}, "last_changed": "2026-11-30T05:00:00Z"}]
            """#)
        #expect(reading.profile.keyPath == (try JSONPointer("/entity_id")))
        #expect(reading.profile.fields[.title] == (try JSONPointer("/attributes/friendly_name")))
        #expect(reading.profile.fields[.section] == nil, "chips of readings would be no filter")
        let state = try #require(reading.profile.columns.first { $0.name == "state" })
        #expect(state.format == .status(ItemColumn.StatusTones()))
        #expect(ItemColumn.StatusTones().tone(of: "unavailable") == .bad)
    }

    @Test("headings from member names")
    func labels() {
        #expect(ItemShapeDetector.label(for: "change_pct") == "Change %")
        #expect(ItemShapeDetector.label(for: "duration_s") == "Duration")
        #expect(ItemShapeDetector.label(for: "started_at") == "Started")
        #expect(ItemShapeDetector.label(for: "html_url") == "HTML URL")
        #expect(ItemShapeDetector.label(for: "usd_24h_change") == "USD 24h change")
        #expect(ItemShapeDetector.label(for: "avgLatencyMs") == "Avg latency")
        #expect(ItemShapeDetector.label(for: "price") == "Price")
        #expect(ItemShapeDetector.label(for: "_") == "_")
        // CoinCap's camel case, a span of time after its number.
        #expect(ItemShapeDetector.label(for: "volumeUsd24Hr") == "Volume USD 24h")
        #expect(ItemShapeDetector.label(for: "changePercent24Hr") == "Change % 24h")
        #expect(ItemShapeDetector.label(for: "vwap24Hr") == "VWAP 24h")
        #expect(ItemShapeDetector.label(for: "last_7_d") == "Last 7d")
        #expect(ItemShapeDetector.label(for: "sha256") == "Sha256")
        #expect(ItemShapeDetector.label(for: "dev_eui") == "Dev EUI")
        #expect(ItemShapeDetector.label(for: "iid") == "IID")
        // A count by what it counts.
        #expect(ItemShapeDetector.label(for: "num_comments") == "Comments")
        #expect(ItemShapeDetector.label(for: "num_bikes_available") == "Bikes available")
        #expect(ItemShapeDetector.label(for: "number_of_employees") == "Employees")
        #expect(ItemShapeDetector.label(for: "number") == "Number" && ItemShapeDetector.label(for: "num") == "Num")
        #expect(!ItemShapeDetector.isCodeWord("number_of_bikes"), "a count, not a code")
        #expect(ItemShapeDetector.label(for: "temperature_2m") == "Temperature 2m")
        // WeatherAPI's units of measure, headed as Open-Meteo's are; ambiguous ones as named.
        let weather = ["temp_c", "feelslike_f", "wind_kph", "precip_mm", "pressure_mb", "tempC", "c", "uptime_m"]
        #expect(
            weather.map { ItemShapeDetector.label(for: $0) } == [
                "Temp (°C)", "Feelslike (°F)", "Wind (km/h)", "Precip (mm)", "Pressure mb", "Temp (°C)", "C",
                "Uptime m",
            ])
    }

    @Test("plain numbers sent as text are quantities (CoinCap), but codes: ids, versions, postcodes, leading zeros")
    func numbersSentAsText() throws {
        let coins = try reading(
            #"""
            {"data": [
              {"id": "bitcoin", "rank": "1", "symbol": "BTC", "priceUsd": "43210.1234567890123456",
               "changePercent24Hr": "-1.2345000000000000", "zip": "02139", "version": "1.2", "flight_number": "117"},
              {"id": "ethereum", "rank": "2", "symbol": "ETH", "priceUsd": "2290.5512300000000000",
               "changePercent24Hr": "0.5100000000000000", "zip": "10115", "version": "1.3", "flight_number": "920"}
            ], "timestamp": 1796040000000}
            """#
        ).profile
        let formats = Dictionary(uniqueKeysWithValues: coins.columns.map { ($0.name, $0.format) })
        #expect(formats["priceUsd"] == .number, "\(coins.columns)")
        #expect(formats["changePercent24Hr"] == .percent)
        for code in ["id", "zip", "version", "flight_number", "rank"] {
            #expect(formats[code] != .number, "\(code) is a code: \(coins.columns)")
        }
    }

    @Test("`--column` values: label, pointer and format, and what is wrong with a bad one")
    func columnParsing() throws {
        let price = try ItemColumn(parsing: "Price=/price:number")
        #expect(price.label == "Price" && price.name == "price" && price.format == .number)
        #expect(price.pointer == (try JSONPointer("/price")))
        let plain = try ItemColumn(parsing: "Owner login=/owner/login")
        #expect(plain.format == .automatic && plain.name == "owner-login")
        let status = try ItemColumn(parsing: "Build=/state:status(green=good,red=bad)")
        guard case .status(let tones) = status.format else {
            Issue.record("not a status: \(status.format)")
            return
        }
        #expect(tones.tone(of: "GREEN") == .good && tones.tone(of: "red") == .bad && tones.tone(of: "running") == .busy)
        #expect(throws: ItemColumn.ParseError.noPointer) { try ItemColumn(parsing: "Price") }
        #expect(throws: ItemColumn.ParseError.emptyLabel) { try ItemColumn(parsing: " =/price") }
        #expect(throws: ItemColumn.ParseError.unknownFormat("currency")) {
            try ItemColumn(parsing: "P=/price:currency")
        }
        #expect(throws: ItemColumn.ParseError.self) { try ItemColumn(parsing: "P=price") }
        #expect(throws: ItemColumn.ParseError.self) { try ItemColumn(parsing: "P=/a~2") }
        #expect(throws: ItemColumn.ParseError.unknownFormat("status(x=ugly)")) {
            try ItemColumn(parsing: "S=/s:status(x=ugly)")
        }
    }

    @Test("`--sort` values")
    func sortParsing() {
        #expect(ItemSort(parsing: "price") == ItemSort(column: "price", descending: false))
        #expect(ItemSort(parsing: "price:desc") == ItemSort(column: "price", descending: true))
        #expect(ItemSort(parsing: "-price") == ItemSort(column: "price", descending: true))
        #expect(ItemSort(parsing: "price:asc") == ItemSort(column: "price", descending: false))
        #expect(ItemSort(parsing: "") == nil)
        #expect(ItemSort(parsing: "a:b") == nil)
    }

    @Test("two items: keyed by a text that names them, so a new reading is the same item; not by a state or a figure")
    func twoItemsKeyed() throws {
        let sensors = #"""
            [{"sensor": "greenhouse", "temperature": 21.5, "status": "ok"},
             {"sensor": "shed", "temperature": 7.25, "status": "low battery"}]
            """#
        let found = try reading(sensors)
        #expect(found.profile.keyPath == (try JSONPointer("/sensor")), "\(found.notes)")
        let extractor = ItemExtractor(profile: found.profile)
        let before = extractor.items(in: try JSONValue(parsing: sensors))
        let after = extractor.items(in: try JSONValue(parsing: sensors.replacing("21.5", with: "22.0")))
        #expect(before.map(\.key) == after.map(\.key))
        #expect(before.map(\.key) == ["greenhouse", "shed"])

        // Two items that differ only in a state, a figure sent as text or a status-named
        // text are keyed by their content, as before.
        for document in [
            #"[{"host": "a.example", "state": "up"}, {"host": "a.example", "state": "down"}]"#,
            #"[{"region": "eu", "level": "3.5"}, {"region": "eu", "level": "4.5"}]"#,
            #"[{"region": "eu", "health": "amber"}, {"region": "eu", "health": "blue"}]"#,
        ] {
            #expect(try reading(document).profile.keyPath == nil, "\(document)")
        }
    }

    @Test("a text column that repeats another item by item is left out; numbers and one repeated text stay")
    func repeatedTexts() throws {
        let found = try reading(
            #"""
            [{"host": "a", "region": "eu", "zone": "eu", "kind": "vm", "type": "vm", "errors": 0, "retries": 0},
             {"host": "b", "region": "us", "zone": "us", "kind": "vm", "type": "vm", "errors": 0, "retries": 0},
             {"host": "c", "region": "ap", "zone": "ap", "kind": "vm", "type": "vm", "errors": 0, "retries": 0}]
            """#)
        let names = found.profile.columns.map { $0.pointer.description }
        #expect(names.contains("/region") && !names.contains("/zone"), "\(names)")
        #expect(names.contains("/kind") && names.contains("/type"), "one value in every item is no repeat: \(names)")
        #expect(names.contains("/errors") && names.contains("/retries"), "numbers are no repeat: \(names)")
        // Two items may agree by chance: both columns stay.
        let two = try reading(
            #"[{"id": 1, "created_by": "ann", "updated_by": "ann"}, {"id": 2, "created_by": "bob", "updated_by": "bob"}]"#
        )
        #expect(two.profile.columns.contains { $0.name == "updated_by" }, "\(two.profile.columns.map(\.name))")
    }

    @Test("addresses through a versioned API are for programs; a health endpoint's and a page's are not")
    func versionedAPIAddresses() throws {
        func shown(_ urls: [String]) throws -> Bool {
            let items = urls.enumerated().map { #"{"name": "c\#($0.offset)", "link": "\#($0.element)"}"# }
            let found = try reading("[" + items.joined(separator: ",") + "]")
            return found.profile.columns.contains { $0.pointer.description == "/link" }
        }
        #expect(
            try !shown([
                "https://healthchecks.io/api/v3/checks/5f2c/pause", "https://healthchecks.io/api/v3/checks/6a/pause",
            ]))
        #expect(try !shown(["https://gitlab.com/api/v4/projects/7", "https://sentry.io/api/0/issues/9/"]))
        #expect(
            try !shown([
                "https://jira.example/rest/api/2/issue/10001?expand=x", "https://jira.example/rest/api/2/issue/2",
            ]))
        #expect(try shown(["https://app.example/api/health", "https://b.example/api/health"]))
        #expect(try shown(["https://app.example/docs/api/v2", "https://b.example/docs/api/v3"]), "a page about an API")
        #expect(
            try shown(["https://healthchecks.io/projects/5f2c/checks/", "https://healthchecks.io/projects/6a/checks/"]))
    }

    @Test("a moment to come named so (a check's next_ping) is shown as time from now, as a past one is")
    func momentToCome() throws {
        let found = try reading(
            #"""
            [{"name": "a", "next_ping": "2026-12-01T01:45:11+00:00", "schedule": "2026-12-01T01:45:11+00:00"},
             {"name": "b", "next_ping": "2026-12-01T02:15:00+00:00", "schedule": "2026-12-01T03:00:00+00:00"}]
            """#)
        let formats = Dictionary(uniqueKeysWithValues: found.profile.columns.map { ($0.name, $0.format) })
        #expect(formats["next_ping"] == .relative, "\(formats)")
        #expect(formats["schedule"] == .date, "a moment named by nothing is a date: \(formats)")
    }

    @Test("a Mastodon timeline: a status's content is HTML by its look, its decimal id read whole")
    func markupAndDecimalIDs() throws {
        let statuses = (0..<4).map { index in
            #"""
            {"id": "11300000000000000\#(index)", "created_at": "2026-11-30T10:0\#(index):00.000Z",
             "content": "<p>Hello <a href=\"https://m.example/tags/swift\" class=\"hashtag\">#<span>swift</span></a> \#(index)</p>",
             "account": {"id": "\#(index)", "username": "a\#(index)"}, "replies_count": \#(index)}
            """#
        }
        let reading = try reading("[\(statuses.joined(separator: ","))]")
        #expect(reading.profile.keyPath == (try JSONPointer("/id")))
        let content = try #require(reading.profile.columns.first { $0.name == "content" })
        #expect(content.format == .html)
        #expect(ItemShapeDetector.shortDigest("113000000000000001") == nil, "a decimal id is no digest")
        #expect(ItemShapeDetector.shortDigest("sha256:4f5a9c0e12ab34cd56ef78904f5a9c0e") == "4f5a9c0e12ab")
        #expect(ItemShapeDetector.shortDigest("40000000000000000000000000000000000000a1") == "400000000000")
    }

    @Test("a serializer's and a vocabulary's markers are for programs; Logstash's @timestamp is the item's")
    func vocabularyMarkers() throws {
        let alerts = (0..<4).map { index in
            #"""
            {"$type": "Tfl.Api.Prediction, Tfl.Api", "@id": "https://api.example/alerts/\#(index)", "@type": "wx:Alert",
             "@odata.etag": "W/\"\#(index)\"", "@timestamp": "2026-11-30T10:0\#(index):00Z", "event": "Wind \#(index)",
             "severity": "\#(["Severe", "Minor"][index % 2])"}
            """#
        }
        let columns = try reading("[\(alerts.joined(separator: ","))]").profile.columns.map(\.name)
        #expect(columns.contains("@timestamp") && columns.contains("event"), "\(columns)")
        for marker in ["$type", "@id", "@type", "@odata.etag"] {
            #expect(!columns.contains(marker), "\(marker) in \(columns)")
        }
    }

    @Test("an array of texts is a list, each text an item keyed by itself, under the array's name if it says one")
    func texts() throws {
        let labels = try reading(#"{"status": "success", "data": ["node", "prometheus", "blackbox"]}"#)
        #expect(labels.profile.itemsPath == (try JSONPointer("/data")), "\(labels.notes)")
        #expect(labels.profile.itemsForm == .texts(valueMember: "value"))
        #expect(labels.profile.columns.map(\.label) == ["Value"])
        let catalog = try reading(#"{"repositories": ["acme/api", "acme/web", "library/nginx"]}"#)
        #expect(catalog.profile.itemsForm == .texts(valueMember: "repositories"), "\(catalog.notes)")
        #expect(catalog.profile.keyPath == (try JSONPointer("/repositories")))
        #expect(catalog.profile.columns.map(\.label) == ["Repositories"])
        let items = ItemExtractor(profile: catalog.profile).items(
            in: try JSONValue(parsing: #"{"repositories": ["acme/api", "", 7, "acme/api", "acme/web"]}"#))
        #expect(items.map(\.title) == ["acme/api", "acme/web"], "empty texts, other values and repeats left out")
        let online = try reading(#"["alice", "bob", "carol"]"#)
        #expect(online.profile.itemsPath == .root && online.profile.itemsForm == .texts(valueMember: "value"))
        // A thing's values with a list among them are its values; ids alone are no list.
        let thing = try reading(#"{"name": "web", "version": "1.2", "replicas": 3, "tags": ["a", "b"]}"#)
        #expect(thing.profile.itemsForm != .texts(valueMember: "tags"), "\(thing.notes)")
        // Given, even a list of one text, or one beside a larger list, is read.
        var given = ItemProfile.Overrides()
        given.itemsPath = try JSONPointer("/jobs")
        let one = try reading(#"{"jobs": ["node"], "hosts": ["a", "b", "c"]}"#, given)
        #expect(one.profile.itemsForm == .texts(valueMember: "jobs") && one.profile.itemsPath == given.itemsPath)
        #expect(one.notes.first?.contains("as given") == true, "\(one.notes)")
        let ids = try reading("[41, 42, 43]")
        #expect(ids.origin == .undecided)
        #expect(ids.notes.first?.contains("3 numbers, ids perhaps") == true, "\(ids.notes)")
    }

    @Test("an API's own paths are for programs; a time named …_on is a moment near now")
    func apiPathsAndTimesOn() throws {
        let crates = ["serde", "tokio", "rand"].map { name in
            #"""
            {"id": "\#(name)", "name": "\#(name)", "downloads": 100, "created_on": "2026-11-30T10:00:00Z",
             "links": {"owners": "/api/v1/crates/\#(name)/owners", "page": "/crates/\#(name)"}}
            """#
        }
        let reading = try reading(#"{"crates": [\#(crates.joined(separator: ","))]}"#)
        let shown = reading.profile.columns.map(\.pointer.description)
        #expect(!shown.contains("/links/owners"), "\(shown)")
        #expect(shown.contains("/links/page"), "a path that is no API's stays: \(shown)")
        let created = try #require(reading.profile.columns.first { $0.name == "created_on" })
        #expect(created.format == .relative)
        #expect(
            ItemShapeDetector.shownFormat(named: "activatedOn", samples: [.string("2026-11-30T10:00:00Z")]) == .relative
        )
        #expect(ItemShapeDetector.shownFormat(named: "Addon", samples: [.string("2026-11-30T10:00:00Z")]) == .date)
    }

    @Test("text sent escaped for HTML is a column of text read, a title read")
    func escapedText() throws {
        let questions = (0..<4).map { index in
            #"{"question_id": \#(index), "title": "Use &quot;Sendable&quot; \#(index)", "tag": "a &lt; b"}"#
        }
        let text = #"{"items": [\#(questions.joined(separator: ","))]}"#
        let found = try reading(text)
        let title = try #require(found.profile.columns.first { $0.name == "title" })
        #expect(title.format == .html, "\(found.notes)")
        let items = ItemExtractor(profile: found.profile).items(in: try JSONValue(parsing: text))
        #expect(items.first?.title == #"Use "Sendable" 0"#)
        // A column with a tag in one item is no escaped text.
        let mixed = try reading(#"[{"id": 1, "note": "Q&amp;A"}, {"id": 2, "note": "<b>x</b> y"}]"#)
        #expect(mixed.profile.columns.first { $0.name == "note" }?.format != .html)
    }

    @Test("CoinMarketCap's listings: an object of one object shows its values, headed with the currency it is in")
    func quoteInACurrency() throws {
        let coins = [("Bitcoin", 96123.45), ("Ethereum", 3612.2), ("Solana", 231.5)].enumerated().map { index, coin in
            #"""
            {"id": \#(index + 1), "name": "\#(coin.0)", "cmc_rank": \#(index + 1),
             "quote": {"USD": {"price": \#(coin.1), "percent_change_24h": -1.25, "market_cap": 1.9e12, "tvl": null}}}
            """#
        }
        let found = try reading(#"{"status": {"error_code": 0}, "data": [\#(coins.joined(separator: ","))]}"#)
        let columns = found.profile.columns
        let price = try #require(columns.first { $0.pointer.description == "/quote/USD/price" }, "\(found.notes)")
        #expect(price.label == "Price (USD)")
        let change = try #require(columns.first { $0.pointer.description == "/quote/USD/percent_change_24h" })
        #expect(change.format == .percent)
        #expect(!columns.contains { $0.pointer.description == "/quote" }, "no summary of one field")
        // Objects of one object by different names (one item priced in EUR) are no such thing.
        let mixed = try reading(
            #"[{"id": 1, "quote": {"USD": {"price": 1}}}, {"id": 2, "quote": {"EUR": {"price": 2}}}, {"id": 3, "quote": {"USD": {"price": 3}}}]"#
        )
        #expect(!mixed.profile.columns.contains { $0.pointer.tokens.count == 3 }, "\(mixed.notes)")
    }

    @Test("GitHub's commits: keyed by their sha, titled by their message's first line, dated when written")
    func commits() throws {
        let commits = (0..<4).map { index in
            let sha = String(repeating: String(index), count: 40)
            return #"""
                {"sha": "\#(sha)", "node_id": "C_\#(index)",
                 "url": "https://api.github.com/repos/a/b/commits/\#(index)",
                 "html_url": "https://github.com/a/b/commit/\#(index)",
                 "commit": {"message": "Fix race \#(index)\n\nThe sender saw a stale cursor.", "url": "https://api.github.com/x/\#(index)",
                            "comment_count": 0, "author": {"name": "Dev", "date": "2026-11-30T1\#(index):00:00Z"},
                            "committer": {"name": "GitHub", "date": "2026-11-30T12:00:00Z"}},
                 "author": {"login": "dev\#(index)", "id": \#(100 + index)}}
                """#
        }
        let text = "[\(commits.joined(separator: ","))]"
        let found = try reading(text)
        #expect(found.profile.keyPath == (try JSONPointer("/sha")), "\(found.notes)")
        #expect(found.profile.fields[.title] == (try JSONPointer("/commit/message")))
        let items = ItemExtractor(profile: found.profile).items(in: try JSONValue(parsing: text))
        #expect(items.map(\.title) == (0..<4).map { "Fix race \($0)" })
        // When it was written, two objects down, is a column: the first moment there.
        let written = found.profile.columns.filter { $0.pointer.description.hasSuffix("/date") }
        #expect(written.map(\.pointer.description) == ["/commit/author/date"], "\(found.notes)")
        #expect(written.first?.label == "Author date")
        // An object with a moment of its own shows that one, not one further down.
        let own = try reading(
            #"[{"id": "a", "build": {"started_at": "2026-11-30T10:00:00Z", "by": {"at": "2026-11-30T09:00:00Z"}}}, {"id": "b", "build": {"started_at": "2026-11-30T11:00:00Z", "by": {"at": "2026-11-30T08:00:00Z"}}}]"#
        )
        let shown = own.profile.columns.map(\.pointer.description)
        #expect(shown.contains("/build/started_at") && !shown.contains("/build/by/at"), "\(shown)")
    }

    @Test("Vercel's deployments: a whole number within a day of a moment in milliseconds is a moment; a count is not")
    func momentsBesideMilliseconds() throws {
        let deployments = (0..<3).map { index in
            let created = 1_764_570_000_000 + index * 600_000
            return #"""
                {"uid": "dpl_\#(index)", "url": "web-\#(index).vercel.app", "created": \#(created),
                 "ready": \#(created + 60_000), "state": "READY", "size": \#(1_000 + index),
                 "market_cap": \#(1_342_525_352_344 + index)}
                """#
        }
        let found = try reading(#"{"deployments": [\#(deployments.joined(separator: ","))]}"#)
        func format(_ name: String) -> ItemColumn.Format? { found.profile.columns.first { $0.name == name }?.format }
        #expect(format("created") == .relative && format("ready") == .relative, "\(found.notes)")
        #expect(format("market_cap") == .number, "a figure nowhere near the moment stays a figure")
        // Without a moment in milliseconds, the same number is a number.
        let alone = try reading(#"[{"id": 1, "ready": 1764570060000}, {"id": 2, "ready": 1764570660000}]"#)
        #expect(alone.profile.columns.first { $0.name == "ready" }?.format == .number, "\(alone.notes)")
    }

    @Test("OpenWeather's clouds and Bitbucket's duration: a thing's one vague value is the thing's; a unit's 'in' goes")
    func headingsOfOneValueAndUnits() throws {
        let cities = (0..<3).map { index in
            #"{"id": \#(index), "name": "City \#(index)", "clouds": {"all": \#(index * 20)}, "wind": {"speed": 4.\#(index), "deg": 240}}"#
        }
        let weather = try reading(#"{"cnt": 3, "list": [\#(cities.joined(separator: ","))]}"#)
        func label(_ found: ItemReading, _ path: String) -> String? {
            found.profile.columns.first { $0.pointer.description == path }?.label
        }
        #expect(label(weather, "/clouds/all") == "Clouds", "\(weather.notes)")
        // Among more members than a table shows, a lone small thing's texts stay (its weather).
        let many = (0..<3).map { index in
            let more = (0..<14).map { #""m\#($0)": "v\#($0)-\#(index)""# }.joined(separator: ", ")
            return #"{"id": \#(index), "weather": [{"id": 800, "main": "Clear", "icon": "01d"}], \#(more)}"#
        }
        let crowded = try reading("[\(many.joined(separator: ","))]")
        #expect(label(crowded, "/weather") == "Weather", "\(crowded.notes)")
        #expect(label(weather, "/wind/speed") == "Wind speed", "two values: each qualified, as before")
        #expect(ItemShapeDetector.label(for: "duration_in_seconds", shownAs: .duration(.seconds)) == "Duration")
        #expect(ItemShapeDetector.label(for: "uptime_seconds", shownAs: .duration(.seconds)) == "Uptime")
    }

    @Test(
        "CircleCI's pipelines titled by their commit's subject two objects down; Bitbucket's by their build number, not a UUID"
    )
    func titlesDeeperOrByNumber() throws {
        let pipelines = (0..<3).map { index in
            #"""
            {"id": "\#(index)0000000-1111-2222-3333-444444444444", "number": \#(900 + index), "state": "created",
             "vcs": {"branch": "main", "revision": "\#(String(repeating: String(index), count: 40))",
                     "commit": {"subject": "Make it faster \#(index)", "body": ""}}}
            """#
        }
        let circle = try reading(#"{"items": [\#(pipelines.joined(separator: ","))]}"#)
        let subject = try JSONPointer("/vcs/commit/subject")
        #expect(circle.profile.fields[.title] == subject, "\(circle.notes)")
        #expect(circle.profile.columns.first?.pointer == subject, "the title is a column, first")
        let builds = (0..<3).map { index in
            #"""
            {"uuid": "{\#(index)abcdef0-aaaa-bbbb-cccc-dddddddddddd}", "build_number": \#(300 + index),
             "state": {"name": "COMPLETED"}, "created_on": "2026-12-01T0\#(index):00:00Z"}
            """#
        }
        let bitbucket = try reading(#"{"values": [\#(builds.joined(separator: ","))]}"#)
        #expect(bitbucket.profile.keyPath == (try JSONPointer("/uuid")), "\(bitbucket.notes)")
        #expect(bitbucket.profile.fields[.title] == (try JSONPointer("/build_number")), "\(bitbucket.notes)")
        #expect(bitbucket.profile.columns.last?.pointer == (try JSONPointer("/uuid")), "a UUID in braces goes last")
    }

    @Test("weather.gov's forecast: a quantity with its unit is one column; no time filters the periods")
    func forecastQuantities() throws {
        let names = ["Tonight", "Wednesday", "Wednesday Night", "Thursday", "Thursday Night"]
        let periods = names.enumerated().map { index, name in
            #"""
            {"number": \#(index + 1), "name": "\#(name)", "endTime": "2026-12-0\#(2 + index / 2)T06:00:00-05:00",
             "temperature": \#(38 + index), "probabilityOfPrecipitation": {"unitCode": "wmoUnit:percent", "value": \#(index == 1 ? "null" : String(index * 10))},
             "dewpoint": {"unitCode": "wmoUnit:degC", "value": \#(index).5}, "shortForecast": "Sunny"}
            """#
        }
        let found = try reading(
            #"{"type": "Feature", "properties": {"periods": [\#(periods.joined(separator: ","))]}}"#)
        #expect(found.profile.fields[.section] == nil, "\(found.notes)")
        let columns = found.profile.columns
        let rain = columns.first { $0.pointer.description == "/probabilityOfPrecipitation/value" }
        #expect(rain?.label == "Probability of precipitation" && rain?.format == .percent, "\(found.notes)")
        let dew = columns.first { $0.pointer.description == "/dewpoint/value" }
        #expect(dew?.label == "Dewpoint (°C)" && dew?.format == .number, "\(found.notes)")
        #expect(!columns.contains { $0.pointer.tokens.last == "unitCode" }, "the unit is in the heading, not a column")
    }

    @Test("a share of the way done from 0 to 1 is a fraction; a count of 0 or 1 is not")
    func sharesDone() throws {
        let torrents = try reading(
            #"[{"id": 1, "name": "a", "percentDone": 1, "progress": 0.42}, {"id": 2, "name": "b", "percentDone": 0.37, "progress": 1}, {"id": 3, "name": "c", "percentDone": 0, "progress": 0}]"#
        )
        func format(_ found: ItemReading, _ name: String) -> ItemColumn.Format? {
            found.profile.columns.first { $0.name == name }?.format
        }
        #expect(format(torrents, "percentDone") == .fraction && format(torrents, "progress") == .fraction)
        let counts = try reading(
            #"[{"id": 1, "completed": 1}, {"id": 2, "completed": 0}, {"id": 3, "completed": 1}, {"id": 4, "completed": 0}]"#
        )
        #expect(format(counts, "completed") != .fraction, "\(counts.notes)")
        #expect(ItemColumn.Format(name: "fraction") == .fraction && ItemColumn.Format.fraction.name == "fraction")
        // Time taken (Strava's activities): a duration in seconds.
        let activities = try reading(
            #"[{"id": 1, "name": "Run", "moving_time": 3120, "elapsed_time": 3300}, {"id": 2, "name": "Ride", "moving_time": 5400, "elapsed_time": 6000}]"#
        )
        #expect(format(activities, "moving_time") == .duration(.seconds), "\(activities.notes)")
        #expect(format(activities, "elapsed_time") == .duration(.seconds), "\(activities.notes)")
    }

    @Test(
        "conditions as Kubernetes lists them: a Ready column where the status holds none of its own; the format by name"
    )
    func conditions() throws {
        func node(_ index: Int, _ ready: String) -> String {
            #"{"metadata": {"name": "n\#(index)"}, "status": {"conditions": [{"type": "DiskPressure", "status": "False"}, {"type": "Ready", "status": "\#(ready)"}], "nodeInfo": {"kubeletVersion": "v1"}}}"#
        }
        let nodes = try reading(#"{"items": [\#(node(0, "True")), \#(node(1, "False")), \#(node(2, "Unknown"))]}"#)
        let ready = nodes.profile.columns.first { $0.format == .condition("Ready") }
        #expect(ready?.pointer == (try JSONPointer("/status/conditions")) && ready?.label == "Ready", "\(nodes.notes)")
        let items = try JSONValue(parsing: node(1, "False"))
        #expect(
            ItemCondition.status(in: items.value(at: try JSONPointer("/status/conditions")), type: "Ready") == "False")
        // Conditions of their own, at the top: the same.
        let own = try reading(
            #"[{"name": "a", "conditions": [{"type": "Available", "status": "True"}]}, {"name": "b", "conditions": [{"type": "Available", "status": "False"}]}]"#
        )
        #expect(own.profile.columns.contains { $0.format == .condition("Available") }, "\(own.notes)")
        // A status with plain members of its own (a pod's phase) shows those.
        let pods = try reading(
            #"[{"name": "p0", "status": {"phase": "Running", "conditions": [{"type": "Ready", "status": "True"}]}}, {"name": "p1", "status": {"phase": "Pending", "conditions": [{"type": "Ready", "status": "False"}]}}]"#
        )
        #expect(!pods.profile.columns.contains { $0.format == .condition("Ready") }, "\(pods.notes)")
        #expect(ItemColumn.Format(name: "condition(Ready)") == .condition("Ready"))
        #expect(ItemColumn.Format.condition("Ready").name == "condition(Ready)")
        #expect(ItemColumn.Format(name: "condition()") == nil)
    }

    @Test("aviationstack's flights: keyed by the flight's code one level down; where each leg is, and when")
    func flights() throws {
        let flights = (0..<4).map { index in
            #"""
            {"flight_date": "2026-12-01", "flight_status": "\#(index < 2 ? "active" : "scheduled")",
             "departure": {"airport": "Heathrow", "timezone": "Europe/London", "iata": "LHR", "terminal": "5",
                           "gate": "C\#(index)", "delay": null, "scheduled": "2026-12-01T1\#(index):00:00+00:00",
                           "estimated": "2026-12-01T1\#(index):05:00+00:00", "actual": null},
             "arrival": {"airport": "John F Kennedy International", "iata": "JFK", "terminal": "7", "gate": null,
                         "baggage": null, "delay": null, "scheduled": "2026-12-01T2\#(index):00:00+00:00",
                         "estimated": null, "actual": null},
             "airline": {"name": "British Airways", "iata": "BA", "icao": "BAW"},
             "flight": {"number": "10\#(index)", "iata": "BA10\#(index)", "icao": "BAW10\#(index)", "codeshared": null},
             "aircraft": null, "live": null}
            """#
        }
        let text = #"{"pagination": {"limit": 100, "count": 4}, "data": [\#(flights.joined(separator: ","))]}"#
        let found = try reading(text)
        #expect(found.profile.keyPath == (try JSONPointer("/flight/iata")), "\(found.notes)")
        let columns = found.profile.columns
        func label(_ path: String) -> String? { columns.first { $0.pointer.description == path }?.label }
        #expect(label("/departure/airport") == "Departure", "\(found.notes)")
        #expect(label("/departure/scheduled") == "Departure scheduled", "\(found.notes)")
        #expect(label("/arrival/airport") == "Arrival" && label("/arrival/scheduled") == "Arrival scheduled")
        #expect(label("/flight/iata") == "Flight IATA" && label("/flight/number") == "Flight number")
        #expect(label("/airline/name") == "Airline")
        let items = ItemExtractor(profile: found.profile).items(in: try JSONValue(parsing: text))
        #expect(items.map(\.key) == ["BA100", "BA101", "BA102", "BA103"])
        // Of two items, or an id one level down (an author's), no such key: a hash.
        let two = try reading(#"{"data": [\#(flights.prefix(2).joined(separator: ","))]}"#)
        #expect(two.profile.keyPath == nil, "\(two.notes)")
        let authored = try reading(
            #"[{"text": "a", "author": {"id": "U1A"}}, {"text": "b", "author": {"id": "U2B"}}, {"text": "c", "author": {"id": "U3C"}}]"#
        )
        #expect(authored.profile.keyPath != (try JSONPointer("/author/id")), "\(authored.notes)")
    }

    @Test("YouTube's search results: a snippet is an envelope, an id of ids keys them, etag and kind are for programs")
    func youTubeSearch() throws {
        let results = (0..<4).map { index in
            #"""
            {"kind": "youtube#searchResult", "etag": "e\#(index)x", "id": {"kind": "youtube#video", "videoId": "v\#(index)abc"},
             "snippet": {"publishedAt": "2026-11-30T1\#(index):00:00Z", "title": "Talk \#(index)", "channelTitle": "Swift Talks"}}
            """#
        }
        let found = try reading(
            #"{"kind": "youtube#searchListResponse", "items": [\#(results.joined(separator: ","))]}"#)
        #expect(found.profile.keyPath == (try JSONPointer("/id/videoId")), "\(found.notes)")
        #expect(found.profile.fields[.title] == (try JSONPointer("/snippet/title")))
        let shown = found.profile.columns.map(\.pointer.description)
        #expect(!shown.contains("/etag") && !shown.contains("/kind") && !shown.contains("/id/kind"), "\(shown)")
        #expect(shown.contains("/snippet/channelTitle") && shown.contains("/snippet/publishedAt"), "\(shown)")
        // A kind that differs item by item, or has no `#`, is the item's own.
        let kinds = try reading(
            #"[{"id": 1, "kind": "a#b", "name": "x"}, {"id": 2, "kind": "c#d", "name": "y"}, {"id": 3, "kind": "a#b", "name": "z"}]"#
        )
        #expect(kinds.profile.columns.contains { $0.name == "kind" }, "\(kinds.notes)")
        let pods = try reading(#"[{"id": 1, "kind": "Pod", "name": "x"}, {"id": 2, "kind": "Pod", "name": "y"}]"#)
        #expect(pods.profile.columns.contains { $0.name == "kind" }, "\(pods.notes)")
    }

    @Test("a status of one value gives way to a named filter of several; alone, it is the filter")
    func oneValueStatus() throws {
        let levels = ["error", "warning", "fatal", "error", "warning"]
        func issues(levels: [String]) -> String {
            let each = levels.enumerated().map { index, level in
                #"{"id": "\#(4000 + index)", "title": "TypeError \#(index)", "status": "unresolved", "level": "\#(level)"}"#
            }
            return "[\(each.joined(separator: ","))]"
        }
        let sentry = try reading(issues(levels: levels))
        #expect(sentry.profile.fields[.section] == (try JSONPointer("/level")), "\(sentry.notes)")
        // The same issues all of one level: the status, though of one value, is the filter.
        let alike = try reading(issues(levels: Array(repeating: "error", count: levels.count)))
        #expect(alike.profile.fields[.section] == (try JSONPointer("/status")), "\(alike.notes)")
        // weather.gov's alerts: every one `Actual`, of three severities.
        let alerts = ["Severe", "Moderate", "Minor", "Moderate"].enumerated().map { index, severity in
            #"{"id": "urn:oid:\#(index)", "properties": {"headline": "Alert \#(index)", "status": "Actual", "severity": "\#(severity)"}}"#
        }
        let nws = try reading(#"{"type": "FeatureCollection", "features": [\#(alerts.joined(separator: ","))]}"#)
        #expect(nws.profile.fields[.section] == (try JSONPointer("/properties/severity")), "\(nws.notes)")
    }

    @Test("a sentence with a number in it is no filter value: Docker's containers by their State, not their Status")
    func countedSentences() throws {
        let containers = [
            ("running", "Up 2 hours (healthy)"), ("running", "Up 3 days"), ("exited", "Exited (1) 5 minutes ago"),
            ("running", "Up 2 hours (healthy)"), ("restarting", "Restarting (1) 3 seconds ago"),
        ].enumerated().map { index, container in
            #"{"Id": "\#(index)abc", "Names": ["/app-\#(index)"], "State": "\#(container.0)", "Status": "\#(container.1)"}"#
        }
        let docker = try reading("[\(containers.joined(separator: ","))]")
        #expect(docker.profile.fields[.section] == (try JSONPointer("/State")), "\(docker.notes)")
        // Words without a number are values to filter by.
        let worded = ["Up and healthy", "Up and healthy", "Down for maintenance", "Up and healthy"].enumerated().map {
            #"{"name": "svc\#($0.offset)", "status": "\#($0.element)"}"#
        }
        let services = try reading("[\(worded.joined(separator: ","))]")
        #expect(services.profile.fields[.section] == (try JSONPointer("/status")), "\(services.notes)")
    }

    @Test("Sentry's issues: a level of error, warning or fatal is a status, fatal as bad as an error")
    func logLevels() throws {
        let issues = ["error", "warning", "fatal", "error"].enumerated().map { index, level in
            #"{"id": "\#(4000 + index)", "title": "TypeError \#(index)", "level": "\#(level)", "count": "\#(index * 7)"}"#
        }
        let columns = try reading("[\(issues.joined(separator: ","))]").profile.columns
        let level = try #require(columns.first { $0.name == "level" })
        guard case .status(let tones) = level.format else {
            Issue.record("level is \(level.format)")
            return
        }
        #expect(tones.tone(of: "fatal") == tones.tone(of: "error"))
        #expect(tones.tone(of: "fatal") != tones.tone(of: "warning"))
    }

    @Test("a key given (--key-path) is the reading's from the start: the title falls back to it, the filter is another")
    func givenKey() throws {
        let ticks = (1...8).map { n in
            #"{"type":"ticker","sequence":\#(n),"product_id":"\#(n % 2 == 0 ? "BTC-USD" : "ETH-USD")","#
                + #""best_bid":"\#(100 + n).5","side":"\#(n % 3 == 0 ? "buy" : "sell")"}"#
        }
        var overrides = ItemProfile.Overrides()
        overrides.keyPath = .at(try JSONPointer("/product_id"))
        let given = try reading("[" + ticks.joined(separator: ",") + "]", overrides)
        #expect(given.profile.keyPath == (try JSONPointer("/product_id")))
        #expect(given.profile.fields[.title] == (try JSONPointer("/product_id")), "\(given.notes)")
        #expect(given.notes.contains("key: /product_id, as given"), "\(given.notes)")
        #expect(!given.notes.joined().contains("best_bid, unique"), "no key of its own found: \(given.notes)")
        overrides.keyPath = .nowhere
        let none = try reading("[" + ticks.joined(separator: ",") + "]", overrides)
        #expect(none.profile.keyPath == nil)
        #expect(none.notes.contains { $0.hasPrefix("key: none, as given") }, "\(none.notes)")
    }
}
