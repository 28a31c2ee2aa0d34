/// Works out how to read a feed's items from one of its documents, for a feed started
/// without `--profile`: a pure function of the document and the options given.
///
/// 1. A document in the shape of a built-in profile is read with it (the NYT Times
///    Newswire, Google Books volumes, Wikimedia EventStreams events, a JSON Feed, the generic
///    title/summary items).
/// 2. Otherwise the items are the document when it is an array of objects, else the
///    largest array of objects among the document's members, ``maxItemsDepth`` levels deep
///    at most (ties: the shallower, then the first). Without one, the members of the largest
///    object whose members are all objects, at least two (`{"bitcoin": {…}, "ether": {…}}`),
///    are the items, each carrying its member's name (``ItemsForm/members(nameMember:)``);
///    without one, the rows of a series sent as arrays side by side (``ItemsForm/series``),
///    then the rows of a table sent as arrays of values, named by its first row or by its
///    column names beside it (``ItemsForm/rows(names:header:)``).
/// 3. Their key is a member with a unique, non-empty string or whole-number value in every
///    item, preferring the names of ``keyNames``, the item's own before one inside an
///    envelope (``ItemMemberPaths/envelopeNames``: a pod's `/metadata/name`); without
///    one, a hash of each item (``key(of:paths:arriveAlone:)``). An object's member is
///    keyed by its name.
/// 4. They are shown as a table of their own members and those one level down
///    (``columns(of:)``), with a title (the member that names an item), a filter (a
///    member with a few values, like a status, or a pod's `/status/phase`) and a link to
///    the original where the items have one.
///
/// Every part the options give (``ItemProfile/Overrides``) is taken as given.
public enum ItemShapeDetector {
    /// Member names that make a key, in order of preference.
    static let keyNames = [
        "id", "key", "uuid", "guid", "uri", "sha", "url", "slug", "symbol", "name", "code", "ticker", "sku", "number",
        "topic",
    ]
    /// Member names that name an item, in order of preference.
    static let titleNames = [
        "title", "display_title", "name", "headline", "label", "subject", "display_name", "full_name",
        "friendly_name", "symbol", "repo", "repository", "host", "service", "project", "summary", "message",
        // A post's own words, where nothing names it (a Mastodon status's `content`, a chat
        // message's `text`, a comment's `body`).
        "content", "text", "body",
    ]
    /// Of ``titleNames``, those that title an item even where other items have the same
    /// (``titleMember(of:paths:sides:)``).
    static let sharedTitleNames = ["title", "display_title", "headline", "subject", "summary", "message"]
    /// Of ``titleNames``, those of an item's body of words, which name it only where no
    /// title does (``titleMember(of:paths:sides:)``).
    static let bodyNames: Set<String> = ["summary", "message", "content", "text", "body"]
    /// Member names of a few values that make a filter, in order of preference: a health
    /// first (Elasticsearch's index `health`, green to red, before its `status`, open or
    /// closed; a Prometheus target's `health` before its scrape pool).
    static let filterNames = [
        "health", "status", "state", "category", "section", "type", "kind", "group", "level", "region", "exchange",
        "branch", "environment", "env", "team", "repo", "priority", "severity", "phase",
    ]
    /// Names of an object member that identifies an item by its contents (a series' labels),
    /// in order of preference: a key when no scalar member is one.
    static let labelNames = ["metric", "labels", "tags", "dimensions", "attributes", "series"]
    /// Names under which an item that is an object's member carries the member's name, in
    /// order of preference: the first that no item uses itself.
    static let nameMemberCandidates = ["name", "key", "member"]
    /// Member names of a link to the item's original.
    static let linkNames = ["url", "html_url", "web_url", "link", "href", "permalink"]
    /// How deep the items are looked for: an array of objects at most this many members
    /// down (a GraphQL answer's `/data/repository/issues/edges` is 4).
    static let maxItemsDepth = 5
    /// The most columns found (the item page shows every member).
    public static let maxColumns = 12
    /// How many items the columns are read from.
    static let sampledItems = 50

    /// How `document` is read: a profile decided (recognised or found), or undecided with
    /// what the document holds instead of items.
    public static func reading(of document: JSONValue, overrides: ItemProfile.Overrides) -> ItemReading {
        if let recognised = recognise(document, overrides: overrides) { return recognised }
        let located: (pointer: JSONPointer, items: [JSONValue], form: ItemsForm, note: String)
        switch locateItems(in: document, given: overrides.itemsPath) {
        case .found(let pointer, let items, let form, let note): located = (pointer, items, form, note)
        case .foundMembers(let pointer, let members, let note):
            // Each item carries its member's name under a name the items do not use.
            let name = nameMemberCandidates.first { name in !members.values.contains { $0[name] != nil } } ?? "name"
            let items = ItemExtractor.memberItems(of: .object(members), nameMember: name) ?? []
            located = (
                pointer, items, .members(nameMember: name),
                note + "; each carries its member's name as /\(escaped(name))"
            )
        case .missing(let why):
            return ItemReading(profile: overrides.applied(to: .table), origin: .undecided, notes: [why])
        }
        var profile = ItemProfile.table
        profile.itemsPath = located.pointer
        profile.itemsForm = located.form
        var notes = [located.note]
        let paths = ItemMemberPaths(of: located.items, sample: sampledItems)
        if let name = located.form.nameMember {
            // A member's name is unique in its object and is the item's identity.
            profile.keyPath = JSONPointer(tokens: [name])
            notes.append("key: /\(escaped(name)), each item's member name")
        } else if let given = overrides.keyPath {
            // `--key-path`: the title, the filter and the columns are chosen around it.
            if case .at(let key) = given {
                profile.keyPath = key
                notes.append("key: \(key), as given")
            } else {
                notes.append("key: none, as given; each item is keyed by a hash of its JSON")
            }
        } else if let key = key(of: located.items, paths: paths, arriveAlone: overrides.itemsArriveAlone) {
            profile.keyPath = key
            notes.append("key: \(key), unique in all \(located.items.count) items")
        } else {
            notes.append("key: no member is unique in every item; each item is keyed by a hash of its JSON")
        }
        let sides = matchSides(of: Array(located.items.prefix(sampledItems)))
        let title = titleMember(of: located.items, paths: paths, sides: sides?.home) ?? profile.keyPath
        if let title { profile.fields[.title] = title }
        if let sides, title == sides.home {
            profile.titleOpponent = sides.away
            profile.scores = matchScores(of: Array(located.items.prefix(sampledItems)), sides: sides)
            notes.append(
                "a match: titled \(sides.home) – \(sides.away)"
                    + (profile.scores.map { ", scored \($0.home) – \($0.away)" } ?? ""))
        }
        // Items that arrive alone are filtered once there are enough of them to tell a few
        // values that recur (a log's `level`) from any text (``ItemReading/settlingItems``).
        if !overrides.itemsArriveAlone || located.items.count >= ItemReading.settlingItems,
            let filter = filterMember(of: located.items, paths: paths, except: [profile.keyPath, title])
        {
            profile.fields[.section] = filter.pointer
            notes.append("filter: \(filter.pointer), \(filter.values) values")
        }
        if let link = linkNames.first(where: { name in
            let samples = located.items.prefix(sampledItems).compactMap { $0[name] }
            return samples.contains { isHTTPURL($0.stringValue) } && !isForPrograms(name, samples: samples)
        }) {
            profile.fields[.url] = JSONPointer(tokens: [link])
        }
        let units = units(beside: located.pointer, in: document)
        // Times sent without a zone are where the document says it is (Open-Meteo's
        // `utc_offset_seconds`), else at UTC.
        let localTimeOffset = document["utc_offset_seconds"]?.int64Value.map { Int(clamping: $0) } ?? 0
        profile.columns = columns(of: located.items, keeping: profile.keyPath, title: title).map { column in
            // An id is a name, not a quantity: no grouped digits.
            var column = column
            if column.pointer == profile.keyPath, column.format == .number { column.format = .text }
            if column.pointer.tokens.count == 1, let unit = units[column.pointer.tokens[0]] {
                column.label += " (\(unit))"
            }
            return column
        }
        // Named values of many kinds (a device's status: `uptime`, `unixtime`,
        // `temperature`): each formatted by its own name.
        if case .values(let nameMember, let valueMember) = located.form {
            for index in profile.columns.indices where profile.columns[index].pointer.tokens == [valueMember] {
                profile.columns[index].formatNamedBy = JSONPointer(tokens: [nameMember])
            }
        }
        let sampled = located.items.prefix(sampledItems)
        if sampled.count >= 3 {
            for index in profile.columns.indices {
                if case .status = profile.columns[index].format { continue }
                let pointer = profile.columns[index].pointer
                let first = sampled.first?.value(at: pointer)
                profile.columns[index].saysLittle =
                    first.map { !$0.isNull } == true && sampled.allSatisfy { $0.value(at: pointer) == first }
            }
        }
        if let (name, states) = stateWords(of: Array(sampled)) {
            for index in profile.columns.indices where profile.columns[index].name.lowercased() == name {
                if case .status = profile.columns[index].format { profile.columns[index].format = .status(states) }
            }
        }
        profile = overrides.applied(to: profile)
        for index in profile.columns.indices {
            let column = profile.columns[index]
            switch column.format {
            case .date, .relative:
                // A `--column`'s moments too.
                profile.columns[index].localTimeOffset = column.localTimeOffset ?? localTimeOffset
            case .number, .automatic:
                // One precision down a column of numbers of one kind.
                guard column.keepsOnePrecision else { break }
                profile.columns[index].decimals = NumberDecimals.column(
                    of: sampled.compactMap { $0.value(at: column.pointer) })
            default:
                break
            }
        }
        if let title = profile.fields[.title] { notes.insert("title: \(title)", at: 2) }
        notes.append(
            "columns: "
                + profile.columns.map { column in
                    column.label + (column.format.name.map { " (\($0))" } ?? "")
                }.joined(separator: ", "))
        return ItemReading(profile: profile, origin: .found, notes: notes)
    }

    // MARK: - The built-in shapes

    private static func recognise(_ document: JSONValue, overrides: ItemProfile.Overrides) -> ItemReading? {
        let candidates: [(ItemProfile, String, (JSONValue) -> Bool)] = [
            (.nytNewswire, "the NYT Times Newswire's shape (num_results, results of stories)", isNewswire),
            (.googleBooks, "Google Books volumes' shape (items with volumeInfo)", isBooks),
            (.wikimediaRecentChange, "Wikimedia EventStreams events (items with meta and wiki)", isWikimedia),
            (.jsonFeedVersion1, "a JSON Feed 1.0 (version https://jsonfeed.org/version/1)", isJSONFeedVersion1),
            (.jsonFeed, "a JSON Feed (version https://jsonfeed.org/version/…)", isJSONFeed),
            (.generic, "items with a title and a summary", isGeneric),
        ]
        for (profile, shape, matches) in candidates {
            // A given items path must be the profile's own for its shape to count.
            if let given = overrides.itemsPath, given != profile.itemsPath { continue }
            guard matches(document) else { continue }
            return ItemReading(
                profile: overrides.applied(to: profile), origin: .recognised,
                notes: ["profile \(profile.name): \(shape)"])
        }
        return nil
    }

    private static func firstObject(_ array: JSONValue?) -> JSONObject? {
        array?.arrayValue?.lazy.compactMap(\.objectValue).first
    }

    private static func isNewswire(_ document: JSONValue) -> Bool {
        guard let results = document["results"]?.arrayValue else { return false }
        if document["num_results"]?.doubleValue != nil { return true }
        guard let story = firstObject(.array(results)) else { return false }
        let fields = ["uri", "title", "abstract", "section", "subsection", "byline", "published_date"]
        return fields.count(where: { story[$0] != nil }) >= 3
    }

    private static func isBooks(_ document: JSONValue) -> Bool {
        if document["kind"]?.stringValue == "books#volumes" { return true }
        return firstObject(document["items"])?["volumeInfo"]?.objectValue != nil
    }

    private static func isWikimedia(_ document: JSONValue) -> Bool {
        guard let event = firstObject(document["items"]), let meta = event["meta"]?.objectValue else { return false }
        return meta["id"] != nil || meta["uri"] != nil || event["wiki"] != nil
    }

    private static func isJSONFeed(_ document: JSONValue) -> Bool {
        guard let version = document["version"]?.stringValue, document["items"]?.arrayValue != nil else { return false }
        return version.hasPrefix("https://jsonfeed.org/version/")
    }

    private static func isJSONFeedVersion1(_ document: JSONValue) -> Bool {
        isJSONFeed(document) && document["version"]?.stringValue == "https://jsonfeed.org/version/1"
    }

    private static func isGeneric(_ document: JSONValue) -> Bool {
        guard let item = firstObject(document["items"]) else { return false }
        return item["title"]?.stringValue != nil && item["summary"]?.stringValue != nil
    }

    // MARK: - The items

    private enum Location {
        /// The items (objects), as `form` reads them there: an array's elements that are
        /// objects, a series' rows, rows of values.
        case found(JSONPointer, items: [JSONValue], form: ItemsForm, note: String)
        /// An object whose members are objects: each member is an item.
        case foundMembers(JSONPointer, members: JSONObject, note: String)
        case missing(String)
    }

    private static func locateItems(in document: JSONValue, given: JSONPointer?) -> Location {
        if let given {
            let value = document.value(at: given)
            if let members = value?.objectValue, isObjectOfObjects(members, least: 1) {
                return .foundMembers(
                    given, members: members, note: "items: the members of \(place(given)), as given (\(members.count))")
            }
            if let members = value?.objectValue, !members.isEmpty, members.values.allSatisfy(ItemMemberPaths.isPlain) {
                let form = valuesForm(at: given)
                return .found(
                    given, items: ItemExtractor.elements(of: value, form: form) ?? [], form: form,
                    note: "items: the members of \(place(given)), as given, each a name and a value (\(members.count))")
            }
            if let members = value?.objectValue, let count = seriesLength(members) {
                return .found(
                    given, items: ItemExtractor.series(of: value) ?? [], form: .series,
                    note: "items: the rows of \(place(given))'s arrays, as given (\(count))")
            }
            // Mostly objects beside a few plain values (`{"as_of": 1, "bitcoin": {…}, "ether":
            // {…}}`): the objects are the items.
            if let members = value?.objectValue {
                let objects = members.filter { $0.value.objectValue != nil }
                let plain = members.filter { ItemMemberPaths.isPlain($0.value) }
                if objects.count >= 2, objects.count > plain.count {
                    return .foundMembers(
                        given, members: objects,
                        note: "items: the members of \(place(given)) that are objects, as given (\(objects.count) of "
                            + "\(members.count))")
                }
            }
            // One thing's status (a device's, `--items-path ''`): its named values are the
            // items, each a name and a value; the objects and arrays left out can be named
            // instead.
            if let members = value?.objectValue, members.values.contains(where: ItemMemberPaths.isPlain) {
                let form = valuesForm(at: given)
                let items = ItemExtractor.elements(of: value, form: form) ?? []
                let read = members.count(where: { NamedValues.isRead($0.key, $0.value) })
                let inner = members.filter { !NamedValues.isRead($0.key, $0.value) }.keys.prefix(3)
                    .map { given.appending($0).description }
                return .found(
                    given, items: items, form: form,
                    note: "items: the named values of \(place(given)), as given, each a name and a value "
                        + "(\(items.count), from \(read) of its \(members.count) members; the others are left out: "
                        + "--items-path " + inner.joined(separator: " or ") + " reads one)")
            }
            let objects = value?.arrayValue?.filter { $0.objectValue != nil } ?? []
            if objects.isEmpty, let table = rowsTable(in: value, beside: nil, byPosition: true) {
                return .found(
                    given, items: ItemExtractor.rows(of: value, names: table.names, header: table.header) ?? [],
                    form: .rows(names: table.names, header: table.header),
                    note: "items: the rows of \(place(given)), as given (\(table.count))")
            }
            if objects.isEmpty, let elements = value?.arrayValue, !elements.isEmpty,
                elements.allSatisfy({ !($0.stringValue?.isEmpty ?? true) })
            {
                let form = textsForm(at: given)
                return .found(
                    given, items: ItemExtractor.elements(of: value, form: form) ?? [], form: form,
                    note: "items: \(place(given)), as given, an array of \(elements.count) texts")
            }
            guard !objects.isEmpty else {
                return .missing("No items yet: \(place(given)) holds \(describe(value)).")
            }
            return .found(
                given, items: objects, form: .elements, note: "items: \(place(given)), as given (\(objects.count))")
        }
        var best: (pointer: JSONPointer, objects: [JSONValue], depth: Int)?
        var bestMembers: (pointer: JSONPointer, members: JSONObject, depth: Int)?
        var bestSeries: (pointer: JSONPointer, value: JSONValue, count: Int)?
        var bestTable:
            (pointer: JSONPointer, value: JSONValue, names: [String], header: Bool, count: Int, namedBy: JSONPointer?)?
        var bestValues: (pointer: JSONPointer, count: Int, depth: Int)?
        // One thing's named values, some of them in its parts (a health answer's
        // `memory.rss_bytes`, a position's `iss_position.latitude`); `stated`: it says its
        // own status (a printer's `state`).
        var bestFacts: (pointer: JSONPointer, own: Int, count: Int, depth: Int, stated: Bool)?
        var unnamedRows: JSONPointer?
        var emptyArrays: [JSONPointer] = []
        // An array of texts alone (Prometheus' label values, a registry's repositories).
        var bestTexts: (pointer: JSONPointer, count: Int, depth: Int)?
        func visit(_ value: JSONValue, at pointer: JSONPointer, depth: Int, parent: JSONObject?) {
            switch value {
            case .array(let elements):
                let objects = elements.filter { $0.objectValue != nil }
                if objects.isEmpty, let table = rowsTable(in: value, beside: parent, byPosition: false) {
                    if table.count > (bestTable?.count ?? 0) {
                        let namedBy = table.namedBy.map { JSONPointer(tokens: pointer.tokens.dropLast() + [$0]) }
                        bestTable = (pointer, value, table.names, table.header, table.count, namedBy)
                    }
                } else if objects.isEmpty, unnamedRows == nil, elements.count >= 2,
                    rowsTable(in: value, beside: parent, byPosition: true) != nil
                {
                    unnamedRows = pointer
                }
                if objects.isEmpty, elements.count >= 2, elements.count > (bestTexts?.count ?? 0),
                    elements.allSatisfy({ !($0.stringValue?.isEmpty ?? true) })
                {
                    bestTexts = (pointer, elements.count, depth)
                }
                if objects.isEmpty {
                    if elements.isEmpty { emptyArrays.append(pointer) }
                } else if objects.count > (best?.objects.count ?? 0)
                    || (objects.count == best?.objects.count && depth < (best?.depth ?? 0))
                {
                    best = (pointer, objects, depth)
                }
            case .object(let members) where depth < maxItemsDepth:
                if isObjectOfObjects(members, least: 2),
                    members.count > (bestMembers?.members.count ?? 0)
                        || (members.count == bestMembers?.members.count && depth < (bestMembers?.depth ?? 0))
                {
                    bestMembers = (pointer, members, depth)
                }
                if isObjectOfValues(members),
                    members.count > (bestValues?.count ?? 0)
                        || (members.count == bestValues?.count && depth < (bestValues?.depth ?? 0))
                {
                    bestValues = (pointer, members.count, depth)
                }
                let facts = NamedValues.count(in: members)
                // A thing that says its own status is the thing the document is about: an
                // object inside it, with more values or not, is one of its parts (OctoPrint's
                // `job` beside its `state` and `progress`).
                let withinStated =
                    bestFacts.map { $0.stated && pointer.tokens.starts(with: $0.pointer.tokens) } ?? false
                if facts.total >= minValues, !members.values.allSatisfy(ItemMemberPaths.isPlain), !saysAnError(members),
                    !withinStated,
                    facts.total > (bestFacts?.count ?? 0)
                        || (facts.total == bestFacts?.count && depth < (bestFacts?.depth ?? 0))
                {
                    bestFacts = (pointer, facts.own, facts.total, depth, statesItsStatus(members))
                }
                if let count = seriesLength(members), count > (bestSeries?.count ?? 0) {
                    bestSeries = (pointer, value, count)
                }
                for (name, member) in members {
                    visit(member, at: pointer.appending(name), depth: depth + 1, parent: members)
                }
            default:
                break
            }
        }
        visit(document, at: .root, depth: 0, parent: nil)
        /// The items the extractor makes of what lies at `pointer`, laid out as `form`.
        func read(_ pointer: JSONPointer, as form: ItemsForm, note: String) -> Location {
            .found(
                pointer, items: ItemExtractor.elements(of: document.value(at: pointer), form: form) ?? [], form: form,
                note: note)
        }
        // Where the most named values are, for a note that names them.
        let mostNamedValues: (pointer: JSONPointer, count: Int)? =
            if let facts = bestFacts, facts.count > bestValues?.count ?? 0 {
                (facts.pointer, facts.count)
            } else {
                bestValues.map { ($0.pointer, $0.count) }
            }
        // ClickHouse's `meta` is an array of objects, but it names the columns of its `data`.
        if let best, best.pointer != bestTable?.namedBy {
            var note =
                best.depth == 0
                ? "items: the document, an array of \(best.objects.count) objects"
                : "items: \(place(best.pointer)), the largest array of objects (\(best.objects.count))"
            // One object may be a part of one thing (a current weather's `weather`) whose
            // readings are elsewhere (its `main`): say where.
            if best.objects.count == 1, let named = mostNamedValues {
                note +=
                    "; \(place(named.pointer)) holds \(named.count) named values: --items-path "
                    + "\(named.pointer.tokens.isEmpty ? "''" : named.pointer.description) shows them"
            }
            return .found(best.pointer, items: best.objects, form: .elements, note: note)
        }
        // An object of objects before an empty array: a status API's `incidents: []` beside
        // its `components: {…}` must not keep the table waiting.
        if let members = bestMembers {
            let note =
                members.depth == 0
                ? "items: the document's members, an object of \(members.members.count) objects"
                : "items: the members of \(place(members.pointer)), the largest object of objects "
                    + "(\(members.members.count))"
            return .foundMembers(members.pointer, members: members.members, note: note)
        }
        // A series sent as arrays side by side (Open-Meteo's `hourly`: `time`,
        // `temperature_2m`, …): its rows.
        if let series = bestSeries {
            let names = (series.value.objectValue?.filter { $0.value.arrayValue != nil }.keys).map(Array.init) ?? []
            let shown = names.prefix(4).joined(separator: ", ") + (names.count > 4 ? ", …" : "")
            return .found(
                series.pointer, items: ItemExtractor.series(of: series.value) ?? [], form: .series,
                note: "items: the rows of \(place(series.pointer))'s arrays (\(shown)), \(series.count) rows")
        }
        // A table sent as rows of values (a spreadsheet's, a database's).
        if let table = bestTable {
            let named = table.header ? "its first row naming the columns" : "named by its columns beside it"
            return .found(
                table.pointer,
                items: ItemExtractor.rows(of: table.value, names: table.names, header: table.header) ?? [],
                form: .rows(names: table.names, header: table.header),
                note: "items: the rows of \(place(table.pointer)), \(named) (\(table.count))")
        }
        if let empty = emptyArrays.first {
            // The values beside it may be all there is (a health answer's `warnings: []`).
            let instead =
                mostNamedValues.map {
                    " (\(place($0.pointer)) holds \($0.count) named values: --items-path "
                        + "\($0.pointer.tokens.isEmpty ? "''" : $0.pointer.description) shows them now)"
                } ?? ""
            return .missing(
                "No items yet: \(place(empty)) is an empty array; the table appears with the first item\(instead).")
        }
        // One thing's named values, its parts' too (a health answer's `memory.rss_bytes`):
        // after an empty array, and before an object of values elsewhere; one inside it, a
        // part or deeper, only when that has fewer values than the thing's own (Pi-hole's
        // `gravity_last_updated.relative` beside its twenty figures; exchange `rates` beside
        // a `base` and a `date` stay the items), or when the thing says its own status and
        // that is no collection of codes (a printer's `state` and `progress` over its job's
        // `file`; a `status` beside `rates` of currencies leaves the rates the items).
        if let facts = bestFacts,
            bestValues.map({ values in
                values.pointer.tokens.count > facts.pointer.tokens.count
                    && values.pointer.tokens.starts(with: facts.pointer.tokens)
                    && (facts.own > values.count
                        || facts.stated && !isCollectionOfCodes(document.value(at: values.pointer)))
            }) ?? true
        {
            return read(
                facts.pointer, as: valuesForm(at: facts.pointer),
                note: "items: the named values of \(place(facts.pointer)), its small objects' too, each a name and "
                    + "a value (\(facts.count))")
        }
        // Named values (exchange rates, counters, settings): after an empty array, which
        // is where items will come (a page's `meta` of counts beside its empty `data`).
        if let values = bestValues {
            return read(
                values.pointer, as: valuesForm(at: values.pointer),
                note: values.depth == 0
                    ? "items: the document's members, each a name and a value (\(values.count))"
                    : "items: the members of \(place(values.pointer)), each a name and a value (\(values.count))")
        }
        // A list of texts, each an item (after named values: a thing's `tags` are one of its
        // values).
        if let texts = bestTexts {
            return read(
                texts.pointer, as: textsForm(at: texts.pointer),
                note: texts.depth == 0
                    ? "items: the document, an array of \(texts.count) texts"
                    : "items: \(place(texts.pointer)), an array of \(texts.count) texts")
        }
        if let rows = unnamedRows {
            return .missing(
                "No items found: \(place(rows)) holds rows of values without names; --items-path \(rows) reads them, "
                    + "their columns named by position (--column 'Name=/0')."
            )
        }
        return .missing(
            "No items found: the document holds no array of objects, no object of objects and no object of "
                + "\(minValues) or more values (it is \(describe(document)))."
        )
    }

    /// The units of the items' members, by member name, when the items' object has an
    /// object of them beside it named after it (Open-Meteo's `hourly_units` beside its
    /// `hourly`: `"temperature_2m": "°C"`). A unit that names a time's format (`iso8601`,
    /// `unixtime`) is no unit of a quantity and is left out.
    private static func units(beside pointer: JSONPointer, in document: JSONValue) -> [String: String] {
        guard let last = pointer.tokens.last else { return [:] }
        let sibling = JSONPointer(tokens: pointer.tokens.dropLast() + [last + "_units"])
        guard let units = document.value(at: sibling)?.objectValue else { return [:] }
        var found: [String: String] = [:]
        for (name, unit) in units {
            guard let text = unit.stringValue?.trimmed, !text.isEmpty, text.count <= 12,
                !["iso8601", "unixtime"].contains(text.lowercased())
            else { continue }
            found[name] = text
        }
        return found
    }

    /// Names of a table's column names beside its rows (Datasette's `columns`, ClickHouse's
    /// `meta`, of objects with a `name`).
    static let columnNamesNames = ["columns", "column_names", "fields", "headers", "header", "names", "meta"]

    /// The names of `value`'s rows when it is a table sent as rows of values: an array of
    /// arrays of plain values, named by an array of two or more distinct names beside it in
    /// `parent` (``columnNamesNames``, as many as the longest row at least), else by its first
    /// row (`header`) when that holds two or more distinct texts (not numbers, not links)
    /// and rows follow it, else, `byPosition` (an items path given), by each value's position
    /// (`0`, `1`, …: OpenSky's `states`, whose columns its documentation names, as
    /// `--column 'Callsign=/1'` does). With the number of rows that are items and the member
    /// of `parent` that names them (`nil`: the first row or the positions). `nil` otherwise.
    private static func rowsTable(in value: JSONValue?, beside parent: JSONObject?, byPosition: Bool)
        -> (names: [String], header: Bool, count: Int, namedBy: String?)?
    {
        guard let rows = value?.arrayValue, !rows.isEmpty else { return nil }
        var longest = 0
        for row in rows {
            guard let values = row.arrayValue, !values.isEmpty, values.allSatisfy(ItemMemberPaths.isPlain) else {
                return nil
            }
            longest = max(longest, values.count)
        }
        func distinctNames(_ names: [String?]) -> [String]? {
            let texts = names.compactMap { $0 }.filter { !$0.isEmpty }
            guard texts.count == names.count, texts.count >= 2, Set(texts).count == texts.count else { return nil }
            return texts
        }
        for name in columnNamesNames {
            guard let list = parent?[name]?.arrayValue else { continue }
            let names = list.map { $0.stringValue ?? $0["name"]?.stringValue }
            if let names = distinctNames(names), names.count >= longest { return (names, false, rows.count, name) }
        }
        if rows.count >= 2, let first = rows.first?.arrayValue,
            let names = distinctNames(first.map(\.stringValue)),
            names.allSatisfy({ !isReading($0) && !isHTTPURL($0) })
        {
            return (names, true, rows.count - 1, nil)
        }
        guard byPosition else { return nil }
        return ((0..<longest).map(String.init), false, rows.count, nil)
    }

    /// The number of rows of `members` when they hold a series as arrays side by side: two
    /// or more arrays of the same length, at least 2, of plain values (no object, no array);
    /// the longest such length. `nil` otherwise, or when an array holds objects (those are
    /// items of their own).
    private static func seriesLength(_ members: JSONObject) -> Int? {
        var lengths: [Int: Int] = [:]
        for member in members.values {
            guard let values = member.arrayValue else { continue }
            guard values.allSatisfy(ItemMemberPaths.isPlain) else { return nil }
            if values.count >= 2 { lengths[values.count, default: 0] += 1 }
        }
        return lengths.filter { $0.value >= 2 }.keys.max()
    }

    /// The fewest members of an object of values found (not given) as items: fewer are
    /// more likely a record's few fields than a list.
    static let minValues = 3

    /// Whether `members` are ``minValues`` or more plain values (no object, no array): an
    /// object whose members are named values (`{"AUD": 1.65, "USD": 1.06}`), and not an
    /// error sent in place of the feed (`{"error": "rate limited", "code": 429, …}`), which
    /// must not decide how the feed is read.
    private static func isObjectOfValues(_ members: JSONObject) -> Bool {
        members.count >= minValues && members.values.allSatisfy(ItemMemberPaths.isPlain) && !saysAnError(members)
    }

    /// Whether `members` say their own status: a member named for one (``statusFilterNames``)
    /// that is text.
    private static func statesItsStatus(_ members: JSONObject) -> Bool {
        members.contains { name, value in statusFilterNames.contains(name.lowercased()) && value.stringValue != nil }
    }

    /// Whether `value` is an object whose member names are all codes (currencies, tickers,
    /// countries: `AUD`, `BTC`, `US`): capital letters and digits, 2 to 10 of them, a letter
    /// first. A collection of things of one kind, not a part of one thing.
    private static func isCollectionOfCodes(_ value: JSONValue?) -> Bool {
        guard let members = value?.objectValue, !members.isEmpty else { return false }
        return members.keys.allSatisfy { name in
            let bytes = name.utf8
            return (2...10).contains(bytes.count) && bytes.first.map { (0x41...0x5A).contains($0) } == true
                && bytes.allSatisfy { (0x41...0x5A).contains($0) || (0x30...0x39).contains($0) }
        }
    }

    /// Whether an object with `members` is an error sent in place of the feed
    /// (`{"error": "rate limited", "code": 429, …}`, `{"status": 503, "message": …}`).
    private static func saysAnError(_ members: JSONObject) -> Bool {
        let names = Set(members.keys.map { $0.lowercased() })
        return !names.isDisjoint(with: ["error", "errors", "fault", "exception", "error_message", "errormessage"])
            || (names.contains("message") && !names.isDisjoint(with: ["code", "status", "status_code", "statuscode"]))
    }

    /// The form of the values at `pointer`: each value under the object's own name (`rates`,
    /// a column headed "Rates"; `value` for the document's root), its member's name under
    /// `name` (or `key`, when the object is itself called `name`).
    private static func valuesForm(at pointer: JSONPointer) -> ItemsForm {
        let value = pointer.tokens.last.flatMap { $0.isEmpty ? nil : $0 } ?? "value"
        return .values(nameMember: value == "name" ? "key" : "name", valueMember: value)
    }

    /// How the texts of the array at `pointer` are items: each under the array's name
    /// (`repositories`), or under `value` when that name says nothing of them (`data`,
    /// `items`) or there is none (the document).
    private static func textsForm(at pointer: JSONPointer) -> ItemsForm {
        let name = pointer.tokens.last ?? ""
        return .texts(valueMember: vagueContainerNames.contains(name.lowercased()) ? "value" : name)
    }

    /// Names of a member that holds items but says nothing of what they are (`data`,
    /// `items`, `results`), lower case.
    static let vagueContainerNames: Set<String> = [
        "", "data", "items", "results", "result", "values", "value", "list", "entries", "elements", "rows", "records",
        "objects", "response", "payload", "body", "content", "hits", "docs", "documents", "array", "collection",
    ]

    /// What the items at `itemsPath` are called, as a heading: the label of its last member
    /// that says what they are (`/departures` → "Departures", `/data/workflow_runs` →
    /// "Workflow runs"); `nil` when none does (the document itself, `/data/items`).
    public static func collectionLabel(of itemsPath: JSONPointer) -> String? {
        let name = itemsPath.tokens.last(where: { token in
            !vagueContainerNames.contains(token.lowercased()) && !token.allSatisfy(\.isNumber)
        })
        return name.map { label(for: $0) }
    }

    /// Whether every member of `members`, at least `least` of them, is an object: an
    /// object whose members are items (`{"bitcoin": {…}, "ether": {…}}`).
    private static func isObjectOfObjects(_ members: JSONObject, least: Int) -> Bool {
        members.count >= least && members.values.allSatisfy { $0.objectValue != nil }
    }

    private static func place(_ pointer: JSONPointer) -> String {
        pointer.tokens.isEmpty ? "the document" : pointer.description
    }

    /// `value` in a few words, for a page that has no items to show: "an object with
    /// members a, b and c", "an empty array", "a string", "nothing".
    public static func describe(_ value: JSONValue?) -> String {
        switch value {
        case nil: return "nothing"
        case .null?: return "null"
        case .bool?: return "a boolean"
        case .int?, .double?: return "a number"
        case .string?: return "a string"
        case .array(let elements)?:
            if elements.isEmpty { return "an empty array" }
            let plural = elements.count == 1 ? "" : "s"
            // Ids alone (Hacker News' `topstories`): each item is to be fetched by its id.
            if elements.allSatisfy({ $0.int64Value != nil }) {
                return "an array of \(elements.count) number\(plural), ids perhaps, but no object"
            }
            return "an array of \(elements.count) element\(plural) but no object"
        case .object(let members)?:
            if members.isEmpty { return "an empty object" }
            let names = members.keys.prefix(6).map { "\"\($0)\"" }
            let more = members.count > 6 ? " and \(members.count - 6) more" : ""
            return "an object with member\(members.count == 1 ? "" : "s") \(names.joined(separator: ", "))\(more)"
        }
    }

    // MARK: - The key, the title, the filter

    /// Whether every item has a non-empty object at member `name`, each different (its
    /// members compared in sorted order).
    private static func isUniqueObject(_ name: String, in items: [JSONValue]) -> Bool {
        var seen = Set<[UInt8]>()
        for item in items {
            guard case .object(let members)? = item[name], !members.isEmpty,
                seen.insert(JSONValue.object(members).serializedBytes(sortedKeys: true)).inserted
            else { return false }
        }
        return true
    }

    /// The paths of `candidates` whose member is named in `names`, in the order of `names`.
    private static func named(_ candidates: [JSONPointer], _ names: [String]) -> [JSONPointer] {
        names.flatMap { wanted in candidates.filter { $0.memberName == wanted } }
    }

    /// Names that say a moment is fixed (when something was made, or is for), unlike an
    /// `updated_at` that moves with every change: a time by one of them may key an item.
    private static func isFixedMoment(_ name: String) -> Bool {
        !["updated", "modified", "changed", "last", "seen", "expires", "refreshed"].contains { name.contains($0) }
    }

    /// A path whose value is a non-empty string or a whole number in every item, unique
    /// among them. In order: the item's own members named in ``keyNames``, then those
    /// ending in `id` or `key`; the same inside an envelope (``ItemMemberPaths/envelopeNames``:
    /// a Kubernetes object's `/metadata/name`, a GraphQL edge's `/node/id`); then an id in an
    /// `id` object (a YouTube search result's `/id/videoId`); then (only when
    /// items do not arrive alone) an object named in ``labelNames``, different in each
    /// item; then (also only from 3 items on) a moment that is not an update time (a
    /// forecast's `dt`), any other string member, and a code one level down (a flight's
    /// `flight/iata`).
    static func key(of items: [JSONValue], paths: ItemMemberPaths, arriveAlone: Bool) -> JSONPointer? {
        func isUnique(_ pointer: JSONPointer) -> Bool {
            var seen = Set<String>()
            for item in items {
                switch item.value(at: pointer) {
                case .string(let text)? where !text.isEmpty && text.utf8.count <= 512:
                    guard seen.insert("s" + text).inserted else { return false }
                case .int(let number)?:
                    guard seen.insert("s" + String(number)).inserted else { return false }
                default:
                    return false
                }
            }
            return true
        }
        func idLike(_ candidates: [JSONPointer]) -> [JSONPointer] {
            candidates.filter {
                let lower = $0.memberName
                return lower.hasSuffix("id") || lower.hasSuffix("_key") || lower.hasSuffix("uuid")
            }
        }
        let own = paths.top
        let enveloped = paths.enveloped
        // An `id` that is an object of ids (a YouTube search result's `id/videoId`).
        let idObject = paths.nested.filter { $0.tokens[0] == "id" && $0.memberName.lowercased().hasSuffix("id") }
        for tier in [named(own, keyNames), idLike(own), named(enveloped, keyNames), idLike(enveloped), idObject] {
            if let key = tier.first(where: isUnique) { return key }
        }
        guard !arriveAlone else { return nil }
        // A series' labels (a Prometheus sample's `metric`): an object named like labels,
        // different in each item, names it while its values change.
        let labels = named(own, labelNames)
        if let key = labels.first(where: { isUniqueObject($0.tokens[0], in: items) }) {
            return key
        }
        guard items.count >= 2 else { return nil }
        func isMoment(_ pointer: JSONPointer) -> Bool {
            let samples = items.prefix(sampledItems).compactMap { $0.value(at: pointer) }
            switch format(named: pointer.memberName, samples: samples) {
            case .relative, .date: return true
            default: return false
            }
        }
        let moments = (own + enveloped).filter(isMoment)
        if items.count >= 3, let key = moments.first(where: { isFixedMoment($0.memberName) && isUnique($0) }) {
            return key
        }
        // Two items differ in almost any text: of two, only one that names them (a
        // sensor's `sensor`, a series' `scope`), not a state they happen to differ in
        // (`up` and `down`), nor a figure sent as text.
        func namesTwo(_ pointer: JSONPointer) -> Bool {
            guard items.count == 2 else { return true }
            guard !statusNames.contains(pointer.memberName) else { return false }
            return items.allSatisfy { item in
                guard let text = item.value(at: pointer)?.stringValue else { return false }
                return !ItemColumn.StatusTones.isStatusWord(text) && Double(text) == nil && !isReading(text)
            }
        }
        if let key = own.first(where: { pointer in
            !moments.contains(pointer) && items.allSatisfy { $0.value(at: pointer)?.stringValue != nil }
                && isUnique(pointer) && namesTwo(pointer)
        }) {
            return key
        }
        // A code one level down, of letters and digits, in an object each of whose values is
        // the item's own (a flight's `flight`: its `iata`, `BA117`, its `icao` and `number`),
        // from 3 items on: better than a hash of the item, which changes with any of its
        // values. Not a gate that differs by chance beside an airport all share, nor an id
        // (an author's: another thing's).
        guard items.count >= 3 else { return nil }
        func identifies(_ object: String) -> Bool {
            paths.nested.filter { $0.tokens[0] == object }.allSatisfy { pointer in
                items.allSatisfy { $0.value(at: pointer)?.isNull ?? true } || isUnique(pointer)
            }
        }
        return paths.nested.first { pointer in
            !ItemMemberPaths.isEnvelope(pointer.tokens[0]) && !isIDName(pointer.memberName)
                && items.allSatisfy { isCode($0.value(at: pointer)?.stringValue) } && isUnique(pointer)
                && identifies(pointer.tokens[0])
        }
    }

    /// Whether `text` is a short code of capital letters and digits, one of each at least
    /// (`BA117`, `LHR2`), at most 12 characters.
    private static func isCode(_ text: String?) -> Bool {
        guard let text, (2...12).contains(text.utf8.count) else { return false }
        let bytes = text.utf8
        return bytes.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) }
            && bytes.contains { (0x30...0x39).contains($0) } && bytes.contains { (0x41...0x5A).contains($0) }
    }

    /// The path that names an item: one of ``titleNames``, the item's own before one in
    /// an envelope, that nearly every item has as text, different in nearly every item (a
    /// repository shared by many builds names none of them); else `nil` (the key names
    /// them).
    static func titleMember(of items: [JSONValue], paths: ItemMemberPaths, sides home: JSONPointer? = nil)
        -> JSONPointer?
    {
        func namesEach(_ pointer: JSONPointer) -> Bool {
            let texts = items.compactMap { $0.value(at: pointer)?.stringValue }.filter { !$0.isEmpty }
            return texts.count * 10 >= items.count * 9 && Set(texts).count * 10 >= items.count * 9
        }
        // A title named so titles the item though others share it (an alert's `Disk full`
        // raised again, an ntfy notification's `Backup done`): a name of a group (a `repo`,
        // a `service`) does not.
        func titlesEach(_ pointer: JSONPointer) -> Bool {
            let texts = items.compactMap { $0.value(at: pointer)?.stringValue }.filter { !$0.isEmpty }
            return texts.count * 10 >= items.count * 9 && Set(texts).count >= min(2, items.count)
        }
        let sharedTitle = named(paths.top, sharedTitleNames).first(where: titlesEach)
        for candidates in [paths.top, paths.enveloped] {
            guard let pointer = named(candidates, titleNames).first(where: namesEach) else { continue }
            // A body's words differ from item to item where its title may not: ntfy's
            // `title`, `Backup done` again, before its `message`.
            if bodyNames.contains(pointer.memberName), let sharedTitle, !bodyNames.contains(sharedTitle.memberName) {
                return sharedTitle
            }
            return pointer
        }
        if let pointer = sharedTitle { return pointer }
        // A thing's message one level down (a GitHub commit's `commit/message`).
        if let pointer = paths.nested.first(where: { $0.memberName == "message" && namesEach($0) }) {
            return pointer
        }
        // WordPress' `title: {"rendered": "…"}`: a title sent as HTML.
        let rendered = paths.nested.filter { $0.tokens[1] == "rendered" }
        if let pointer = titleNames.lazy.compactMap({ name in rendered.first { $0.tokens[0] == name } })
            .first(where: namesEach)
        {
            return pointer
        }
        // A list of names, the first the item's own (a Docker container's `Names`, `["/web"]`).
        for pointer in paths.top where pointer.memberName.lowercased() == "names" {
            let first = pointer.appending(index: 0)
            if namesEach(first) { return first }
        }
        // A match's home side, before any other text (a venue, a stage).
        if let home { return home }
        return namingMember(of: items, paths: paths, namesEach: namesEach)
            ?? readableID(of: items, paths: paths, namesEach: namesEach)
            ?? deepTitle(of: items, namesEach: namesEach)
            ?? peopleNumber(of: items, paths: paths)
    }

    /// Names that title an item from two objects down, in order of preference.
    static let deepTitleNames = ["title", "subject", "message", "summary"]

    /// A title two objects down, of ``deepTitleNames``, in objects that 9 in 10 items have
    /// (a CircleCI pipeline's `vcs/commit/subject`, its commit's subject); `nil` for none.
    private static func deepTitle(of items: [JSONValue], namesEach: (JSONPointer) -> Bool) -> JSONPointer? {
        let sampled = items.prefix(sampledItems)
        guard let first = sampled.first?.objectValue else { return nil }
        for (outer, value) in first where !ItemMemberPaths.isEnvelope(outer) {
            guard let object = value.objectValue,
                sampled.filter({ $0[outer]?.objectValue != nil }).count * 10 >= sampled.count * 9
            else { continue }
            for (inner, innerValue) in object where innerValue.objectValue != nil {
                for name in deepTitleNames {
                    let pointer = JSONPointer(tokens: [outer, inner, name])
                    if namesEach(pointer) { return pointer }
                }
            }
        }
        return nil
    }

    /// The number people know an item by (``peopleKeyNames``, or a name that ends in
    /// `number`: Bitbucket's `build_number`), different in each item: a title better than
    /// a UUID; `nil` for none.
    private static func peopleNumber(of items: [JSONValue], paths: ItemMemberPaths) -> JSONPointer? {
        paths.top.first { pointer in
            let name = pointer.memberName
            guard peopleKeyNames.contains(name) || name.hasSuffix("number") else { return false }
            let numbers = items.compactMap { $0.value(at: pointer)?.int64Value }
            return numbers.count == items.count && Set(numbers).count == numbers.count
        }
    }

    /// The names of a match's two sides when every one of `items` is one: two members whose
    /// names differ only by `home` and `away` (`home`/`away`, `homeTeam`/`awayTeam`,
    /// `home_team`/`away_team`), each a text in every item or an object with the same
    /// naming member as text (`name`, `team`, `shortName`, …: ``sideNames``).
    static func matchSides(of items: [JSONValue]) -> (home: JSONPointer, away: JSONPointer)? {
        guard let first = items.first?.objectValue else { return nil }
        for name in first.keys {
            guard
                let start = name.indices.first(where: { name[$0...].prefix(4).lowercased() == "home" })
            else { continue }
            let range = start..<name.index(start, offsetBy: 4)
            let awayName =
                String(name[..<range.lowerBound]) + awayWord(for: name, at: range)
                + String(name[range.upperBound...])
            let pointers: [(JSONPointer, JSONPointer)] =
                [(JSONPointer(tokens: [name]), JSONPointer(tokens: [awayName]))]
                + sideNames.map { (JSONPointer(tokens: [name, $0]), JSONPointer(tokens: [awayName, $0])) }
            for (home, away) in pointers {
                let named = items.allSatisfy { item in
                    item.value(at: home)?.stringValue?.isEmpty == false
                        && item.value(at: away)?.stringValue?.isEmpty == false
                }
                if named { return (home, away) }
            }
        }
        return nil
    }

    /// Where a match's two scores are, for `sides` found by ``matchSides(of:)``: beside each
    /// side's name in its object (`home/score`), or members named as the sides' names are
    /// with a word of score (`home_score` beside `home_team`), or a score object's `home` and
    /// `away` (`score/fullTime/home`, football-data.org's); a number, or one sent as
    /// text, in every one of `items` that has one (a match to come may have none).
    static func matchScores(of items: [JSONValue], sides: (home: JSONPointer, away: JSONPointer))
        -> ItemProfile.Scores?
    {
        func scored(_ pointer: JSONPointer) -> Bool {
            let values = items.compactMap { $0.value(at: pointer) }.filter { !$0.isNull }
            return !values.isEmpty
                && values.allSatisfy { $0.doubleValue != nil || ($0.stringValue.map(isReading) ?? false) }
        }
        var candidates: [(JSONPointer, JSONPointer)] = []
        if sides.home.tokens.count == 2 {
            let (home, away) = (sides.home.tokens[0], sides.away.tokens[0])
            candidates += scoreWords.map { (JSONPointer(tokens: [home, $0]), JSONPointer(tokens: [away, $0])) }
        } else if let home = sides.home.tokens.first, let away = sides.away.tokens.first {
            // `home_team` → `home_score`: the side's word kept, the rest a score's.
            let homeWord = home.prefix { $0 != "_" }
            let awayWord = away.prefix { $0 != "_" }
            candidates += scoreWords.map {
                (JSONPointer(tokens: [homeWord + "_" + $0]), JSONPointer(tokens: [awayWord + "_" + $0]))
            }
        }
        // football-data.org's `score: {"fullTime": {"home": 2, "away": 1}}`: a score object
        // holding the sides' numbers, itself or one level down (the full time first).
        for score in ["score", "scores"] {
            candidates.append((JSONPointer(tokens: [score, "home"]), JSONPointer(tokens: [score, "away"])))
            for part in ["fullTime", "full_time", "current", "total"] {
                candidates.append(
                    (JSONPointer(tokens: [score, part, "home"]), JSONPointer(tokens: [score, part, "away"])))
            }
        }
        guard let (home, away) = candidates.first(where: { scored($0.0) && scored($0.1) }) else { return nil }
        return ItemProfile.Scores(home: home, away: away)
    }

    /// Names of a side's score, in order of preference.
    static let scoreWords = ["score", "points", "goals", "runs"]

    /// What names a side of a match inside its object, in order of preference.
    static let sideNames = ["name", "team", "shortName", "short_name", "displayName", "display_name", "title"]

    /// `away` written as `home` is at `range` in `name` (`Home` in `homeTeam`'s camel case
    /// stays lower; a capital `Home` gives `Away`).
    private static func awayWord(for name: String, at range: Range<String.Index>) -> String {
        let original = name[range.lowerBound...].prefix(4)
        if original == "HOME" { return "AWAY" }
        return original.first?.isUppercase == true ? "Away" : "away"
    }

    /// Without any other: an id that people can read, one level down too (a LoRaWAN
    /// uplink's `end_device_ids/device_id`, `sensor-01`), where the key is a moment or a
    /// hash: every value has a word of three lower-case letters or more and is no digest or
    /// UUID (not PagerDuty's `PT4KHL0`, nor a container's hex digits).
    private static func readableID(
        of items: [JSONValue], paths: ItemMemberPaths, namesEach: (JSONPointer) -> Bool
    ) -> JSONPointer? {
        guard items.count >= 2 else { return nil }
        func readable(_ text: String) -> Bool {
            var run = 0
            for scalar in text.unicodeScalars {
                run = ("a"..."z").contains(scalar) ? run + 1 : 0
                if run >= 3 { return !looksLikeAnID(text) }
            }
            return false
        }
        return (paths.top + paths.nested).first { pointer in
            guard isIDName(pointer.tokens.last ?? "") else { return false }
            let texts = items.prefix(sampledItems).compactMap { $0.value(at: pointer)?.stringValue }
            return texts.count == min(items.count, sampledItems) && texts.allSatisfy(readable) && namesEach(pointer)
        }
    }

    /// Without a member named as a title: a short text that differs in nearly every item
    /// (`namesEach`) and is not a moment, a link, a reading, a status or an id (a sheet's
    /// first column, `Region`; a departure's `flight`, `BA 117`, not its `scheduled` time,
    /// which keys it; not a build's `commit`, `a1b2c3d`). The item's own members, then its
    /// envelope's, in order; first one whose name ends in `name` (a `hostname`), among them
    /// a label's (an alert's `labels/alertname`; other labels name a series together, as
    /// its key does). Only from 2 items on: in one item every text differs.
    private static func namingMember(
        of items: [JSONValue], paths: ItemMemberPaths, namesEach: (JSONPointer) -> Bool
    ) -> JSONPointer? {
        guard items.count >= 2 else { return nil }
        func isName(_ pointer: JSONPointer) -> Bool { pointer.memberName.lowercased().hasSuffix("name") }
        let labels = paths.nested.filter { labelNames.contains($0.tokens[0].lowercased()) && isName($0) }
        let candidates = (paths.top + paths.enveloped + labels).filter { pointer in
            let member = pointer.memberName
            let lower = member.lowercased()
            guard !statusNames.contains(lower), !isIDName(member) else { return false }
            let texts = items.prefix(sampledItems).compactMap { $0.value(at: pointer)?.stringValue }
            return !texts.isEmpty
                && texts.allSatisfy { text in
                    text.count <= 80 && !isHTTPURL(text) && !isReading(text) && WallTime(feedTime: text) == nil
                        && !ItemColumn.StatusTones.isStatusWord(text) && !looksLikeAnID(text)
                }
        }
        return (candidates.filter(isName) + candidates).first(where: namesEach)
    }

    /// Whether a member named `name` holds ids or digests, for programs, not for a screen:
    /// `id`, `uid`, `uuid`, `…_id`, `…Id`, `…ID` (`ImageID`), `sha`, `hash`, `commit`,
    /// `digest`, `etag`, `token`, an extended unique identifier (a LoRaWAN device's
    /// `dev_eui`). Such a member names no item, and a kiosk tile leaves it out of its facts.
    public static func isIDName(_ name: String) -> Bool {
        let lower = name.lowercased()
        // `ImageID`, `objectID`: an id after a word in camel case, as Go's and Algolia's APIs write it.
        let camelID = name.hasSuffix("ID") && name.dropLast(2).last?.isLowercase == true
        return ["id", "uid", "uuid", "sha", "hash", "commit", "digest", "etag", "token"].contains(lower)
            || lower.hasSuffix("_id") || name.hasSuffix("Id") || camelID || lower.hasSuffix("_sha")
            || lower.hasSuffix("_hash") || lower == "eui" || lower.hasSuffix("_eui")
    }

    /// Whether a rise in the column at `pointer` is bad news: a delay, a latency, errors, a
    /// queue, a load, what is used (`delay`, `p99_latency_ms`, `error_count`, `cpu/user`,
    /// `memory/used_bytes`), not what is left or idle (`disk_free_bytes`, `cpu/idle`). Its
    /// cells mark a rise in the bad tone and a fall in the good one, where a price's rise is
    /// good news.
    public static func isLowerBetter(_ pointer: JSONPointer) -> Bool {
        let words = Set(pointer.tokens.flatMap { label(for: $0).lowercased().split(separator: " ").map(String.init) })
        guard words.isDisjoint(with: ["free", "idle", "available", "avail", "left", "remaining", "uptime", "success"])
        else { return false }
        return !words.isDisjoint(with: lowerBetterWords)
    }

    /// Words of a column whose rise is bad news (``isLowerBetter(_:)``).
    static let lowerBetterWords: Set<String> = [
        "delay", "delayed", "latency", "lag", "error", "errors", "failures", "failed", "fails", "wait", "waiting",
        "queue", "queued", "backlog", "pending", "retries", "timeouts", "drops", "dropped", "downtime", "incidents",
        "alerts", "p50", "p90", "p95", "p99", "rtt", "ping", "load", "cpu", "usage", "used", "iowait", "late",
        "restart", "restarts",
    ]

    /// Whether `text` looks like a digest or a UUID (6 or more hexadecimal digits, dashes
    /// between): a name for programs, not for people.
    private static func looksLikeAnID(_ text: String) -> Bool {
        if isUUID(text) { return true }
        let digits = text.unicodeScalars.filter { $0 != "-" }
        return digits.count >= 6 && digits.allSatisfy { $0.properties.isASCIIHexDigit }
    }

    /// What a `state` column's words mean for items of a kind whose words differ from a CI
    /// run's: the column's name and its tones, or `nil` for any other items.
    /// - A container (Docker's, with its `Image`): `running` is well, not busy; `exited` and
    ///   `dead` bad.
    /// - An alert (Alertmanager's, with its `labels/alertname`): `active` is firing, bad;
    ///   `unprocessed` busy; `suppressed` (silenced or inhibited) neutral.
    static func stateWords(of items: [JSONValue]) -> (name: String, tones: ItemColumn.StatusTones)? {
        guard !items.isEmpty else { return nil }
        if items.allSatisfy({ ($0["Image"] ?? $0["image"])?.stringValue != nil }),
            let tones = ItemColumn.StatusTones(words: "running=good,exited=bad,dead=bad")
        {
            return ("state", tones)
        }
        if items.allSatisfy({ $0["labels"]?["alertname"]?.stringValue != nil }),
            let tones = ItemColumn.StatusTones(words: "active=bad,unprocessed=busy,suppressed=neutral")
        {
            return ("state", tones)
        }
        return nil
    }

    /// A digest as people quote one: its first 12 hexadecimal digits, after an algorithm's
    /// name if it has one (Docker's `sha256:4f5a…` as `4f5a9c0e12ab`, a container id as
    /// `docker ps` shows it); `nil` for any other text, and for a digest already short (16
    /// digits or fewer) or a UUID, which people read whole. Decimal digits alone are a
    /// number, not a digest (a Mastodon status's or a Discord message's id,
    /// `113000000000000042`), read whole too.
    public static func shortDigest(_ text: String) -> String? {
        let digits = text.split(separator: ":", maxSplits: 1).last ?? ""
        let algorithm = text.count > digits.count ? text.prefix(text.count - digits.count) : ""
        guard digits.count > 16, algorithm.allSatisfy({ $0.isLetter || $0.isNumber || $0 == ":" }),
            digits.unicodeScalars.allSatisfy({ $0.properties.isASCIIHexDigit }),
            digits.unicodeScalars.contains(where: { $0.value > 0x39 })
        else { return nil }
        return String(digits.prefix(12))
    }

    /// Names of a status, a filter even with one value so far.
    static let statusFilterNames: Set<String> = ["status", "state", "phase", "health"]

    /// A text member with 2 to 8 values (1 to 8 for a status: ``statusFilterNames``) over at
    /// least 4 items, fewer values than items, in nearly every item: what a reader filters
    /// a table by (`?section=VALUE`). The item's own members first, then those one level
    /// down (a pod's `/status/phase`, a resource's `/attributes/status`), then an envelope's
    /// things by the names they name themselves by (a Jira issue's `/fields/status/name`);
    /// one of ``filterNames`` with two values or more first, then a status with one value
    /// (every pod running: the other phases come later), else the one with the fewest
    /// values. A reading (`"21.4"`) or a sentence with a number in it (Docker's `Up 2 hours
    /// (healthy)`, which changes by the minute) is no value to filter by.
    static func filterMember(of items: [JSONValue], paths: ItemMemberPaths, except: [JSONPointer?])
        -> (pointer: JSONPointer, values: Int)?
    {
        guard items.count >= 4 else { return nil }
        // A thing that names itself is filtered by its own name (a Jira issue's
        // `/fields/status/name`, a Linear issue's `/state/name`: `status`, `state`); a key in
        // a namespace by its last part (Azure DevOps' `System.State`: `state`).
        func filterName(_ pointer: JSONPointer) -> String {
            let tokens = pointer.tokens
            let name =
                tokens.count >= 2 && referenceNames.contains(tokens[tokens.count - 1])
                ? tokens[tokens.count - 2] : tokens.last ?? ""
            return plainName(name).lowercased()
        }
        var candidates: [(pointer: JSONPointer, values: Int)] = []
        for pointer in paths.top + paths.nested + paths.namedThings where !except.contains(pointer) {
            var values = Set<String>()
            var present = 0
            var unfit = false
            for item in items {
                guard let text = item.value(at: pointer)?.stringValue, !text.isEmpty, text.utf8.count <= 64 else {
                    continue
                }
                present += 1
                values.insert(text)
                // A moment is no group (a forecast's `endTime`, shared by a day and its night).
                if isReading(text) || isCountedSentence(text) || WallTime(feedTime: text) != nil { unfit = true }
                if values.count > 8 || unfit { break }
            }
            if unfit { continue }
            // A status may have one value in the first document (every pod running): the
            // others come, and the filter is decided once.
            let least = statusFilterNames.contains(filterName(pointer)) ? 1 : 2
            guard present * 10 >= items.count * 9, (least...8).contains(values.count), values.count < items.count
            else { continue }
            candidates.append((pointer, values.count))
        }
        for wanted in filterNames {
            if let named = candidates.first(where: { filterName($0.pointer) == wanted && $0.values >= 2 }) {
                return named
            }
        }
        if let status = candidates.first(where: { statusFilterNames.contains(filterName($0.pointer)) }) {
            return status
        }
        return candidates.min { $0.values < $1.values }
    }

    /// Whether `text` is a sentence with a number in it: three words or more, one a number
    /// (`Up 2 hours (healthy)`, `Exited (1) 5 minutes ago`).
    private static func isCountedSentence(_ text: String) -> Bool {
        let words = text.split(separator: " ")
        return words.count >= 3 && words.contains { word in word.contains { $0.isASCII && $0.isNumber } }
    }

    // MARK: - The columns

    /// The table's columns for `items`: their members (``ItemMemberPaths``, at most
    /// ``maxColumns`` columns), each with the format its name and values suggest. A member
    /// that is an object in every item shows as:
    /// - a column for each of its plain members, when it is an envelope (a pod's
    ///   `metadata`: ``ItemMemberPaths/envelopeNames``) or labels (``labelNames``);
    /// - else one column of the member that names it (``referenceNames``, or `summary` beside
    ///   an id, as PagerDuty's references have it: an author's
    ///   `login`), headed by the object's name;
    /// - else a column for each of its plain members, when it has at most
    ///   ``ItemExtractor/maxTextMembers`` of them (an address, a pod's `status`);
    /// - else one column, summarised (`18 fields`).
    ///
    /// A member with no value yet in any item is left out, unless its name says a status,
    /// an outcome or a time (``format(named:samples:)``). A `[time, value]` pair shows its
    /// value. A heading or a name that would repeat an earlier one is qualified by its
    /// object's (`Actor ID`, `actor.id`). Members for programs
    /// (``isForPrograms(_:samples:)``) are left out; past ``maxColumns``, the columns that
    /// tell a person least go first (``fewest(_:keeping:)``), the `key`'s and the `title`'s
    /// never.
    public static func columns(
        of items: [JSONValue], keeping key: JSONPointer? = nil, title: JSONPointer? = nil
    ) -> [ItemColumn] {
        let sampled = Array(items.prefix(sampledItems))
        let paths = ItemMemberPaths(of: sampled, sample: sampledItems)
        func samples(at pointer: JSONPointer) -> [JSONValue] {
            sampled.compactMap { item -> JSONValue? in
                guard let value = item.value(at: pointer), !value.isNull else { return nil }
                return value
            }
        }
        var columns: [ItemColumn] = []
        // Enough to choose from, not every member of a large object.
        let candidates = 3 * maxColumns
        for name in paths.names where columns.count < candidates {
            let own = JSONPointer(tokens: [name])
            let values = samples(at: own)
            if isForPrograms(name, samples: values) || tellsNothingYet(name, samples: values) { continue }
            if let series = loneSeries(in: values, named: name) {
                var shown = column(name: series.tokens[1], pointer: series, samples: samples(at: series))
                shown.format = .series
                shown.label = label(for: name)
                columns.append(shown)
                continue
            }
            // An envelope's things that name themselves (a Jira issue's `fields/status/name`)
            // among its plain members, in the envelope's order.
            let inner = inEnvelopeOrder(
                paths.nested.filter { $0.tokens[0] == name } + paths.namedThings.filter { $0.tokens[0] == name },
                of: sampled)
            // WordPress' `{"rendered": "<p>…</p>", "protected": false}`: its HTML, as text.
            if let rendered = inner.first(where: { $0.tokens[1] == "rendered" }),
                values.allSatisfy({ $0.objectValue != nil })
            {
                let renderedValues = samples(at: rendered)
                let format: ItemColumn.Format = renderedValues.allSatisfy { isHTTPURL($0.stringValue) } ? .link : .html
                columns.append(ItemColumn(label: label(for: name), pointer: rendered, format: format, name: name))
                continue
            }
            // An object of one object, by the same name in every item (CoinMarketCap's
            // `quote: {"USD": {"price": …}}`): that object's plain values, each a column,
            // headed with its name when that is a currency (`Price (USD)`).
            if inner.isEmpty, let wrapped = loneObjectName(in: values) {
                let currency = Currency(code: wrapped) != nil ? " (\(wrapped))" : ""
                for member in plainMembers(of: values.compactMap { $0[wrapped] }) where columns.count < candidates {
                    let pointer = JSONPointer(tokens: [name, wrapped, member])
                    let memberValues = samples(at: pointer)
                    if isForPrograms(member, samples: memberValues) || tellsNothingYet(member, samples: memberValues) {
                        continue
                    }
                    var shown = column(name: member, pointer: pointer, samples: memberValues)
                    shown.label += currency
                    columns.append(shown)
                }
                continue
            }
            // A thing's conditions, as Kubernetes lists them (a node's `status.conditions`,
            // in a `status` of objects only): its `Ready`, as `kubectl get nodes` shows it.
            if let condition = condition(in: name, inner: inner, samples: samples) {
                columns.append(condition)
                continue
            }
            // A quantity with its unit (the National Weather Service's
            // `{"unitCode": "wmoUnit:percent", "value": 20}`): one column, the unit in its
            // heading or its format.
            if let quantity = quantity(in: name, inner: inner, samples: samples) {
                columns.append(quantity)
                continue
            }
            if !inner.isEmpty, values.allSatisfy({ $0.objectValue != nil }) {
                let lower = name.lowercased()
                // A reference to a thing with an id may name it by its `summary` (PagerDuty's).
                let identified = inner.contains { isIDName($0.tokens[1]) }
                let references = identified ? referenceNames + ["summary"] : referenceNames
                let reference = named(inner, references).first { pointer in
                    samples(at: pointer).filter { $0.stringValue != nil }.count * 10 >= values.count * 9
                }
                if let reference, !ItemMemberPaths.isEnvelope(name), !labelNames.contains(lower) {
                    var shown = column(name: name, pointer: reference, samples: samples(at: reference))
                    shown.label = label(for: name)
                    columns.append(shown)
                } else if ItemMemberPaths.isEnvelope(name) || labelNames.contains(lower)
                    || inner.count <= ItemExtractor.maxTextMembers
                {
                    for pointer in inner where columns.count < candidates {
                        let memberValues = samples(at: pointer)
                        if isForPrograms(pointer.tokens[1], samples: memberValues)
                            || tellsNothingYet(pointer.tokens[1], samples: memberValues)
                        {
                            continue
                        }
                        var shown = column(name: pointer.tokens[1], pointer: pointer, samples: memberValues)
                        if pointer.tokens.count == 3 { shown.label = label(for: pointer.tokens[1]) }
                        let splitsAThing = !ItemMemberPaths.isEnvelope(name) && !labelNames.contains(lower)
                        if splitsAThing, isVague(shown.label) {
                            // The one vague value of a thing (OpenWeather's `clouds: {"all": 75}`)
                            // is that thing's.
                            shown.label = inner.count == 1 ? label(for: name) : qualified(shown.label, by: name)
                        }
                        columns.append(shown)
                    }
                    for pointer in readings(in: name, of: sampled) where columns.count < candidates {
                        columns.append(column(name: pointer.tokens[2], pointer: pointer, samples: samples(at: pointer)))
                    }
                    if let moment = moment(in: name, of: sampled), columns.count < candidates {
                        var shown = column(name: moment.tokens[2], pointer: moment, samples: samples(at: moment))
                        shown.label = qualified(shown.label, by: moment.tokens[1])
                        columns.append(shown)
                    }
                    // Arrays of objects inside it, tallied (a pod's `status.containerStatuses`).
                    for array in arraysOfObjects(in: name, of: sampled) {
                        columns.append(contentsOf: tallies(at: array, in: sampled))
                    }
                } else if let place = named(inner, placeNamingNames).first(where: { pointer in
                    samples(at: pointer).filter { $0.stringValue != nil }.count * 10 >= values.count * 9
                }) {
                    // A large object that says where (a flight's `departure`, nine members, its
                    // `airport` and when it is `scheduled`): that place, and its first time.
                    var shown = column(name: name, pointer: place, samples: samples(at: place))
                    shown.label = label(for: name)
                    columns.append(shown)
                    let moments = inner.filter { pointer in
                        let format = column(name: pointer.tokens[1], pointer: pointer, samples: samples(at: pointer))
                            .format
                        return format == .relative || format == .date
                    }
                    if let moment = moments.first {
                        var when = column(name: moment.tokens[1], pointer: moment, samples: samples(at: moment))
                        when.label = qualified(when.label, by: name)
                        columns.append(when)
                    }
                } else {
                    columns.append(column(name: name, pointer: own, samples: values))
                }
                continue
            }
            // An object in some items and `null` in the others that names itself (a Linear
            // issue's `assignee`, `{"name": "Grace"}` or nobody): that one column, as when
            // every item has one.
            if inner.isEmpty, !ItemMemberPaths.isEnvelope(name), !labelNames.contains(name.lowercased()),
                let naming = ItemMemberPaths.namingMember(of: values.compactMap(\.objectValue)),
                values.allSatisfy({ $0.objectValue != nil })
            {
                let pointer = JSONPointer(tokens: [name, naming])
                var shown = column(name: name, pointer: pointer, samples: samples(at: pointer))
                shown.label = label(for: name)
                columns.append(shown)
                continue
            }
            // An array of objects with a yes-or-no or a count to tally (an ECS task's
            // `containers`): those, in place of `2 items`.
            let tallied = tallies(at: own, in: sampled)
            if !tallied.isEmpty {
                columns.append(contentsOf: tallied)
                continue
            }
            if isSamplePairs(values) {
                // `[time, "value"]` (a Prometheus sample): the value is what a reader wants.
                let pairs = values.compactMap { $0.arrayValue?.last }
                columns.append(column(name: name, pointer: JSONPointer(tokens: [name, "1"]), samples: pairs))
                continue
            }
            columns.append(column(name: name, pointer: own, samples: values))
        }
        // A title found deeper than columns look (a CircleCI pipeline's commit subject,
        // `vcs/commit/subject`) is shown too, first: it names the item.
        if let title, title.tokens.count > 2, !columns.contains(where: { $0.pointer == title }),
            let name = title.tokens.last
        {
            columns.insert(column(name: name, pointer: title, samples: samples(at: title)), at: 0)
        }
        // A column that says again what names the item (a Kubernetes pod's `generateName`,
        // `web-7d9f8b6c5-`, before its `name`) tells nothing; nor does a moment's twin in
        // other units (Algolia's `created_at_i` beside `created_at`).
        let named = title ?? key
        let found = columns
        columns.removeAll { column in
            if let named, column.pointer != named, repeatsName(at: column.pointer, named: named, in: sampled) {
                return true
            }
            return isMomentTwin(column, among: found) || isSeriesTimes(column, among: found, in: sampled)
                || namedBeside(column, among: found, in: sampled) != nil
                || repeatsText(of: column, among: found, in: sampled, naming: [key, title].compactMap { $0 })
        }
        // The name that stays is headed as the thing it names (`Last updater`).
        for index in columns.indices {
            for other in found where namedBeside(other, among: found, in: sampled) == columns[index].pointer {
                columns[index].label = label(for: other.pointer.tokens.last ?? "")
            }
        }
        columns = withMoney(columns, in: sampled, key: key)
        columns = inMilliseconds(columns, in: sampled)
        let kept = fewest(columns.map { ($0, samples(at: $0.pointer)) }, keeping: [key, title].compactMap { $0 })
        // UUIDs (a Buildkite build's `id`), as wide as a sentence and read by no one, last,
        // unless they name the item.
        let uuids = kept.filter { column in
            let values = samples(at: column.pointer)
            return column.pointer != title && !values.isEmpty && values.allSatisfy { isUUID($0.stringValue ?? "") }
        }
        // So too a number that identifies the item for programs beside one that people use
        // (``peopleKeyNames``).
        let numbers = kept.filter { column in
            column.pointer != title
                && isNumberForPrograms(column, among: kept, titled: title != nil, samples: { samples(at: $0) })
        }
        let last = uuids + numbers
        return distinct(kept.filter { column in !last.contains { $0.pointer == column.pointer } } + last)
    }

    /// `columns` read in the units of a feed that writes its moments as milliseconds since
    /// 1970 (Jenkins' `timestamp`, Vercel's `created`): a whole number within a day of such
    /// a moment in every sampled item is a moment too (Vercel's `ready`; a market cap or a
    /// count is nowhere near), and a duration named without a unit (Jenkins' `duration`,
    /// `estimatedDuration`) is in milliseconds.
    private static func inMilliseconds(_ columns: [ItemColumn], in sampled: [JSONValue]) -> [ItemColumn] {
        let millisecondsSince1970: ClosedRange<Int64> = 1_000_000_000_000...9_999_999_999_999
        let moment = columns.first { column in
            guard column.format == .relative || column.format == .date else { return false }
            let values = sampled.map { $0.value(at: column.pointer)?.int64Value }
            return values.allSatisfy { $0.map(millisecondsSince1970.contains) ?? false }
        }
        guard let moment else { return columns }
        let day: Int64 = 86_400_000
        return columns.map { column in
            var column = column
            let name = column.pointer.memberName
            if column.format == .duration(.seconds), name.hasSuffix("duration") || name.hasSuffix("elapsed") {
                column.format = .duration(.milliseconds)
            }
            let nearMoment = sampled.allSatisfy { item in
                guard let value = item.value(at: column.pointer)?.int64Value,
                    let when = item.value(at: moment.pointer)?.int64Value
                else { return false }
                return millisecondsSince1970.contains(value) && abs(value - when) <= day
            }
            if column.format == .number, nearMoment { column.format = .relative }
            return column
        }
    }

    /// The column of the condition a table shows (``ItemCondition/shownTypes``) of the
    /// items' conditions at `name` (an array of conditions) or at `name/conditions` (in an
    /// object of no plain members: a Kubernetes node's `status`), in 9 of 10 items; `nil`
    /// when there is none.
    private static func condition(
        in name: String, inner: [JSONPointer], samples: (JSONPointer) -> [JSONValue]
    ) -> ItemColumn? {
        let own = JSONPointer(tokens: [name])
        let values = samples(own)
        let pointer: JSONPointer
        if values.first?.arrayValue != nil {
            pointer = own
        } else if inner.isEmpty, values.first?.objectValue != nil {
            pointer = JSONPointer(tokens: [name, "conditions"])
        } else {
            return nil
        }
        let held = samples(pointer)
        guard !held.isEmpty, held.count * 10 >= values.count * 9, held.allSatisfy(ItemCondition.isConditions)
        else { return nil }
        guard
            let type = ItemCondition.shownTypes.first(where: { type in
                held.allSatisfy { ItemCondition.status(in: $0, type: type) != nil }
            })
        else { return nil }
        return ItemColumn(label: label(for: type), pointer: pointer, format: .condition(type), name: type.lowercased())
    }

    /// The column of a quantity sent with its unit, WMO's way (the National Weather
    /// Service's `probabilityOfPrecipitation: {"unitCode": "wmoUnit:percent", "value": 20}`,
    /// `temperature: {"unitCode": "wmoUnit:degC", "value": 5.2, "qualityControl": "V"}`):
    /// its value under the object's name, a percentage as one, another unit in the heading
    /// (`Temperature (°C)`); `nil` when `inner`, the object's plain members, are not such.
    private static func quantity(
        in name: String, inner: [JSONPointer], samples: (JSONPointer) -> [JSONValue]
    ) -> ItemColumn? {
        let members = Set(inner.map { $0.tokens[1] })
        guard members.contains("unitCode"), members.contains("value"),
            members.isSubset(of: ["unitCode", "value", "qualityControl", "minValue", "maxValue"])
        else { return nil }
        let value = JSONPointer(tokens: [name, "value"])
        let units = Set(samples(JSONPointer(tokens: [name, "unitCode"])).compactMap(\.stringValue))
        guard units.count == 1, let code = units.first else { return nil }
        let unit = String(code.split(separator: ":").last ?? "")
        let shown: [String: String] = [
            "degC": "°C", "degF": "°F", "km_h-1": "km/h", "m_s-1": "m/s", "degree_(angle)": "°", "Pa": "Pa", "m": "m",
            "mm": "mm", "km": "km",
        ]
        if unit == "percent" {
            return ItemColumn(label: label(for: name), pointer: value, format: .percent, name: name)
        }
        let heading = label(for: name) + (shown[unit].map { " (\($0))" } ?? " (\(unit))")
        return ItemColumn(label: heading, pointer: value, format: .number, name: name)
    }

    /// Names of a member by which people know an item, where a number for programs keys it:
    /// a Jira issue's `key` (`OPS-101`, its `id` `10001`), Sentry's `shortId`, Linear's
    /// `identifier`, a GitHub issue's `number` (`#42`, its `id` `1296269`), GitLab's `iid`.
    static let peopleKeyNames: Set<String> = ["key", "shortid", "short_id", "identifier", "number", "iid"]

    /// Whether `column` is an item's `id` of decimal digits beside another of `columns`
    /// named as people know items (``peopleKeyNames``), with a value in every sampled item,
    /// each its own; or, in items that have a title (`titled`), a snowflake of 16 digits or
    /// more (a Mastodon status's or a Discord message's `113000000000000042`), which no one
    /// reads.
    private static func isNumberForPrograms(
        _ column: ItemColumn, among columns: [ItemColumn], titled: Bool, samples: (JSONPointer) -> [JSONValue]
    ) -> Bool {
        func isDecimal(_ value: JSONValue) -> Bool {
            if value.int64Value != nil { return true }
            guard let text = value.stringValue, !text.isEmpty else { return false }
            return text.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
        }
        guard column.pointer.tokens.count == 1, column.pointer.memberName.lowercased() == "id" else { return false }
        let ids = samples(column.pointer)
        guard !ids.isEmpty, ids.allSatisfy(isDecimal) else { return false }
        if titled, ids.allSatisfy({ (ItemExtractor.text($0)?.utf8.count ?? 0) >= 16 }) { return true }
        return columns.contains { other in
            guard other.pointer.tokens.count == 1, peopleKeyNames.contains(other.pointer.memberName.lowercased())
            else { return false }
            let keys = samples(other.pointer).compactMap(ItemExtractor.text)
            return keys.count == ids.count && Set(keys).count == keys.count
        }
    }

    /// The name of the one member of each of `values`, the same in each, whose value is an
    /// object (`USD` in CoinMarketCap's `{"USD": {"price": …}}`); `nil` when a value is not
    /// such an object.
    private static func loneObjectName(in values: [JSONValue]) -> String? {
        var name: String?
        for value in values {
            guard let members = value.objectValue, members.count == 1, let only = members.keys.first,
                members[only]?.objectValue != nil, name == nil || name == only
            else { return nil }
            name = only
        }
        return name
    }

    /// The names of the plain members of `objects`, in the order they first appear.
    private static func plainMembers(of objects: [JSONValue]) -> [String] {
        var names: [String] = []
        var seen = Set<String>()
        for object in objects {
            for (member, value) in object.objectValue ?? [:] where ItemMemberPaths.isPlain(value) {
                if seen.insert(member).inserted { names.append(member) }
            }
        }
        return names
    }

    /// `pointers` (of one object's members, two tokens or three) in the order their members
    /// first appear in that object over `items`.
    private static func inEnvelopeOrder(_ pointers: [JSONPointer], of items: [JSONValue]) -> [JSONPointer] {
        guard pointers.contains(where: { $0.tokens.count == 3 }), let name = pointers.first?.tokens[0] else {
            return pointers
        }
        var position: [String: Int] = [:]
        for item in items {
            for member in item[name]?.objectValue?.keys ?? [] where position[member] == nil {
                position[member] = position.count
            }
        }
        return pointers.enumerated().sorted { left, right in
            (position[left.element.tokens[1]] ?? Int.max, left.offset)
                < (position[right.element.tokens[1]] ?? Int.max, right.offset)
        }.map(\.element)
    }

    /// The first moment one level further down in the object `name` of `items`, when that
    /// object holds none of its own: a GitHub commit's `commit/author/date` (when it was
    /// written), in an object that 9 in 10 items have and whose samples read as times.
    private static func moment(in name: String, of items: [JSONValue]) -> JSONPointer? {
        let objects = items.compactMap { $0[name]?.objectValue }
        func isMoment(_ pointer: JSONPointer) -> Bool {
            let values = items.compactMap { $0.value(at: pointer) }.filter { !$0.isNull }
            guard values.count * 10 >= items.count * 9, values.allSatisfy({ $0.stringValue != nil }) else {
                return false
            }
            let shown = format(named: pointer.memberName, samples: values)
            return shown == .relative || shown == .date
        }
        guard let first = objects.first,
            !first.keys.contains(where: { isMoment(JSONPointer(tokens: [name, $0])) })
        else { return nil }
        for (member, value) in first {
            guard let inner = value.objectValue else { continue }
            for innerName in inner.keys {
                let pointer = JSONPointer(tokens: [name, member, innerName])
                if isMoment(pointer) { return pointer }
            }
        }
        return nil
    }

    /// The members of an object one level further down than ``ItemMemberPaths`` looks that
    /// holds only numbers, 2 to ``ItemExtractor/maxTextMembers`` of them, in nearly every item
    /// (a LoRaWAN uplink's `uplink_message/decoded_payload`: `temperature`, `humidity`,
    /// `battery`): a device's readings, what its feed is for. Three-token pointers, in order
    /// of first appearance.
    private static func readings(in name: String, of items: [JSONValue]) -> [JSONPointer] {
        let objects = items.compactMap { $0[name]?.objectValue }
        var inner: [String] = []
        var seen = Set<String>()
        for object in objects {
            for (member, value) in object where value.objectValue != nil && seen.insert(member).inserted {
                inner.append(member)
            }
        }
        var found: [JSONPointer] = []
        for member in inner {
            let held = objects.compactMap { $0[member]?.objectValue }
            guard held.count * 10 >= items.count * 9 else { continue }
            // A large object, or one with a text, is no device's readings.
            guard
                held.allSatisfy({ object in
                    object.count <= ItemExtractor.maxTextMembers
                        && object.values.allSatisfy { $0.doubleValue != nil || $0.isNull }
                })
            else { continue }
            var numbers: [String] = []
            var named = Set<String>()
            for object in held {
                for (reading, _) in object where named.insert(reading).inserted { numbers.append(reading) }
            }
            guard (2...ItemExtractor.maxTextMembers).contains(numbers.count) else { continue }
            found += numbers.map { JSONPointer(tokens: [name, member, $0]) }
        }
        return found
    }

    /// Whether the member `name` has no value in any item looked at (`null`, absent, or an
    /// empty object, list or text) and a name that says nothing of what it will hold: a
    /// column of dashes tells a person nothing (the item page still shows the member). A
    /// status, an outcome or a time by its name is kept: a running CI run's `conclusion` and
    /// `completed_at` come later.
    private static func tellsNothingYet(_ name: String, samples: [JSONValue]) -> Bool {
        // An empty object, list or text in every item (a Buildkite build's `env: {}`, a Jira
        // issue's `expand: ""`) says as much.
        let told = samples.filter { value in
            switch value {
            case .object(let members): !members.isEmpty
            case .array(let elements): !elements.isEmpty
            case .string(let text): !text.isEmpty
            default: true
            }
        }
        return told.isEmpty && format(named: name, samples: []) == .automatic
    }

    /// Whether `text` is a finite number sent as text (a Home Assistant sensor's state,
    /// `"21.4"`): a reading, not a word.
    public static func isReading(_ text: String) -> Bool {
        Double(text)?.isFinite == true
    }

    /// The value of a number sent as text: plain (`"21.4"`, ``isReading(_:)``; Swift reads
    /// `"0x1b4"` as 436 too) or written for people (`"12,400"`, ``formattedNumber(_:)``);
    /// `nil` for any other text.
    public static func writtenNumber(_ text: String) -> Double? {
        isReading(text) ? Double(text) : formattedNumber(text)
    }

    /// The value of a quantity in hexadecimal as Ethereum's JSON-RPC writes them (a block's
    /// `"number":"0x1406f4a"`, its `gasUsed` and `timestamp`): `0x`, then 1 to 15 hex digits
    /// without a leading zero (`0x0` alone is zero); `nil` for any other text, so that a hash,
    /// an address or data with its leading zeros (`"nonce":"0x0000000000000000"`) is none.
    public static func hexQuantity(_ text: String) -> Int64? {
        let utf8 = text.utf8
        guard utf8.count >= 3, utf8.count <= 17, text.hasPrefix("0x") else { return nil }
        let digits = text.dropFirst(2)
        guard digits == "0" || digits.first != "0" else { return nil }
        return Int64(digits, radix: 16)
    }

    /// The bytes a size written for people stands for: a number and a unit of bytes, with or
    /// without a space, in any case (Elasticsearch's `"194.9mb"`, `"225b"`, Docker's
    /// `"1.2GiB"`), or a Kubernetes quantity in binary units (`"128Mi"`, `"2Gi"`). A kilobyte
    /// is 1,024 bytes here, as Elasticsearch counts it; whole bytes (a size sent as text
    /// sorts by this value; it is shown as written). `nil` for any other text (`"5M"` may be a count).
    public static func writtenSize(_ text: String) -> Double? {
        let utf8 = text.utf8
        guard utf8.count <= 32 else { return nil }
        let number = utf8.prefix { (0x30...0x39).contains($0) || $0 == UInt8(ascii: ".") }
        guard !number.isEmpty, let value = Double(String(decoding: number, as: UTF8.self)), value.isFinite else {
            return nil
        }
        var unit = Substring(text.dropFirst(number.count))
        if unit.first == " " { unit = unit.dropFirst() }
        let powers: [Character: Int] = ["k": 1, "m": 2, "g": 3, "t": 4, "p": 5]
        let lower = unit.lowercased()
        let power: Int
        if lower == "b" {
            power = 0
        } else if lower.count == 2 || lower.count == 3, lower.last == "b", let first = lower.first,
            let known = powers[first], lower.count == 2 || lower.dropFirst().first == "i"
        {
            power = known
        } else if unit.count == 2, unit.last == "i", let first = unit.first, first.isUppercase,
            let known = powers[Character(first.lowercased())]
        {
            power = known
        } else {
            return nil
        }
        var bytes = value
        for _ in 0..<power { bytes *= 1024 }
        return bytes.rounded()
    }

    /// The value of a number written for people, as a spreadsheet sends it (the Google
    /// Sheets API's formatted values): digits grouped by commas (`12,400`,
    /// `-1,204,300.50`), after a currency sign (`$1,234.50`, `€99`, `−£3.20`) or before a
    /// percent sign (`45%`, `-3.5%`, the number before it). `nil` for anything else, a plain
    /// number among it (`"21.4"`: ``isReading(_:)``), which may be an id or a version as
    /// much as a quantity.
    public static func formattedNumber(_ text: String) -> Double? {
        func isDigit(_ character: Character) -> Bool { ("0"..."9").contains(character) }
        var rest = Substring(text)
        var negative = false
        var marked = false
        while let first = rest.first {
            if !negative, first == "-" || first == "−" {
                negative = true
            } else if !marked, "$€£¥".contains(first) {
                marked = true
            } else {
                break
            }
            rest = rest.dropFirst()
        }
        if !marked, rest.last == "%" {
            marked = true
            rest = rest.dropLast()
        }
        let parts = rest.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, !whole.isEmpty else { return nil }
        if parts.count == 2 {
            guard !parts[1].isEmpty, parts[1].allSatisfy(isDigit) else { return nil }
        }
        let groups = whole.split(separator: ",", omittingEmptySubsequences: false)
        guard groups.allSatisfy({ !$0.isEmpty && $0.allSatisfy(isDigit) }),
            groups.count == 1 || (groups[0].count <= 3 && groups.dropFirst().allSatisfy { $0.count == 3 }),
            groups.count > 1 || marked
        else { return nil }
        let digits = groups.joined() + (parts.count == 2 ? "." + parts[1] : "")
        guard let value = Double(digits), value.isFinite else { return nil }
        return negative ? -value : value
    }

    /// Whether `byte` is an ASCII hex digit.
    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }

    /// Whether the text at `pointer` is, in every one of `items` (3 or more) that has both,
    /// the start of the text at `named` or all of it, regardless of case: it says nothing
    /// the item's name does not.
    private static func repeatsName(at pointer: JSONPointer, named: JSONPointer, in items: [JSONValue]) -> Bool {
        var compared = 0
        for item in items {
            guard let text = item.value(at: pointer)?.stringValue, let name = item.value(at: named)?.stringValue
            else { continue }
            // CoinGecko's `id`, `bitcoin`, beside its `name`, `Bitcoin`, too; a name is short
            // (a hostile document's megabyte texts are not compared).
            guard !text.isEmpty, text.utf8.count <= name.utf8.count, name.utf8.count <= 256,
                name.lowercased().hasPrefix(text.lowercased())
            else { return false }
            compared += 1
        }
        return compared >= 3
    }

    /// Whether `column` shows a moment that another of `columns`, whose name begins its own
    /// as a word (before `_` or a capital), shows too: `created_at_i` (seconds) beside
    /// `created_at` (RFC 3339), Docker's `timeNano` beside its `time`. A twin in UTC is the
    /// one kept: WordPress' `date` is the site's time without a zone, its `date_gmt` the same
    /// moment in UTC.
    private static func isMomentTwin(_ column: ItemColumn, among columns: [ItemColumn]) -> Bool {
        func isMoment(_ format: ItemColumn.Format) -> Bool { format == .relative || format == .date }
        func inUTC(_ name: String) -> Bool { ["_gmt", "_utc"].contains { name.lowercased().hasSuffix($0) } }
        func extends(_ name: String, _ base: String) -> Bool {
            guard name.count > base.count, name.hasPrefix(base), let next = name.dropFirst(base.count).first else {
                return false
            }
            return next == "_" || (next.isUppercase && base.last?.isLowercase == true)
        }
        guard isMoment(column.format) else { return false }
        return columns.contains { other in
            guard other.pointer != column.pointer, isMoment(other.format) else { return false }
            if extends(column.name, other.name) { return !inUTC(column.name) }
            return extends(other.name, column.name) && inUTC(other.name)
        }
    }

    /// Endings of a member that names what another member's number is the id of (Docker
    /// Hub's `last_updater_username` beside `last_updater`, `1156886`).
    static let nameEndings = ["_username", "_name", "_login", "_display_name", "Username", "Name", "Login"]

    /// Whether `column`'s texts are another column's, item by item, in every sampled item
    /// (three or more items, where a coincidence, a `created_by` that is every item's
    /// `updated_by` so far, is unlikely; two or more texts): a Prometheus target's discovered `__address__` and
    /// its `instance` label, its `scrapePool` and its `job`. Of two such columns the one that
    /// names the item stays (at `naming`, the key's and the title's pointers, or inside the
    /// object they name: the target's `labels`), else the first.
    private static func repeatsText(
        of column: ItemColumn, among columns: [ItemColumn], in sampled: [JSONValue], naming: [JSONPointer]
    ) -> Bool {
        func names(_ pointer: JSONPointer) -> Bool {
            naming.contains { pointer.tokens.starts(with: $0.tokens) }
        }
        guard sampled.count >= 3, !names(column.pointer) else { return false }
        let texts = sampled.map { $0.value(at: column.pointer)?.stringValue }
        guard texts.allSatisfy({ !($0 ?? "").isEmpty }), Set(texts).count >= 2 else { return false }
        let position = columns.firstIndex { $0.pointer == column.pointer } ?? 0
        return columns.indices.contains { index in
            let other = columns[index]
            guard other.pointer != column.pointer, index < position || names(other.pointer) else { return false }
            return sampled.indices.allSatisfy { sampled[$0].value(at: other.pointer)?.stringValue == texts[$0] }
        }
    }

    /// The pointer of the column that names what `column`'s numbers are the ids of, when
    /// every sampled value of `column` is a whole number and a column beside it is its name
    /// with one of ``nameEndings``: the number then tells a person nothing the name does not.
    private static func namedBeside(_ column: ItemColumn, among columns: [ItemColumn], in sampled: [JSONValue])
        -> JSONPointer?
    {
        guard let name = column.pointer.tokens.last, let parent = column.pointer.parent else { return nil }
        let names = Set(nameEndings.map { parent.appending(name + $0) })
        guard let named = columns.first(where: { names.contains($0.pointer) }) else { return nil }
        let values = sampled.compactMap { $0.value(at: column.pointer) }.filter { !$0.isNull }
        guard !values.isEmpty, values.allSatisfy({ $0.int64Value != nil }) else { return nil }
        return named.pointer
    }

    /// Names of a yes-or-no member that says an object of an array is ready, counted across
    /// them (``ItemTally/Kind/count``: a pod's containers `ready`, `1/2`), lower-cased.
    static let readyNames: Set<String> = ["ready", "healthy", "available", "passing", "online"]
    /// Names of a count added up across the objects of an array (``ItemTally/Kind/sum``: a
    /// pod's containers' `restartCount`), lower-cased.
    static let summedNames: Set<String> = ["restartcount", "restart_count", "restarts"]

    /// The tallies of the array of objects at `pointer` (in 9 of 10 `sampled` items): how many
    /// of its objects are ready (``readyNames``, `true` or `false`) and the sum of their
    /// restarts (``summedNames``, whole numbers), as `kubectl get pods` shows them (`Ready`,
    /// `Restarts`); none when its objects have neither.
    static func tallies(at pointer: JSONPointer, in sampled: [JSONValue]) -> [ItemColumn] {
        let arrays = sampled.compactMap { $0.value(at: pointer)?.arrayValue }
        guard !arrays.isEmpty, arrays.count * 10 >= sampled.count * 9 else { return [] }
        var (ready, summed): (String?, String?) = (nil, nil)
        for case .object(let members) in arrays.joined().prefix(sampledItems) {
            for (name, value) in members.prefix(64) {
                let lower = name.lowercased()
                if ready == nil, readyNames.contains(lower), case .bool = value { ready = name }
                if summed == nil, summedNames.contains(lower), value.int64Value != nil { summed = name }
            }
        }
        var columns: [ItemColumn] = []
        if let ready {
            columns.append(
                ItemColumn(
                    label: label(for: ready), pointer: pointer, format: .tally(ItemTally(member: ready, kind: .count))))
        }
        if let summed {
            columns.append(
                ItemColumn(label: "Restarts", pointer: pointer, format: .tally(ItemTally(member: summed, kind: .sum))))
        }
        return columns
    }

    /// The arrays of objects in the member object `name` of the `sampled` items (a pod's
    /// `status.containerStatuses`), as two-token pointers, in the order of the first item's
    /// members.
    private static func arraysOfObjects(in name: String, of sampled: [JSONValue]) -> [JSONPointer] {
        guard let object = sampled.lazy.compactMap({ $0[name]?.objectValue }).first else { return [] }
        return object.prefix(64).compactMap { member, value in
            guard let elements = value.arrayValue, elements.contains(where: { $0.objectValue != nil }) else {
                return nil
            }
            return JSONPointer(tokens: [name, member])
        }
    }

    /// Whether `text` is a UUID (`5f2c0000-1b2a-4c3d-9e8f-0a1b2c3d4e5f`): 32 hexadecimal
    /// digits in groups of 8, 4, 4, 4 and 12.
    private static func isUUID(_ text: String) -> Bool {
        // Bitbucket writes its UUIDs in braces: `{0b9a…}`.
        let bare = text.hasPrefix("{") && text.hasSuffix("}") ? text.utf8.dropFirst().dropLast() : text.utf8[...]
        let groups = bare.split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false)
        return groups.map(\.count) == [8, 4, 4, 4, 12] && groups.allSatisfy { $0.allSatisfy(isHexDigit) }
    }

    /// At most ``maxColumns`` of `columns` (each with its sampled values), in their order
    /// (more only when the `kept` columns, the key's and the title's, are more): past that,
    /// first the ids of other things (`workflow_id`), digests (`head_sha`: 20 or more
    /// hex digits) and UUIDs go, from the last; then the arrays and objects shown summarised
    /// (`3 items`) and the columns with one value in every item (but a status); then the
    /// last columns, but a series (a sparkline is what a dashboard is read for); then the
    /// last series; a `kept` column never.
    private static func fewest(_ columns: [(ItemColumn, [JSONValue])], keeping kept: [JSONPointer]) -> [ItemColumn] {
        func tellsLeast(_ column: ItemColumn, _ values: [JSONValue]) -> Int {
            guard !kept.contains(column.pointer) else { return 4 }
            let lower = column.name.lowercased()
            if lower.hasSuffix("_id") || column.name.hasSuffix("Id") { return 0 }
            let texts = values.compactMap(\.stringValue)
            if !texts.isEmpty, texts.count == values.count,
                texts.allSatisfy({ ($0.utf8.count >= 20 && $0.utf8.allSatisfy(isHexDigit)) || isUUID($0) })
            {
                return 0
            }
            // A tally (a pod's containers ready) is read like a series: what the array is
            // shown for.
            if case .tally = column.format { return 3 }
            if column.format != .series, !values.isEmpty,
                values.allSatisfy({ $0.arrayValue != nil || $0.objectValue != nil })
            {
                // Things that name themselves (a GitHub issue's `labels`, `bug, p1`) read as
                // a list of names, a lone small thing as its texts (OpenWeather's `weather`,
                // `Clear, clear sky`); other objects as a count.
                let loneThings = values.allSatisfy { value in
                    guard let elements = value.arrayValue, elements.count == 1, let only = elements[0].objectValue
                    else { return false }
                    return loneThingTexts(only) != nil
                }
                return namesThings(values) || loneThings ? 2 : 1
            }
            // The same value in every item (a GeoJSON feature's `type`, a job's `_class`)
            // tells nothing that sets one item apart; a status the same for all does.
            if values.count >= 3, let first = values.first, values.allSatisfy({ $0 == first }) {
                if case .status = column.format { return 2 }
                return 1
            }
            return column.format == .series ? 3 : 2
        }
        var ranked = columns.map { (column: $0.0, rank: tellsLeast($0.0, $0.1)) }
        for rank in 0..<4 {
            while ranked.count > maxColumns, let last = ranked.lastIndex(where: { $0.rank == rank }) {
                ranked.remove(at: last)
            }
        }
        return ranked.map(\.column)
    }

    /// Whether the member `name`, with these values, is for programs rather than people: a
    /// GraphQL node id (`node_id`, `…_node_id`), Stripe's `object` naming the same type in
    /// every item, a member whose name begins with one `_`
    /// (but `_id` and an envelope's), or an API's address (every value a URL
    /// template, `https://api.github.com/repos/o/r/issues{/number}`, on an `api.` host, or
    /// through a versioned API's path, `/api/v3/…`).
    /// A found table leaves it out (the item page still shows it), so that a GitHub answer's
    /// dozen of them do not crowd out its status and times.
    static func isForPrograms(_ name: String, samples: [JSONValue]) -> Bool {
        let lower = name.lowercased()
        if lower == "node_id" || lower.hasSuffix("_node_id") { return true }
        // A Kubernetes object's bookkeeping: the version the API server compares, its own
        // address, which fields each client manages.
        if ["resourceversion", "selflink", "managedfields"].contains(lower) { return true }
        // Stripe's type marker, the same in every item (`"object": "charge"`); Google's
        // (`"kind": "youtube#searchResult"`).
        if lower == "object" || lower == "kind", let first = samples.first?.stringValue,
            lower == "object" || first.contains("#"), samples.allSatisfy({ $0.stringValue == first })
        {
            return true
        }
        // A version tag for HTTP's caches (Google's and Azure's `etag`).
        if lower == "etag" || lower == "_etag" { return true }
        // A serializer's or a vocabulary's marker: JSON.NET's and MongoDB Extended JSON's `$type`,
        // `$id`, `$ref`; JSON-LD's `@context`, `@id`, `@type` (a weather.gov alert's
        // `wx:Alert`); OData's `@odata.etag`. Not Logstash's `@timestamp`, which is the item's.
        if lower.hasPrefix("$") || ["@context", "@id", "@type", "@graph"].contains(lower)
            || lower.hasPrefix("@odata.")
        {
            return true
        }
        // A member marked as the API's own (Jenkins' `_class`, HAL's `_links`, CouchDB's
        // `_rev`, Elasticsearch's `_index`; in two underscores, GraphQL's `__typename`,
        // Prometheus' internal labels, a target's `__address__` and `__scheme__`), but an
        // `_id`, which is the item's, and Prometheus' `__name__`, a metric's name.
        if lower.hasPrefix("_"), lower != "_id", lower != "__name__", !ItemMemberPaths.isEnvelope(name) {
            return true
        }
        let texts = samples.compactMap(\.stringValue)
        guard !texts.isEmpty, texts.count == samples.count else { return false }
        // An API's address on its own server (crates.io's `links`: `/api/v1/crates/serde/owners`).
        if texts.allSatisfy({ $0.hasPrefix("/") && !$0.hasPrefix("//") && isVersionedAPIPath(pathOf: $0) }) {
            return true
        }
        guard texts.allSatisfy(isHTTPURL) else { return false }
        return texts.allSatisfy { text in
            let host = text.split(separator: "/", maxSplits: 2, omittingEmptySubsequences: true).dropFirst().first
            return text.contains("{") || (host?.lowercased().hasPrefix("api.") ?? false)
                || isVersionedAPIPath(pathOf: String(text.split(separator: "/").dropFirst(2).joined(separator: "/")))
        }
    }

    /// Whether the path `text` (a URL's past its host) goes through a versioned API to something
    /// (`/api/v3/checks/…`, Healthchecks.io's, GitLab's `/api/v4/…`, Sentry's `/api/0/…`,
    /// Jira's `/rest/api/2/…`) or Azure DevOps' `/_apis/…`: an address for programs. A
    /// health endpoint's `/api/health` is no such path.
    private static func isVersionedAPIPath(pathOf text: String) -> Bool {
        let segments = text.split(separator: "?", maxSplits: 1).first?.split(separator: "/") ?? []
        // Azure DevOps' `…/_apis/wit/workItems/100`.
        if segments.dropLast().contains(where: { $0.lowercased() == "_apis" }) { return true }
        // `api`, its version, and something of it after them.
        return zip(segments, segments.dropFirst()).dropLast().contains { segment, next in
            guard segment.lowercased() == "api" else { return false }
            let version = next.lowercased().hasPrefix("v") ? next.dropFirst() : next[...]
            return !version.isEmpty && version.allSatisfy { $0.isASCII && $0.isNumber }
        }
    }

    /// The texts of a lone small thing in an array, as a cell shows it (OpenWeather's
    /// `weather: [{"id": 800, "main": "Clear", "description": "clear sky", "icon": "01d"}]`:
    /// `Clear`, `clear sky`): its plain values but ids and icons, one to three of them, each
    /// of 24 characters at most; `nil` when it is not such a thing.
    public static func loneThingTexts(_ object: JSONObject) -> [String]? {
        var texts: [String] = []
        for (name, value) in object {
            let lower = name.lowercased()
            if isIDName(name) || ["icon", "image", "url", "href"].contains(lower) { continue }
            let text: String
            switch value {
            case .string(let string): text = string
            case .int(let number): text = String(number)
            case .double(let number): text = JSONValue.double(number).serializedString()
            case .bool(let flag): text = flag ? "yes" : "no"
            default: return nil
            }
            guard text.count <= 24 else { return nil }
            texts.append(text)
        }
        return (1...3).contains(texts.count) ? texts : nil
    }

    /// Whether `values` are arrays of things that name themselves (``ItemMemberPaths/namingMember(of:)``:
    /// a GitHub issue's `labels`, `[{"name": "bug", "color": "d73a4a"}]`), one thing in
    /// one array at least.
    private static func namesThings(_ values: [JSONValue]) -> Bool {
        var things: [JSONObject] = []
        for value in values {
            guard let elements = value.arrayValue else { return false }
            for element in elements where !element.isNull {
                guard let object = element.objectValue else { return false }
                things.append(object)
            }
        }
        return ItemMemberPaths.namingMember(of: things) != nil
    }

    /// Member names of a place that a large object (too many members to show) says it is at:
    /// a flight's `departure/airport`, a departure board's `stop`, a reading's `station`.
    static let placeNamingNames = ["airport", "station", "stop", "venue", "city", "location", "place", "site"]

    /// Member names of a thing an item refers to that name it (an author's `login`), in
    /// order of preference: an object member with one shows as it.
    public static let referenceNames = [
        "name", "login", "username", "display_name", "displayName", "full_name", "title", "label",
    ]

    /// `columns` with each heading and name told apart from the ones before it: a repeated
    /// one, of a member one level down or more, is qualified by the object that holds it
    /// (`Actor ID`, `actor.id`), so that a sort by name finds one column; members whose
    /// names read as one heading are headed by their names as written and told apart in
    /// capitals too (Binance's trade event `e`, the event's type, and `E time`: not `E` twice).
    private static func distinct(_ columns: [ItemColumn]) -> [ItemColumn] {
        // A heading shared by members of two objects is qualified in each (`Home team`,
        // `Away team`), not only in the second.
        var uses: [String: Int] = [:]
        for column in columns { uses[column.label, default: 0] += 1 }
        var labels = Set<String>()
        var names = Set<String>()
        let qualified = columns.map { column in
            var column = column
            if column.pointer.tokens.count >= 2 {
                let outer = column.pointer.tokens[column.pointer.tokens.count - 2]
                if labels.contains(column.label) || uses[column.label, default: 0] > 1 {
                    column.label = Self.qualified(column.label, by: outer)
                }
                if names.contains(column.name) { column.name = outer + "." + column.name }
            }
            labels.insert(column.label)
            names.insert(column.name)
            return column
        }
        // Members whose names read as one heading (Binance's trade events: `e`, the event's
        // type, and `E`, its time) are headed as named, after their object's name when they
        // are one down (`Data e`), and told apart in capitals too, as the pages show
        // headings: the second and later by what they show when that is a time (`E time`),
        // else by their place among them (`M (2)`).
        var seen: [String: Int] = [:]
        var still: [String: Int] = [:]
        for column in qualified { still[column.label.lowercased(), default: 0] += 1 }
        return qualified.map { column in
            let tokens = column.pointer.tokens
            let shared = column.label.lowercased()
            guard still[shared, default: 0] > 1, let name = tokens.last, !name.isEmpty else { return column }
            var column = column
            column.label = tokens.count >= 2 ? label(for: tokens[tokens.count - 2]) + " " + name : name
            seen[shared, default: 0] += 1
            if let place = seen[shared], place > 1 {
                let isTime = column.format == .relative || column.format == .date
                column.label += isTime ? " time" : " (\(place))"
            }
            return column
        }
    }

    /// The column of the member `name` at `pointer`, formatted from its name and `samples`.
    private static func column(name: String, pointer: JSONPointer, samples: [JSONValue]) -> ItemColumn {
        let format = shownFormat(named: name, samples: samples)
        var label = label(for: name, shownAs: format)
        // A Jenkins job's ball, shown as the build's outcome in words, is its status.
        if case .status(let tones) = format, !tones.shown.isEmpty, ["color", "colour"].contains(name.lowercased()) {
            label = "Status"
        }
        return ItemColumn(label: label, pointer: pointer, format: format, name: name)
    }

    /// How the values of a member named `name` are shown: ``format(named:samples:)``, but an
    /// id (or a digest) is a name, not a quantity: no grouped digits; nor is a number, a
    /// year or a serial (an incident's `incident_number`, `1234`, not `1,234`), unless it is
    /// written in hexadecimal (an Ethereum block's `number`, `0x1406f4a`), which a person
    /// reads in decimal.
    public static func shownFormat(named name: String, samples: [JSONValue]) -> ItemColumn.Format {
        let format = format(named: name, samples: samples)
        let hex = !samples.isEmpty && samples.allSatisfy { $0.stringValue.flatMap(hexQuantity) != nil }
        return format == .number && !hex && (isIDName(name) || isCodeWord(name)) ? .text : format
    }

    /// How a named value (``ItemsForm/values(nameMember:valueMember:)``) named `name` is
    /// shown: as ``shownFormat(named:samples:)`` says for its own name, the last of a part's
    /// (`sys.sunrise` as `sunrise`, `db.status` as `status`).
    public static func shownFormat(ofValueNamed name: String, value: JSONValue) -> ItemColumn.Format {
        let own = name.split(separator: ".").last.map(String.init) ?? name
        return shownFormat(named: own, samples: [value])
    }

    /// ``label(for:)``, less a last word of unit that `format` shows with each value:
    /// `disk_free_bytes` shown as `46.6 GiB` is headed `Disk free`, `uptime_seconds` shown as
    /// `1 d 0 h` `Uptime`.
    public static func label(for name: String, shownAs format: ItemColumn.Format) -> String {
        let label = label(for: name)
        let units: Set<String> =
            switch format {
            case .bytes: ["bytes"]
            case .duration: ["seconds", "milliseconds", "millis"]
            default: []
            }
        guard let space = label.lastIndex(of: " "), units.contains(label[space...].dropFirst().lowercased()) else {
            return label
        }
        // `duration_in_seconds` (Bitbucket's): `Duration`, not `Duration in`.
        let rest = label[..<space]
        if rest.hasSuffix(" in") { return String(rest.dropLast(3)) }
        return String(rest)
    }

    /// Heading words that say little without their object's name: a host's `cpu/user` and
    /// `memory/total_bytes`, a candle's `price/open`, a wind's `speed`, a rate limit's
    /// `remaining`. A column of such a member of a small object is headed by both
    /// (``qualified(_:by:)``): `CPU user`, `Memory total`, `Wind speed`.
    static let vagueWords: Set<String> = [
        "user", "system", "sys", "idle", "iowait", "nice", "steal", "total", "used", "free", "available", "avail",
        "min", "max", "avg", "average", "mean", "median", "count", "sum", "value", "current", "speed", "gust",
        "deg", "limit", "remaining", "reset", "rx", "tx", "in", "out", "read", "write", "percent", "pct", "rate",
        "p50", "p90", "p95", "p99", "open", "high", "low", "close", "last", "number", "code", "iata", "icao", "all",
    ]

    /// Whether a column headed `label` needs its object's name to be understood
    /// (``vagueWords``).
    private static func isVague(_ label: String) -> Bool {
        let first = label.split(separator: " ").first.map { $0.lowercased() } ?? ""
        return vagueWords.contains(first) || label == "%"
    }

    /// A heading `label` of a member of the object `outer`, with the object's name before
    /// it: `Away team`, `CPU user`, `Actor ID` (an initialism keeps its capitals).
    static func qualified(_ label: String, by outer: String) -> String {
        let first = label.split(separator: " ").first ?? ""
        let keepsCapitals = first.count > 1 && first.allSatisfy { $0.isUppercase || $0.isNumber }
        let shown = keepsCapitals ? label : label.prefix(1).lowercased() + label.dropFirst()
        return self.label(for: outer) + " " + shown
    }

    /// Whether every one of `samples` is a pair of a time (seconds since 1970) and a plain
    /// value: `[1796000000.1, "1"]`, as Prometheus's query API sends a sample.
    private static func isSamplePairs(_ samples: [JSONValue]) -> Bool {
        !samples.isEmpty
            && samples.allSatisfy { sample in
                guard let pair = sample.arrayValue, pair.count == 2, let time = pair[0].doubleValue, time > 1e9 else {
                    return false
                }
                switch pair[1] {
                case .string, .int, .double: return true
                default: return false
                }
            }
    }

    /// First parts of a key in a reverse-DNS namespace (`com.docker.compose.project`,
    /// `io.kubernetes.pod.name`).
    static let namespaceRoots: Set<String> = [
        "com", "org", "net", "io", "dev", "app", "co", "edu", "gov", "sh", "cloud", "tech", "ai",
    ]

    /// Whether `name` is a key in a namespace: no space, and three dots or more, two
    /// beginning with a domain's root (``namespaceRoots``), or one between two capitalised
    /// words, the first of letters alone (Azure DevOps' `System.State`, .NET's way).
    /// Elasticsearch's `pri.store.size` is words, not one; a part's `memory.rss_bytes` too.
    private static func isNamespacedKey(_ name: String) -> Bool {
        let dots = name.utf8.count { $0 == UInt8(ascii: ".") }
        guard dots >= 1, !name.contains(" ") else { return false }
        if dots == 1 {
            let parts = name.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
            func isCapital(_ byte: UInt8?) -> Bool { byte.map { (0x41...0x5A).contains($0) } ?? false }
            return parts.count == 2 && isCapital(parts[0].first) && isCapital(parts[1].first)
                && parts[0].allSatisfy { (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }
        }
        guard dots == 2 else { return true }
        return namespaceRoots.contains(name.prefix { $0 != "." }.lowercased())
    }

    /// `name` without its namespace (``isNamespacedKey(_:)``): `System.State` → `State`; any
    /// other name as it is. What a name's format and a filter are chosen by.
    static func plainName(_ name: String) -> String {
        guard isNamespacedKey(name), let dot = name.lastIndex(of: "."), name.index(after: dot) < name.endIndex else {
            return name
        }
        return String(name[name.index(after: dot)...])
    }

    /// Words some APIs run together in lower case, apart: Jira's `issuetype`, `duedate`,
    /// `resolutiondate`, `timespent` (its fields' names as its API sends them).
    static let runTogether: [String: [String]] = [
        "issuetype": ["issue", "type"], "duedate": ["due", "date"], "resolutiondate": ["resolution", "date"],
        "timespent": ["time", "spent"], "timeestimate": ["time", "estimate"],
        "timeoriginalestimate": ["original", "estimate"], "aggregatetimespent": ["time", "spent"],
        "workratio": ["work", "ratio"], "lastviewed": ["last", "viewed"], "fixversions": ["fix", "versions"],
        "statuscategorychangedate": ["status", "changed"],
    ]

    /// A heading for the member `name`: its words, the first capitalised, a unit its
    /// format shows dropped, common abbreviations in capitals: `change_pct` → `Change %`,
    /// `duration_s` → `Duration`, `started_at` → `Started`, `html_url` → `HTML URL`,
    /// `avgLatencyMs` → `Avg latency`, `num_comments` → `Comments`; a unit of measure it ends
    /// with after it, in parentheses: `temp_c` → `Temp (°C)` (``labelWords(for:)``).
    public static func label(for name: String) -> String {
        let (words, unit) = labelWords(for: name)
        return unit.map { "\(words) (\($0))" } ?? words
    }

    /// ``label(for:)`` in its two parts: the words (`Temp`), and the symbol of a unit of
    /// measure the name ends with (``unitSymbols``: `°C`), else `nil`.
    public static func labelWords(for name: String) -> (words: String, unit: String?) {
        // A label's key in a namespace (Docker's `com.docker.compose.project`, Kubernetes'
        // `app.kubernetes.io/name`): its last part says what it is.
        if let slash = name.lastIndex(of: "/"), name[..<slash].contains("."), name.index(after: slash) < name.endIndex {
            return labelWords(for: String(name[name.index(after: slash)...]))
        }
        if isNamespacedKey(name), let dot = name.lastIndex(of: "."), name.index(after: dot) < name.endIndex {
            return labelWords(for: String(name[name.index(after: dot)...]))
        }
        var words: [String] = []
        var word = ""
        var previous: Character?
        for character in name {
            if character == "_" || character == "-" || character == " " || character == "." {
                if !word.isEmpty { words.append(word) }
                word = ""
            } else if character.isUppercase, let previous, previous.isLowercase || previous.isNumber {
                if !word.isEmpty { words.append(word) }
                word = String(character)
            } else {
                word.append(character)
            }
            previous = character
        }
        if !word.isEmpty { words.append(word) }
        var lower = words.flatMap { word in runTogether[word.lowercased()] ?? [word.lowercased()] }
        // OpenWeather's and others' moment of a reading.
        if lower == ["dt"] { return ("Time", nil) }
        // A unit or a zone the cells show (`date_gmt` → `Date`).
        if lower.count > 1, let last = lower.last,
            ["s", "sec", "secs", "ms", "msec", "at", "gmt", "utc"].contains(last)
        {
            lower.removeLast()
        }
        // A unit of measure after the quantity (WeatherAPI's `temp_c`, `wind_kph`,
        // `precip_mm`): headed with it, as Open-Meteo's units are, `Temp (°C)`.
        var unit: String?
        if lower.count > 1, let last = lower.last, let symbol = unitSymbols[last] {
            lower.removeLast()
            unit = symbol
        }
        // A count says what it counts: `num_comments` → `Comments`, `number_of_bikes` → `Bikes`.
        if lower.count > 1, lower[0] == "num" || lower[0] == "nb" { lower.removeFirst() }
        if lower.count > 2, lower[0] == "number", lower[1] == "of" { lower.removeFirst(2) }
        guard !lower.isEmpty else { return (name, unit) }
        // A span of time after its number, which may end the word before (`Usd24`, `Hr`):
        // `USD 24h`.
        let spans = ["hr": "h", "hrs": "h", "h": "h", "d": "d", "day": "d", "min": "min", "mins": "min"]
        var index = 1
        while index < lower.count {
            let before = lower[index - 1]
            let digits = before.reversed().prefix { $0.isNumber }.count
            guard let span = spans[lower[index]], digits > 0 else {
                index += 1
                continue
            }
            lower[index] = String(before.suffix(digits)) + span
            if digits == before.count {
                lower.remove(at: index - 1)
            } else {
                lower[index - 1] = String(before.dropLast(digits))
                index += 1
            }
        }
        // Initialisms and currency codes (a price API's `usd`, `usd_24h_change`).
        let capitals: Set<String> = [
            "id", "uid", "url", "uri", "html", "api", "cpu", "gpu", "ram", "ip", "dns", "http", "tls", "tcp", "udp",
            "sla",
            "uuid", "sku", "ci", "os", "ui", "usd", "eur", "gbp", "jpy", "cny", "chf", "cad", "aud", "inr", "krw",
            "btc", "eth", "vwap", "iid", "eui", "rssi", "snr", "ttl", "mac", "ssid", "iata", "icao",
        ]
        let shown = lower.enumerated().map { index, word -> String in
            if word == "pct" || word == "percent" { return "%" }
            if capitals.contains(word) { return word.uppercased() }
            return index == 0 ? word.prefix(1).uppercased() + word.dropFirst() : word
        }
        return (shown.joined(separator: " "), unit)
    }

    /// Units of measure a member's name ends with, as ``label(for:)`` heads them: the last
    /// word of `temp_c`, `wind_kph`, `pressure_hpa`. Only words that say nothing else
    /// (not `m`, minutes or metres, nor `mb`, megabytes or millibars).
    static let unitSymbols: [String: String] = [
        "c": "°C", "f": "°F", "celsius": "°C", "fahrenheit": "°F", "mm": "mm", "cm": "cm", "km": "km",
        "kph": "km/h", "kmh": "km/h", "mph": "mph", "hpa": "hPa", "mbar": "mbar", "inhg": "inHg", "kwh": "kWh",
        "kw": "kW", "kg": "kg", "lbs": "lb",
    ]

    /// Names of an item's outcome, as against its state: a CI run's `status` says
    /// `completed`, its `conclusion` how (GitHub; `result` in Jenkins and Azure DevOps).
    public static let outcomeNames: Set<String> = ["conclusion", "result", "outcome", "verdict"]

    /// Names of how grave an event is: a log's `level` (`info`, `warn`, `error`), an alert's
    /// `severity` (`warning`, `critical`), shown in the tones of their words.
    static let gravityNames: Set<String> = ["level", "loglevel", "log_level", "severity"]

    /// Names of a member whose text is a status word, whatever its values so far: a state
    /// (``statusFilterNames``), an outcome (``outcomeNames``) or a gravity
    /// (``gravityNames``).
    static let statusNames = statusFilterNames.union(outcomeNames).union(gravityNames)

    /// The status format of a member named `lower` (lower-case): a `phase` is a Kubernetes
    /// object's, and one that is `Running` is well, not busy.
    private static func statusFormat(named lower: String) -> ItemColumn.Format {
        if lower == "phase", let phases = ItemColumn.StatusTones(words: "running=good") { return .status(phases) }
        return .status(ItemColumn.StatusTones())
    }

    /// The format a member's name and values suggest (``ItemColumn/Format/automatic`` when
    /// nothing more is known).
    static func format(named namespaced: String, samples: [JSONValue]) -> ItemColumn.Format {
        // A key in a namespace by its last part (Azure DevOps' `System.State`: a status).
        let name = plainName(namespaced)
        let lower = name.lowercased()
        // Quantities in hexadecimal (an Ethereum block's `gasUsed`, `timestamp`): what the
        // numbers they write would be.
        let hex = samples.compactMap { $0.stringValue.flatMap(hexQuantity) }
        if !hex.isEmpty, hex.count == samples.count, lower != "color", lower != "colour" {
            return Self.format(named: namespaced, samples: hex.map { .int($0) })
        }
        func has(_ parts: String...) -> Bool { parts.contains { lower.contains($0) } }
        func ends(_ parts: String...) -> Bool { parts.contains { lower.hasSuffix($0) } }
        // No item has a value yet (a CI run's `conclusion` while every run is running): the
        // name alone says a status or a moment; a value that later does not fit the format
        // is shown for what it is.
        // `created_at`, or `createdAt` (a JavaScript API's): a moment.
        let namesAMoment = ends("_at") || (name.hasSuffix("At") && name.dropLast(2).last?.isLowercase == true)
        guard let first = samples.first else {
            if statusNames.contains(lower) { return statusFormat(named: lower) }
            if namesAMoment { return .relative }
            return .automatic
        }
        if samples.allSatisfy({ $0.doubleValue != nil }) {
            // An HTTP status code (an uptime check's `status_code`, a request log's `status`
            // of whole numbers from 100 to 599): a status in the tones of its class.
            let httpNamed =
                [
                    "status_code", "statuscode", "http_status", "httpstatus", "response_code", "responsecode",
                    "http_code",
                ]
                .contains(lower) || (statusFilterNames.contains(lower) && lower != "phase")
            if httpNamed, samples.allSatisfy({ $0.int64Value.map { (100...599).contains($0) } ?? false }) {
                return .status(.httpCodes)
            }
            // A share of the way done, from 0 to 1 (Transmission's `percentDone`,
            // qBittorrent's `progress`): shown as a percentage. Without `percent` in its name,
            // only when some share is a fraction: a `completed` of 0 or 1 is a count.
            if has("done", "progress", "complete"), !has("date", "time", "_at"),
                samples.allSatisfy({ (0...1).contains($0.doubleValue ?? -1) }),
                has("percent") || samples.contains(where: { $0.int64Value == nil })
            {
                return .fraction
            }
            if has("pct", "percent", "ratio_pc") || lower.hasSuffix("%") { return .percent }
            if ends("bytes", "_size", "size") && samples.allSatisfy({ $0.int64Value != nil }) { return .bytes }
            if ends("_ms", "millis", "_msec") || name.hasSuffix("Ms") {
                return .duration(.milliseconds)
            }
            if ends("_s", "_sec", "_secs", "seconds", "duration", "elapsed", "uptime") { return .duration(.seconds) }
            // What is left, in seconds: OctoPrint's `printTimeLeft`, TfL's `timeToStation`, a
            // cache entry's `ttl`.
            if has("timeleft", "time_left", "timeremaining", "time_remaining", "timetostation", "timetoarrival")
                || lower == "ttl"
            {
                return .duration(.seconds)
            }
            // Time taken, in seconds: Strava's `elapsed_time` and `moving_time`.
            if has("elapsed", "moving_time", "movingtime"), samples.allSatisfy({ ($0.doubleValue ?? 0) < 1e9 }) {
                return .duration(.seconds)
            }
            // Past 2001 in seconds, or no time yet (qBittorrent's `completion_on: -1`).
            let epoch =
                samples.allSatisfy { ($0.doubleValue ?? 0) > 1e9 || ($0.doubleValue ?? 1) <= 0 }
                && samples.contains { ($0.doubleValue ?? 0) > 1e9 }
            // `updated` as USGS's GeoJSON sends it, milliseconds since 1970; a word of the
            // name that says when (a bike station's `last_reported`, Algolia's `created_at_i`,
            // qBittorrent's `added_on`).
            let momentNamed =
                namesAMoment || lower == "ts" || lower == "dt"
                || ends(
                    "time", "timestamp", "_ts", "date", "updated", "created", "modified", "seen", "started", "finished",
                    "sunrise", "sunset", "_on")
                || (name.hasSuffix("On") && name.dropLast(2).last?.isLowercase == true)
                || saysWhen(name)
            if epoch && momentNamed {
                return .relative
            }
            // Milliseconds since 1970 under a name that says nothing (Binance's trade event
            // `E` and `T`): a moment by its values alone (``areCloseMilliseconds(_:)``).
            if name.count <= 2, areCloseMilliseconds(samples) { return .relative }
            // `is_renting: 1` (GBFS's stations): a flag sent as a number.
            if isFlagName(name), samples.allSatisfy({ $0.int64Value == 0 || $0.int64Value == 1 }) {
                return ItemColumn.StatusTones(flagNamed: name).map { .status($0.forDigits()) } ?? .flag
            }
            return .number
        }
        // A state named so, with words and readings among its values (a Home Assistant
        // sensor's `78` beside a light's `"on"`): a status, whose readings show as numbers.
        if statusNames.contains(lower), samples.contains(where: { $0.stringValue != nil }),
            samples.allSatisfy({ $0.stringValue != nil || $0.doubleValue != nil })
        {
            return statusFormat(named: lower)
        }
        if samples.allSatisfy({ $0.boolValue != nil }), let tones = ItemColumn.StatusTones(flagNamed: name) {
            return .status(tones)
        }
        if isSeries(named: name, samples: samples) { return .series }
        guard case .string = first else { return .automatic }
        let texts = samples.compactMap(\.stringValue)
        guard texts.count == samples.count else { return .automatic }
        if HTMLPlainText.isHTML(at: JSONPointer(tokens: [name])) { return .html }
        // Markup by its values (a Mastodon status's `content`: `<p>Hello <a …>#swift</a></p>`).
        if texts.contains(where: { !$0.isEmpty }), texts.allSatisfy({ $0.isEmpty || HTMLPlainText.isMarkup($0) }) {
            return .html
        }
        // Text sent escaped for HTML (Stack Exchange's titles, `&quot;Sendable&quot;`), with
        // no tag in any item: shown with its references read.
        if texts.contains(where: HTMLPlainText.isEscaped), !texts.contains(where: HTMLPlainText.hasTag) {
            return .html
        }
        if lower == "color" || lower == "colour", texts.allSatisfy(isJenkinsBall),
            var balls = ItemColumn.StatusTones(words: jenkinsBallTones)
        {
            balls.shown = jenkinsBallWords
            return .status(balls)
        }
        if statusNames.contains(lower) || texts.allSatisfy(ItemColumn.StatusTones.isStatusWord) {
            return statusFormat(named: lower)
        }
        if texts.allSatisfy(isHTTPURL) {
            let pictureNamed = has("image", "avatar", "thumbnail", "icon", "logo", "picture", "photo")
            let pictureFiles = texts.allSatisfy { text in
                let path = text.lowercased().split(separator: "?").first ?? ""
                return [".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp", ".avif"].contains { path.hasSuffix($0) }
            }
            return pictureNamed || pictureFiles ? .image : .link
        }
        // Numbers written for people (a spreadsheet's `12,400`, `$1,234.50`), plain ones among
        // them: a quantity, though sent as text.
        if texts.contains(where: { formattedNumber($0) != nil }),
            texts.allSatisfy({ formattedNumber($0) != nil || isReading($0) })
        {
            return .number
        }
        // Sizes written for people (Elasticsearch's `_cat` answers: `"194.9mb"`, `"1.2gb"`).
        if texts.allSatisfy({ writtenSize($0) != nil }) {
            return .bytes
        }
        // Plain numbers sent as text, as APIs that keep every digit send prices
        // (CoinCap's `"priceUsd": "43210.1234567890"`): a quantity, unless the name or a
        // leading zero says a code.
        if texts.allSatisfy(isReading), !namesACode(name), !texts.contains(where: hasLeadingZero) {
            return has("pct", "percent") ? .percent : .number
        }
        // RFC 3339, or a date and time without a zone (read where the document says:
        // ``ItemColumn/localTimeOffset``).
        if texts.allSatisfy({ WallTime(localTime: $0, offsetSeconds: 0) != nil }) {
            // A moment near now, past or to come (a check's `next_ping`, "in 20 min").
            // Cloudflare's `created_on`, `activated_on`; SharePoint's `createdOn`.
            let recent =
                has("updated", "created", "modified", "time", "seen", "started", "finished", "last", "next")
                || lower == "ts" || namesAMoment || ends("_on")
                || (name.hasSuffix("On") && name.dropLast(2).last?.isLowercase == true)
            return recent ? .relative : .date
        }
        return .automatic
    }

    /// Whether `samples` are moments by their values alone: two or more whole numbers of
    /// milliseconds since 1970 (thirteen digits: from 2001 on), all within a week of each
    /// other, as the events of a live feed are. A trillion-sized amount (a market cap) or an
    /// id of that size is not so close to its neighbours' in every sampled item.
    static func areCloseMilliseconds(_ samples: [JSONValue]) -> Bool {
        let week: Int64 = 7 * 86_400_000
        let values = samples.compactMap(\.int64Value)
        guard values.count >= 2, values.count == samples.count, let low = values.min(), let high = values.max()
        else { return false }
        return low >= 1_000_000_000_000 && high <= 9_999_999_999_999 && high - low <= week
    }

    /// Words of a member's name that say it holds a moment, wherever they stand in the
    /// name (`last_reported`, `created_at_i`, `time_position`, a rate limit's `reset`): with a number of seconds or
    /// milliseconds since 1970 in every item, a time.
    static let momentWords: Set<String> = [
        "time", "timestamp", "date", "updated", "created", "modified", "seen", "started", "finished", "ended",
        "reported", "changed", "contact", "heartbeat", "checked", "expires", "expiry", "reset", "due", "deadline",
        "since", "until",
    ]

    /// Words of a member's name that say it holds a series of readings (``isSeries(named:samples:)``).
    static let seriesWords: Set<String> = [
        "sparkline", "history", "series", "values", "datapoints", "points", "prices", "trend", "samples", "readings",
    ]

    /// Whether every one of `samples` is a series (``ItemSeries``) and either is made of
    /// timed pairs (a Prometheus range query's `values`, Graphite's `datapoints`) or has a
    /// name that says so (``seriesWords``: `sparkline`, `history`, …): a short array of
    /// numbers is as often a point (GeoJSON's `coordinates`) or a colour.
    static func isSeries(named name: String, samples: [JSONValue]) -> Bool {
        guard !samples.isEmpty, samples.allSatisfy({ ItemSeries($0) != nil }) else { return false }
        if samples.allSatisfy(ItemSeries.isTimed) { return true }
        let words = Set(label(for: name).lowercased().split(separator: " ").map(String.init))
        return !words.isDisjoint(with: seriesWords)
    }

    /// The pointer to the series when every one of `values` (the member `name`'s) is an
    /// object holding one, under the same name, and nothing else: CoinGecko's
    /// `sparkline_in_7d: {"price": […]}`, a series named by either name (``isSeries(named:samples:)``).
    private static func loneSeries(in values: [JSONValue], named name: String) -> JSONPointer? {
        guard let first = values.first?.objectValue, first.count == 1, let member = first.keys.first else { return nil }
        let held = values.compactMap { value -> JSONValue? in
            guard let object = value.objectValue, object.count == 1 else { return nil }
            return object[member]
        }
        guard held.count == values.count,
            isSeries(named: name, samples: held) || isSeries(named: member, samples: held)
        else { return nil }
        return JSONPointer(tokens: [name, member])
    }

    /// Whether `column` holds the times of a series column beside it (CloudWatch's
    /// `Timestamps` beside its `Values`, as many in every sampled item): the series is shown
    /// in their order, and they tell nothing more.
    private static func isSeriesTimes(_ column: ItemColumn, among columns: [ItemColumn], in sampled: [JSONValue])
        -> Bool
    {
        guard let name = column.pointer.tokens.last, ItemSeries.timesNames.contains(name.lowercased()) else {
            return false
        }
        return columns.contains { series in
            series.format == .series && series.pointer.parent == column.pointer.parent
                && sampled.allSatisfy { item in
                    guard let values = item.value(at: series.pointer)?.arrayValue else { return true }
                    return ItemSeries.times(beside: series.pointer, in: item, count: values.count) != nil
                }
        }
    }

    /// Whether a word of the member `name` says when (``momentWords``) and none says how
    /// much (`bytes_reported` is a count, `last_reported` a moment).
    private static func saysWhen(_ name: String) -> Bool {
        let words = Set(label(for: name).lowercased().split(separator: " ").map(String.init))
        return !words.isDisjoint(with: momentWords) && words.isDisjoint(with: quantityWords)
    }

    /// Words of a member's name that say it holds an amount (``saysWhen(_:)``).
    static let quantityWords: Set<String> = [
        "bytes", "count", "num", "number", "total", "size", "amount", "sum", "length", "duration", "bits", "balance",
        "price", "cost", "fee", "value", "volume", "cap",
    ]

    /// Whether the member `name` reads as a yes-or-no question (`is_renting`, `hasWifi`,
    /// `can_reserve`): its 1 and 0 are a flag, not a count.
    static func isFlagName(_ name: String) -> Bool {
        let first = label(for: name).lowercased().split(separator: " ")
        return first.count > 1 && ["is", "has", "can", "allows"].contains(first[0])
    }

    /// Whether the member `name` holds a code written in digits rather than a quantity (an
    /// id, a version, a flight's number, a postcode, a year, a rank, a place: ``placeWords``):
    /// its digits are not grouped, and it leads no tile.
    static func namesACode(_ name: String) -> Bool {
        let lower = name.lowercased()
        let parts = [
            "version", "code", "zip", "postal", "phone", "number", "year", "build", "ref", "tag", "sku", "rank",
        ]
        return isIDName(name) || parts.contains { lower.contains($0) } || namesAPlace(name)
    }

    /// Words of a member's name that say where, by a number that is a name (a departure's
    /// `terminal` 5, its `gate`, a train's `platform`, a room): whole words, singular (a
    /// count of `seats` is a quantity).
    static let placeWords: Set<String> = [
        "terminal", "gate", "platform", "track", "stand", "seat", "room", "floor", "lane", "bay", "door", "berth",
        "pier", "aisle", "hall",
    ]

    /// Whether a word of the member `name` says a place (``placeWords``).
    static func namesAPlace(_ name: String) -> Bool {
        label(for: name).lowercased().split(separator: " ").contains { placeWords.contains(String($0)) }
    }

    /// Whether a word of the member `name` says an ordinal or a code, not a quantity (an
    /// `incident_number`, a `run_number`, a GitLab pipeline's `iid`, a `year`, a `rank`, a
    /// `status_code`, a `port`, a `gate`): whole words only, unlike ``namesACode(_:)``, which
    /// judges text.
    public static func isCodeWord(_ name: String) -> Bool {
        let words = label(for: name).lowercased().split(separator: " ")
        return words.contains {
            ["number", "iid", "year", "version", "code", "zip", "postal", "rank", "build", "port", "serial"].contains(
                $0)
        } || namesAPlace(name)
    }

    /// Whether `text` begins with a zero that is not a number's own (`"02139"`, not
    /// `"0.5"`): a code.
    private static func hasLeadingZero(_ text: String) -> Bool {
        let digits = text.drop { $0 == "-" }
        return digits.count > 1 && digits.first == "0" && digits.dropFirst().first != "."
    }

    /// The colours of a Jenkins job's ball (its `color` in `/api/json`), each also with
    /// `_anime` while a build runs.
    static let jenkinsBalls = ["blue", "red", "yellow", "grey", "disabled", "aborted", "notbuilt"]

    /// The balls' tones: the last build passed (blue), failed (red) or was unstable
    /// (yellow); any ball that moves is a build running.
    static let jenkinsBallTones =
        "blue=good,red=bad,yellow=busy,"
        + jenkinsBalls.map { "\($0)_anime=busy" }.joined(separator: ",")

    /// What each ball says, as Jenkins' own pages say it: the last build's result, or
    /// "building" while a build runs.
    static let jenkinsBallWords: [String: String] = {
        var words = [
            "blue": "success", "red": "failed", "yellow": "unstable", "grey": "not built", "notbuilt": "not built",
            "disabled": "disabled", "aborted": "aborted",
        ]
        for ball in jenkinsBalls { words[ball + "_anime"] = "building" }
        return words
    }()

    /// Whether `text` is a Jenkins ball's colour (``jenkinsBalls``), still or moving.
    private static func isJenkinsBall(_ text: String) -> Bool {
        let still = text.hasSuffix("_anime") ? String(text.dropLast(6)) : text
        return jenkinsBalls.contains(still)
    }

    /// Whether `text` is an absolute http or https URL.
    public static func isHTTPURL(_ text: String?) -> Bool {
        guard let text else { return false }
        return text.hasPrefix("https://") || text.hasPrefix("http://")
    }

    private static func escaped(_ token: String) -> String {
        JSONPointer(tokens: [token]).description.dropFirst().description
    }
}
