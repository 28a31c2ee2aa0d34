import FeedCore
import Foundation
import TestSupport
import Testing

@testable import WebUI

/// A list entry is rendered through the `story` template once per item and time it says
/// (``StoryFragmentCache``): a new page client's whole list is made of kept entries, and
/// each is byte for byte the entry rendered afresh, however the items and the clock change.
@Suite(.onThreadsOfItsOwn) struct StoryFragmentCacheTests {
    /// Story `index`, titled `title`, published at `published`.
    static func story(_ index: Int, title: String? = nil, published: Date) -> JSONValue {
        guard case .object(var members) = NewswireFeed.story(index, title: title) else { return .null }
        members["published_date"] = .string(RelativeTime.machine(published))
        return .object(members)
    }

    @Test("change after change, and as the clock moves, every kept entry is the entry rendered afresh")
    func keptEntriesAreTheEntriesRenderedAfresh() throws {
        var random = SplitMix64(seed: 71)
        let start = Date(timeIntervalSince1970: 1_796_000_000)
        var now = start
        var stories: [(id: Int, title: String, published: Date)] = (0..<60).map {
            ($0, "Story \($0)", start.addingTimeInterval(-Double($0) * 50))
        }
        var nextID = stories.count
        let store = FeedStore(configuration: .init(profile: .nytNewswire), epoch: "e")
        store.replaceDocument(
            NewswireFeed.document(stories.map { Self.story($0.id, title: $0.title, published: $0.published) }))
        let cache = StoryFragmentCache()
        var cached = PageRenderer(assetVersion: "v")
        cached.storyCache = cache
        let fresh = PageRenderer(assetVersion: "v")
        var said: Set<String> = []
        var renders = 0
        for step in 0..<200 {
            let place = Int.random(in: 0..<stories.count, using: &random)
            let patch: JSONValue
            switch Int.random(in: 0..<4, using: &random) {
            case 0:
                stories[place].title = "Retitled <\(step)> & more"
                patch = Patch.replace("/results/\(place)/title", .string(stories[place].title))
            case 1:
                stories.insert((nextID, "New story \(nextID)", now), at: 0)
                patch = Patch.add("/results/0", Self.story(nextID, title: "New story \(nextID)", published: now))
                nextID += 1
            case 2 where stories.count > 30:
                stories.remove(at: place)
                patch = Patch.remove("/results/\(place)")
            default:
                stories[place].published = now
                patch = Patch.replace("/results/\(place)/published_date", .string(RelativeTime.machine(now)))
            }
            // The profile's version (`num_results`) moves on, so the view takes the change.
            try store.apply(JSONPatch(json: .array([patch, Patch.replace("/num_results", .int(Int64(1_000 + step)))])))
            now.addTimeInterval([0, 0, 1, 30, 90, 3_600, 90_000][Int.random(in: 0..<7, using: &random)])
            let view = try #require(store.snapshot?.published)
            for item in view.items {
                let kept = cached.storyFragment(item, profile: view.profile, now: now)
                let made = fresh.storyFragment(item, profile: view.profile, now: now)
                #expect(kept == made, "step \(step), item \(item.key)")
                renders += 1
                for match in kept.matches(of: /<time[^>]*>([^<]*)</) { said.insert(String(match.output.1)) }
            }
        }
        // The run saw relative times of every size, so kept entries were checked against them.
        #expect(said.contains("just now") && said.contains { $0.hasSuffix("min ago") }, "\(said.sorted().prefix(20))")
        #expect(said.contains { $0.hasSuffix("h ago") } && said.contains { $0.hasSuffix("d ago") }, "\(said)")
        #expect(
            cache.renderedRows < renders / 4, "entries rendered through the cache: \(cache.renderedRows) of \(renders)")
    }

    @Test("a page stream's whole list of 1,000 after a new entry renders that one entry")
    func aWholeListRendersOnlyTheNewEntry() throws {
        let now = Date(timeIntervalSince1970: 1_796_000_000)
        let store = FeedStore(configuration: .init(profile: .nytNewswire), epoch: "e")
        store.replaceDocument(
            NewswireFeed.document((0..<1_000).map { Self.story($0, published: now.addingTimeInterval(-Double($0))) }))
        let cache = StoryFragmentCache()
        var renderer = PageRenderer(assetVersion: "v")
        renderer.storyCache = cache
        func list() throws -> [String] {
            let view = try #require(store.snapshot?.published)
            return view.items.map { renderer.storyFragment($0, profile: view.profile, now: now) }
        }
        let first = try list()
        #expect(cache.renderedRows == 1_000)
        try store.apply(
            JSONPatch(
                json: .array([
                    Patch.add("/results/0", Self.story(5_000, title: "Breaking <news>", published: now)),
                    Patch.replace("/num_results", .int(1_001)),
                ])))
        let second = try list()
        #expect(cache.renderedRows == 1_001)
        #expect(second.count == 1_001, "\(second.count) entries")
        #expect(second.first?.contains("Breaking &lt;news&gt;") == true)
        #expect(second.dropFirst().elementsEqual(first), "the other 1,000 entries as before")
    }
}
