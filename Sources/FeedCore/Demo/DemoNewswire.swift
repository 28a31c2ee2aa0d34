import Foundation

/// The built-in demo feed: a simulated New York Times “Times Newswire” document that
/// changes a little at every step. Pure logic, no I/O; whoever streams it calls
/// ``advance(now:)`` every few seconds and diffs ``document`` before and after.
///
/// The document has the real API's shape,
/// `{"status":"OK","copyright":…,"num_results":N,"results":[…]}`, with fictional stories
/// from ``DemoStoryBank``, newest first. Thumbnails are feedweb's own offline SVGs
/// (`/static/demo/<name>.svg`); about one story in six has none.
///
/// `num_results` is the feed's version number: it starts at `initialCount` and goes up
/// by exactly one at every step that changes the newest state (a new story, an edit or
/// a removal). It goes down only on a ``DemoChange/staleRegression(servedNumResults:latestNumResults:)``
/// step, which serves a copy of the document from one to five steps earlier, as a
/// lagging cache would; the next step is always a ``DemoChange/recovered(then:)``
/// that brings the newest state back with one more change on top, so `num_results`
/// then exceeds every value served before.
///
/// Everything is reproducible: the same seed and the same sequence of `now` values give
/// the same documents and changes.
public struct DemoNewswire: Sendable {
    /// The current document, as a client of the feed would receive it.
    public private(set) var document: JSONValue

    /// The most stories `results` holds: the initial count (at least 1).
    public let capacity: Int

    /// The newest state's `num_results` (what ``document`` shows unless it is stale).
    public private(set) var latestNumResults: Int64

    /// Whether ``document`` is currently an older, stale copy.
    public private(set) var isServingStale = false

    private var rng: DemoRandom
    /// The newest state's stories, newest first, each with its rendered JSON so a step
    /// re-renders only the story it touches.
    private var stories: [Listed] = []
    /// The newest state's recent documents, oldest first, the current one last.
    private var history: [JSONValue] = []
    /// Template indices left in the current pass through the bank.
    private var deck: [Int] = []
    /// How many times each URL slug has been used, so URLs stay unique. It gains an entry
    /// only for a title never seen before, so it stays small however long the demo runs
    /// (a few thousand entries after days of steps).
    private var slugUses: [String: Int] = [:]
    private var copyrightYear: Int64

    private static let historyLength = 6

    /// One step in `regressionOdds` may serve a stale copy.
    private static let regressionOdds = 12

    /// Builds the starting document: `initialCount` stories (a negative count counts as
    /// 0), newest first, published at irregular intervals over the few hours before
    /// `now`; `num_results` is `initialCount`.
    public init(seed: UInt64, now: Date, initialCount: Int = 20) {
        let count = max(0, initialCount)
        rng = DemoRandom(seed: seed)
        capacity = max(1, count)
        latestNumResults = Int64(count)
        copyrightYear = DemoTimestamp.year(now)
        document = .null

        var age = Double(rng.int(in: 60...420))
        for _ in 0..<count {
            let published = now.addingTimeInterval(-age)
            // Typos in stories that have been up for a while would have been fixed.
            var story = makeStory(published: published, mayHaveTypo: age < 1800)
            // Some stories have been updated since they were published.
            if rng.chance(1, in: 3) {
                let elapsed = Int(age)
                if elapsed > 120 {
                    story.updated = published.addingTimeInterval(Double(rng.int(in: 60...min(elapsed, 7200))))
                }
            }
            stories.append(Listed(story))
            age += Double(rng.int(in: 240...1320))
        }
        publishLatest()
    }

    /// One simulated step at time `now`; the document always changes.
    ///
    /// Usually a new story at the top (the oldest drops off the bottom when the list is
    /// full); sometimes an edit of a recent story or a withdrawal; about one step in 12
    /// a stale regression, always followed by a recovery.
    public mutating func advance(now: Date) -> DemoChange {
        copyrightYear = DemoTimestamp.year(now)
        if isServingStale {
            isServingStale = false
            let change = freshChange(now: now)
            publishLatest()
            return .recovered(then: change)
        }
        if history.count >= 2, rng.chance(1, in: Self.regressionOdds) {
            // Any earlier snapshot: the last one is the current document.
            let stale = history[rng.int(below: history.count - 1)]
            document = stale
            isServingStale = true
            return .staleRegression(
                servedNumResults: stale["num_results"]?.int64Value ?? 0,
                latestNumResults: latestNumResults
            )
        }
        let change = freshChange(now: now)
        publishLatest()
        return change
    }

    // MARK: Steps

    /// Applies one new-story, edit or removal change to the newest state.
    private mutating func freshChange(now: Date) -> DemoChange {
        latestNumResults += 1
        let roll = rng.int(below: 100)
        if roll < 7, stories.count > max(1, capacity / 2) {
            let removed = stories.remove(at: rng.int(below: stories.count))
            return .removed(title: removed.story.title)
        }
        if roll < 30, let edited = edit(now: now) {
            return edited
        }
        let story = makeStory(published: now, mayHaveTypo: true)
        stories.insert(Listed(story), at: 0)
        if stories.count > capacity {
            stories.removeLast(stories.count - capacity)
        }
        return .added(title: story.title)
    }

    /// Revises one of the most recent stories, if any still has something to revise.
    private mutating func edit(now: Date) -> DemoChange? {
        guard !stories.isEmpty else { return nil }
        let start = rng.int(below: min(stories.count, 8))
        for k in 0..<stories.count {
            let i = (start + k) % stories.count
            var story = stories[i].story
            if let kind = story.applyEdit(now: now, rng: &rng) {
                stories[i] = Listed(story)
                return .edited(title: story.title, edit: kind)
            }
        }
        return nil
    }

    /// Renders the newest state into ``document`` and remembers it for stale copies.
    private mutating func publishLatest() {
        let copyright =
            "Copyright (c) \(copyrightYear) The New York Times Company.  All Rights Reserved."
        let root: JSONObject = [
            "status": .string("OK"),
            "copyright": .string(copyright),
            "num_results": .int(latestNumResults),
            "results": .array(stories.map(\.json)),
        ]
        document = .object(root)
        history.append(document)
        if history.count > Self.historyLength { history.removeFirst() }
    }

    // MARK: Stories

    private mutating func makeStory(published: Date, mayHaveTypo: Bool) -> DemoStory {
        let templates = DemoStoryBank.templates
        let index = drawTemplate()
        var story = DemoStory(
            templateIndex: index,
            template: templates[index],
            published: published,
            mayHaveTypo: mayHaveTypo,
            rng: &rng
        )
        let uses = slugUses[story.slug, default: 0] + 1
        slugUses[story.slug] = uses
        if uses > 1 { story.slug += "-\(uses)" }
        return story
    }

    /// The next template from a shuffled pass through the bank, skipping templates
    /// whose stories are still on the list (unless every one is).
    private mutating func drawTemplate() -> Int {
        if deck.isEmpty {
            deck = rng.shuffled(Array(DemoStoryBank.templates.indices))
        }
        let onList = Set(stories.map(\.story.templateIndex))
        let position = deck.lastIndex { !onList.contains($0) } ?? (deck.count - 1)
        return deck.remove(at: position)
    }

    /// A story on the list and its rendering.
    private struct Listed: Sendable {
        let story: DemoStory
        let json: JSONValue

        init(_ story: DemoStory) {
            self.story = story
            self.json = story.json
        }
    }
}
