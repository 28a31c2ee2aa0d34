import Foundation
import NIOConcurrencyHelpers
import TestSupport
import Testing

@testable import FeedCore

/// The store keeps the mirror's items in step with each patch, extracting only what a
/// patch touched and deriving the item changes from its paths: checked against the full
/// computation (``ItemExtractor`` over the whole document, ``ItemChange/between(_:_:)``).
@Suite("Items kept in step with the patches", .onThreadsOfItsOwn)
struct MirrorItemsTests {
    /// The Newswire profile without the version guard, so every change publishes.
    static let profile: ItemProfile = {
        var profile = ItemProfile.nytNewswire
        profile.versionPath = nil
        return profile
    }()

    /// Whether ``MirrorItems`` follows `patch`, which turned `before` into `after`, from the
    /// patch's paths (the incremental path) rather than by a full extraction and diff. Its
    /// state is a function of the document, so a fresh one stands for the store's.
    static func followsIncrementally(
        _ patch: JSONPatch, from before: FeedSnapshot, to after: FeedSnapshot, profile: ItemProfile
    ) -> Bool {
        let extractor = ItemExtractor(profile: profile)
        var mirror = MirrorItems(document: before.mirror, extractor: extractor)
        return mirror.applyIncrementally(patch, to: after.mirror, extractor: extractor) != nil
    }

    /// Expects the items and item changes `after` publishes (the store applied `patch` to
    /// `before`) to equal a full extraction and diff, and every item to be found by its key;
    /// returns whether ``MirrorItems`` followed the patch incrementally.
    static func expectItemsOfFullComputation(
        _ patch: JSONPatch, from before: FeedSnapshot, to after: FeedSnapshot, profile: ItemProfile,
        at place: String
    ) -> Bool {
        let expected = ItemExtractor(profile: profile).items(in: after.document)
        let text = String(decoding: patch.serializedBytes(), as: UTF8.self)
        #expect(Array(after.published.items) == expected, "\(place): \(text)")
        #expect(
            after.published.itemChanges == ItemChange.between(before.published.items, expected), "\(place): \(text)")
        #expect(expected.allSatisfy { after.published.item(forKey: $0.key) == $0 }, "\(place): \(text)")
        return followsIncrementally(patch, from: before, to: after, profile: profile)
    }

    /// A random change to a Newswire document's `results`, as a patch, from the kinds a
    /// real feed sends and a few it rarely does (moves, non-objects, repeated keys, the
    /// whole array replaced).
    /// With `serial`, every story and changed key is new (`serial` counts up), so no key
    /// ever repeats and the incremental path does the work; without, keys repeat often.
    static func randomPatch(_ document: JSONValue, _ rng: inout SplitMix64, serial: inout Int?) -> JSONPatch {
        let count = document["results"]?.arrayValue?.count ?? 0
        func index(_ extra: Int = 0) -> Int { Int.random(in: 0..<max(1, count + extra), using: &rng) }
        func fresh() -> Int? {
            guard let next = serial else { return nil }
            serial = next + 1
            return next
        }
        func story() -> JSONValue { NewswireFeed.story(fresh() ?? Int.random(in: 0..<40, using: &rng)) }
        func pointer(_ text: String) -> JSONPointer { (try? JSONPointer(text)) ?? .root }
        var operations: [JSONPatch.Operation] = []
        for _ in 0..<Int.random(in: 1...3, using: &rng) {
            let live = max(0, count + operations.count)  // a bound, not exact: bad indices just fail
            switch Int.random(in: 0..<12, using: &rng) {
            case 0, 1: operations.append(.add(path: pointer("/results/0"), value: story()))
            case 2: operations.append(.add(path: pointer("/results/-"), value: story()))
            case 3: operations.append(.add(path: pointer("/results/\(index(1))"), value: story()))
            case 4 where live > 0: operations.append(.remove(path: pointer("/results/\(index())")))
            case 5 where live > 0: operations.append(.replace(path: pointer("/results/\(index())"), value: story()))
            case 6 where live > 0:
                operations.append(
                    .replace(path: pointer("/results/\(index())/title"), value: .string("Edited \(index(9))")))
            case 7 where live > 0:
                operations.append(
                    .replace(
                        path: pointer("/results/\(index())/section"),
                        value: .string(NewswireFeed.sections[index(0) % 4])))
            case 8 where live > 0:
                // A changed key: the item leaves under its old key and comes under a new one.
                operations.append(
                    .replace(
                        path: pointer("/results/\(index())/uri"),
                        value: .string("nyt://article/x-\(fresh() ?? index(50))")))
            case 9 where live > 1:
                operations.append(.move(from: pointer("/results/\(index())"), path: pointer("/results/0")))
            case 10: operations.append(.add(path: pointer("/results/0"), value: .string("not an object")))
            case 11 where Int.random(in: 0..<5, using: &rng) == 0:
                operations.append(
                    .replace(path: pointer("/results"), value: NewswireFeed.document(stories: [1, 2, 3])["results"]!))
            default: operations.append(.replace(path: pointer("/num_results"), value: .int(Int64(index(100)))))
            }
        }
        return JSONPatch(operations: operations)
    }

    @Test(
        "random patches: the published items and their changes equal the full computation",
        arguments: [false, true])
    func randomPatchesMatchTheFullComputation(uniqueKeys: Bool) throws {
        var rng = SplitMix64(seed: uniqueKeys ? 0x5E1A1 : 0x17E5)
        var serial: Int? = uniqueKeys ? 1000 : nil
        let extractor = ItemExtractor(profile: Self.profile)
        var applied = 0
        var incremental = 0
        for round in 0..<40 {
            let store = FeedStore(configuration: .init(profile: Self.profile), epoch: "t")
            store.replaceDocument(NewswireFeed.document(stories: Array(0..<Int.random(in: 0..<12, using: &rng))))
            for step in 0..<25 {
                let before = try #require(store.snapshot)
                let patch = Self.randomPatch(before.document, &rng, serial: &serial)
                guard (try? store.apply(patch)) != nil else { continue }  // a random index past the end
                applied += 1
                let after = try #require(store.snapshot)
                let expected = extractor.items(in: after.document)
                #expect(
                    Array(after.published.items) == expected,
                    "round \(round) step \(step): \(String(decoding: patch.serializedBytes(), as: UTF8.self))")
                #expect(
                    after.published.itemChanges == ItemChange.between(before.published.items, expected),
                    "round \(round) step \(step): \(String(decoding: patch.serializedBytes(), as: UTF8.self))")
                #expect(after.published.itemsByKey.count == expected.count)
                #expect(expected.allSatisfy { after.published.item(forKey: $0.key) == $0 })
                if Self.followsIncrementally(patch, from: before, to: after, profile: Self.profile) { incremental += 1 }
            }
        }
        #expect(applied > 500, "enough patches applied to mean something: \(applied)")
        if uniqueKeys {
            // The incremental path did most of the work (the rest: whole-array replaces, moves).
            #expect(incremental > applied / 2, "\(incremental) of \(applied) incremental")
        }
    }

    /// A random change to a price API's document (`{"as_of": …, "prices": {"c3": {…}, …}}`),
    /// whose items are the members of `prices`: mostly values changed inside members, some
    /// members replaced whole, added, removed, moved, or not objects.
    static func randomMemberPatch(_ document: JSONValue, _ rng: inout SplitMix64) -> JSONPatch {
        let names = Array(document["prices"]?.objectValue?.keys ?? [])
        func pointer(_ text: String) -> JSONPointer { (try? JSONPointer(text)) ?? .root }
        func some() -> String { names.isEmpty ? "c0" : names[Int.random(in: 0..<names.count, using: &rng)] }
        func coin() -> JSONValue { .object(["usd": .int(Int64.random(in: 1...999, using: &rng))]) }
        let fresh = "c\(Int.random(in: 0..<30, using: &rng))"
        var operations: [JSONPatch.Operation] = []
        for _ in 0..<Int.random(in: 1...3, using: &rng) {
            switch Int.random(in: 0..<12, using: &rng) {
            case 0..<5 where !names.isEmpty:
                operations.append(
                    .replace(
                        path: pointer("/prices/\(some())/usd"), value: .int(Int64.random(in: 1...999, using: &rng))))
            case 5 where !names.isEmpty:
                operations.append(.add(path: pointer("/prices/\(some())/note"), value: .string("n")))
            case 6 where !names.isEmpty: operations.append(.replace(path: pointer("/prices/\(some())"), value: coin()))
            case 7: operations.append(.add(path: pointer("/prices/\(fresh)"), value: coin()))
            case 8 where !names.isEmpty: operations.append(.remove(path: pointer("/prices/\(some())")))
            case 9 where !names.isEmpty:
                operations.append(.move(from: pointer("/prices/\(some())"), path: pointer("/prices/\(fresh)")))
            case 10 where Int.random(in: 0..<4, using: &rng) == 0:
                operations.append(.add(path: pointer("/prices/\(fresh)"), value: .string("not an object")))
            default:
                operations.append(.replace(path: pointer("/as_of"), value: .int(Int64.random(in: 0...99, using: &rng))))
            }
        }
        return JSONPatch(operations: operations)
    }

    @Test("random patches to items that are an object's members: the items and changes equal the full computation")
    func randomMemberPatchesMatchTheFullComputation() throws {
        var rng = SplitMix64(seed: 0xC011)
        var applied = 0
        var incremental = 0
        for round in 0..<30 {
            let store = FeedStore(
                configuration: .init(profile: .table, detection: ItemProfile.Overrides()), epoch: "t")
            var prices = JSONObject()
            for n in 0..<Int.random(in: 2..<12, using: &rng) { prices["c\(n)"] = .object(["usd": .int(Int64(n))]) }
            store.replaceDocument(.object(["as_of": .int(0), "prices": .object(prices)]))
            let profile = store.itemReading.profile
            #expect(profile.nameMember == "name")
            for step in 0..<25 {
                let before = try #require(store.snapshot)
                let patch = Self.randomMemberPatch(before.document, &rng)
                guard (try? store.apply(patch)) != nil else { continue }
                applied += 1
                let after = try #require(store.snapshot)
                let followed = Self.expectItemsOfFullComputation(
                    patch, from: before, to: after, profile: profile, at: "round \(round) step \(step)")
                if followed { incremental += 1 }
            }
        }
        #expect(applied > 500, "enough patches applied to mean something: \(applied)")
        #expect(
            incremental > applied / 4,
            "values changed inside members are followed in place: \(incremental) of \(applied)")
    }

    @Test(
        "a series as arrays side by side: each row an item, a value changed in place updates its row, a row added adds one"
    )
    func seriesRowsFollowPatches() throws {
        let store = FeedStore(configuration: .init(profile: .table, detection: ItemProfile.Overrides()), epoch: "t")
        let hours = (0..<4).map { JSONValue.string("2026-11-30T0\($0 * 3):00") }
        store.replaceDocument(
            .object([
                "latitude": .double(52.52),
                "hourly": .object([
                    "time": .array(hours),
                    "temperature_2m": .array([.double(2.1), .double(1.8), .double(1.5), .double(3.2)]),
                ]),
            ]))
        let profile = store.itemReading.profile
        #expect(
            try profile.itemsForm == .series && profile.itemsPath == JSONPointer("/hourly"),
            "\(store.itemReading.notes)")
        #expect(profile.keyPath == (try JSONPointer("/time")))
        let first = try #require(store.snapshot)
        #expect(
            first.published.items.map { $0.raw["temperature_2m"] } == [
                .double(2.1), .double(1.8), .double(1.5), .double(3.2),
            ])

        let patches: [JSONPatch] = [
            JSONPatch(operations: [.replace(path: try JSONPointer("/hourly/temperature_2m/2"), value: .double(0.9))]),
            JSONPatch(operations: [.replace(path: try JSONPointer("/latitude"), value: .double(52.5))]),
            JSONPatch(operations: [
                .add(path: try JSONPointer("/hourly/time/-"), value: .string("2026-11-30T12:00")),
                .add(path: try JSONPointer("/hourly/temperature_2m/-"), value: .double(5.9)),
            ]),
        ]
        let (kinds, last) = try Self.applyAgainstFullComputation(patches, to: store, profile: profile)
        #expect(kinds == [[.updated], [], [.added]], "\(kinds)")
        #expect(last.published.items.count == 5)
        #expect(last.published.items.last?.raw["temperature_2m"] == .double(5.9))
    }

    @Test("a spreadsheet's rows: a value changed updates its row, a row appended adds one, a change elsewhere none")
    func sheetRowsFollowPatches() throws {
        let store = FeedStore(configuration: .init(profile: .table, detection: ItemProfile.Overrides()), epoch: "t")
        store.replaceDocument(
            .object([
                "range": .string("A1:B4"),
                "values": .array([
                    .array([.string("Region"), .string("Revenue")]), .array([.string("North"), .string("12,400")]),
                    .array([.string("South"), .string("9,870")]), .array([.string("East"), .string("15,020")]),
                ]),
            ]))
        let profile = store.itemReading.profile
        #expect(profile.itemsForm == .rows(names: ["Region", "Revenue"], header: true), "\(store.itemReading.notes)")
        let patches: [JSONPatch] = [
            JSONPatch(operations: [.replace(path: try JSONPointer("/values/2/1"), value: .string("10,100"))]),
            JSONPatch(operations: [.replace(path: try JSONPointer("/range"), value: .string("A1:B5"))]),
            JSONPatch(operations: [
                .add(path: try JSONPointer("/values/-"), value: .array([.string("West"), .string("7,310")]))
            ]),
        ]
        let (kinds, last) = try Self.applyAgainstFullComputation(patches, to: store, profile: profile)
        #expect(kinds == [[.updated], [], [.added]], "\(kinds)")
        #expect(last.published.items.map(\.key) == ["North", "South", "East", "West"])
    }

    @Test("exchange rates, an object of values: a rate changed updates its item, a currency added adds one")
    func namedValuesFollowPatches() throws {
        let store = FeedStore(configuration: .init(profile: .table, detection: ItemProfile.Overrides()), epoch: "t")
        store.replaceDocument(
            .object([
                "base": .string("EUR"), "date": .string("2026-11-30"),
                "rates": .object(["AUD": .double(1.6521), "CHF": .double(0.9312), "USD": .double(1.0573)]),
            ]))
        let profile = store.itemReading.profile
        #expect(profile.itemsForm == .values(nameMember: "name", valueMember: "rates"), "\(store.itemReading.notes)")
        let patches: [JSONPatch] = [
            JSONPatch(operations: [.replace(path: try JSONPointer("/rates/CHF"), value: .double(0.9344))]),
            JSONPatch(operations: [.replace(path: try JSONPointer("/date"), value: .string("2026-12-01"))]),
            JSONPatch(operations: [.add(path: try JSONPointer("/rates/JPY"), value: .double(161.52))]),
            JSONPatch(operations: [.remove(path: try JSONPointer("/rates/AUD"))]),
        ]
        let (kinds, last) = try Self.applyAgainstFullComputation(patches, to: store, profile: profile)
        #expect(kinds == [[.updated], [], [.added], [.removed]], "\(kinds)")
        #expect(last.published.items.map(\.key) == ["CHF", "USD", "JPY"])
        #expect(last.published.items.first?.raw["rates"] == .double(0.9344))
    }

    @Test("a list of texts (Prometheus' label values): a text added adds an item, one removed removes it")
    func textsFollowPatches() throws {
        let store = FeedStore(configuration: .init(profile: .table, detection: ItemProfile.Overrides()), epoch: "t")
        store.replaceDocument(
            .object([
                "status": .string("success"),
                "data": .array([.string("node"), .string("prometheus"), .string("blackbox")]),
            ]))
        let profile = store.itemReading.profile
        #expect(profile.itemsForm == .texts(valueMember: "value"), "\(store.itemReading.notes)")
        #expect(profile.keyPath == (try JSONPointer("/value")))
        let patches: [JSONPatch] = [
            JSONPatch(operations: [.add(path: try JSONPointer("/data/-"), value: .string("postgres"))]),
            JSONPatch(operations: [.replace(path: try JSONPointer("/status"), value: .string("success"))]),
            JSONPatch(operations: [.remove(path: try JSONPointer("/data/1"))]),
        ]
        let (kinds, last) = try Self.applyAgainstFullComputation(patches, to: store, profile: profile)
        #expect(kinds == [[.added], [], [.removed]], "\(kinds)")
        #expect(last.published.items.map(\.key) == ["node", "blackbox", "postgres"])
        #expect(last.published.items.map(\.title) == ["node", "blackbox", "postgres"])
    }

    /// Applies `patches` to `store` in turn, each checked against the full computation
    /// (``expectItemsOfFullComputation(_:from:to:profile:at:)``); the kinds of item change
    /// each made, and the last snapshot.
    static func applyAgainstFullComputation(
        _ patches: [JSONPatch], to store: FeedStore, profile: ItemProfile
    ) throws -> (kinds: [[ItemChange.Kind]], last: FeedSnapshot) {
        var before = try #require(store.snapshot)
        var kinds: [[ItemChange.Kind]] = []
        for (index, patch) in patches.enumerated() {
            try store.apply(patch)
            let after = try #require(store.snapshot)
            _ = expectItemsOfFullComputation(patch, from: before, to: after, profile: profile, at: "patch \(index)")
            kinds.append(after.published.itemChanges.map(\.kind))
            before = after
        }
        return (kinds, before)
    }

    /// A Kubernetes pod, keyed one level down (`/metadata/name`).
    static func pod(_ name: String, phase: String) -> JSONValue {
        .object([
            "metadata": .object(["name": .string(name), "namespace": .string("prod")]),
            "status": .object(["phase": .string(phase), "podIP": .string("10.0.0.1")]),
        ])
    }

    @Test("random patches to pods keyed one level down: the items and changes equal the full computation")
    func randomNestedKeyPatchesMatchTheFullComputation() throws {
        var rng = SplitMix64(seed: 0x90D5)
        var applied = 0
        var incremental = 0
        let phases = ["Running", "Pending", "Failed"]
        for round in 0..<20 {
            let store = FeedStore(
                configuration: .init(profile: .table, detection: ItemProfile.Overrides()), epoch: "t")
            let pods = (0..<Int.random(in: 4..<10, using: &rng)).map { Self.pod("p\($0)", phase: phases[$0 % 3]) }
            store.replaceDocument(.object(["kind": .string("PodList"), "items": .array(pods)]))
            let profile = store.itemReading.profile
            #expect(profile.keyPath == (try JSONPointer("/metadata/name")))
            for step in 0..<25 {
                let before = try #require(store.snapshot)
                let count = before.document["items"]?.arrayValue?.count ?? 0
                let index = Int.random(in: 0..<max(1, count), using: &rng)
                let name = "p\(Int.random(in: 0..<14, using: &rng))"
                let phase = phases[Int.random(in: 0..<3, using: &rng)]
                func pointer(_ text: String) throws -> JSONPointer { try JSONPointer(text) }
                let operation: JSONPatch.Operation
                switch Int.random(in: 0..<6, using: &rng) {
                case 0: operation = .replace(path: try pointer("/items/\(index)/status/phase"), value: .string(phase))
                case 1: operation = .replace(path: try pointer("/items/\(index)/metadata/name"), value: .string(name))
                case 2: operation = .add(path: try pointer("/items/0"), value: Self.pod(name, phase: phase))
                case 3: operation = .remove(path: try pointer("/items/\(index)"))
                case 4:
                    operation = .replace(
                        path: try pointer("/items/\(index)/metadata"), value: .object(["name": .string(name)]))
                default: operation = .move(from: try pointer("/items/\(index)"), path: try pointer("/items/0"))
                }
                let patch = JSONPatch(operations: [operation])
                guard (try? store.apply(patch)) != nil else { continue }
                applied += 1
                let after = try #require(store.snapshot)
                let followed = Self.expectItemsOfFullComputation(
                    patch, from: before, to: after, profile: profile, at: "round \(round) step \(step)")
                if followed { incremental += 1 }
            }
        }
        #expect(applied > 300, "enough patches applied to mean something: \(applied)")
        #expect(incremental > applied / 4, "changes inside a pod are followed in place: \(incremental) of \(applied)")
    }

    @Test("item changes are derived from the patch where it touches only items, and handed on as the one value")
    func derivedFromThePatchAndHandedOn() throws {
        let store = FeedStore(configuration: .init(profile: .nytNewswire), epoch: "t")
        store.replaceDocument(NewswireFeed.document(stories: Array((0..<200).reversed()), version: 1))
        let delivered = NIOLockedValueBox<PublishedView?>(nil)
        store.observe { change in delivered.withLockedValue { $0 = change.snapshot.published } }
        for n in 1...50 {
            let before = try #require(store.snapshot)
            let patch = JSONPatch(operations: [
                .add(path: try JSONPointer("/results/0"), value: NewswireFeed.story(1000 + n)),
                .remove(path: try JSONPointer("/results/200")),
                .replace(path: try JSONPointer("/num_results"), value: .int(Int64(1 + n))),
            ])
            try store.apply(patch)
            let after = try #require(store.snapshot)
            #expect(
                Self.followsIncrementally(patch, from: before, to: after, profile: .nytNewswire),
                "patch \(n) followed from its paths")
            // Everything that reads the change reads the same value: the observers get the
            // store's own view, with the item changes computed once, at the commit.
            let view = after.published
            #expect(delivered.withLockedValue { $0 } === view)
            #expect(view.itemChanges.map(\.kind) == [.added, .removed])
            #expect(view.itemChanges.first?.item.title == "Story number \(1000 + n)")
        }
    }

    @Test("append mode's add-first-and-drop-last is followed incrementally")
    func appendModeIsIncremental() throws {
        let store = FeedStore(configuration: .init(profile: .wikimediaRecentChange), epoch: "t")
        var incremental = 0
        for n in 0..<300 {
            let before = store.snapshot
            let change = store.prependItem(
                .object(["meta": .object(["id": .string("e\(n)")]), "title": .string("Page \(n)")]), keep: 100)
            guard let before, case .patch(let patch, _) = change.kind else { continue }  // the first: a snapshot
            let followed = Self.followsIncrementally(
                patch, from: before, to: change.snapshot, profile: .wikimediaRecentChange)
            if followed { incremental += 1 }
        }
        let view = try #require(store.snapshot?.published)
        #expect(view.items.count == 100)
        #expect(view.items.first?.title == "Page 299")
        #expect(view.itemChanges.map(\.kind) == [.added, .removed])
        #expect(incremental == 299)
    }

    @Test(
        "item changes between views several changes apart, composed from the history, equal the full diff",
        arguments: [false, true])
    func composedChangesMatchTheFullDiff(uniqueKeys: Bool) throws {
        var rng = SplitMix64(seed: uniqueKeys ? 0xC0A1 : 0xC0A2)
        var serial: Int? = uniqueKeys ? 5000 : nil
        var compared = 0
        for _ in 0..<30 {
            let store = FeedStore(configuration: .init(profile: Self.profile), epoch: "t")
            store.replaceDocument(NewswireFeed.document(stories: Array(0..<Int.random(in: 1..<12, using: &rng))))
            var views = [try #require(store.snapshot?.published)]
            for _ in 0..<20 {
                let before = try #require(store.snapshot)
                guard (try? store.apply(Self.randomPatch(before.document, &rng, serial: &serial))) != nil else {
                    continue
                }
                views.append(try #require(store.snapshot?.published))
            }
            for gap in [2, 3, 5] where views.count > gap {
                for index in gap..<views.count {
                    let (old, new) = (views[index - gap], views[index])
                    let composed = store.itemChanges(from: old, to: new)
                    let full = ItemChange.between(old.items, new.items)
                    // The same changes; the order is the steps' (a page frame uses them as a set).
                    #expect(composed.count == full.count)
                    #expect(full.allSatisfy { change in composed.contains(change) })
                    compared += 1
                }
            }
        }
        #expect(compared > 500, "enough pairs compared: \(compared)")
    }
}
