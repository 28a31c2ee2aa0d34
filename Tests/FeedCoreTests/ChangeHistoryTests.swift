import FeedCore
import TestSupport
import Testing

@Suite("Change history", .onThreadsOfItsOwn)
struct ChangeHistoryTests {
    /// A recognisable patch for change `seq`, `size` bytes long.
    private func patch(_ seq: UInt64, size: Int = 10) -> [UInt8] {
        let tag = Array("p\(seq):".utf8)
        return tag + [UInt8](repeating: UInt8(ascii: "x"), count: max(0, size - tag.count))
    }

    private func history(_ range: ClosedRange<UInt64>, maxEntries: Int = 1000, maxBytes: Int = 1 << 20, size: Int = 10)
        -> ChangeHistory
    {
        var history = ChangeHistory(maxEntries: maxEntries, maxBytes: maxBytes)
        for seq in range { history.append(seq: seq, encodedPatch: patch(seq, size: size)) }
        return history
    }

    private func seqs(_ resume: ChangeHistory.Resume) -> [UInt64]? {
        if case .patches(let entries) = resume { return entries.map(\.seq) }
        return nil
    }

    private func needsSnapshot(_ resume: ChangeHistory.Resume) -> Bool {
        if case .needsSnapshot = resume { return true }
        return false
    }

    private func upToDate(_ resume: ChangeHistory.Resume) -> Bool {
        if case .upToDate = resume { return true }
        return false
    }

    @Test("bounded by count: only the newest maxEntries stay")
    func boundedByCount() {
        let history = history(1...50, maxEntries: 20)
        #expect(history.count == 20)
        #expect(history.byteCount == 200)
        #expect(seqs(history.resume(after: 30, current: 50)) == Array(31...50))
        #expect(needsSnapshot(history.resume(after: 29, current: 50)))
    }

    @Test("bounded by bytes: the oldest go until the rest fit")
    func boundedByBytes() {
        let history = history(1...30, maxBytes: 250, size: 100)
        #expect(history.count == 2)
        #expect(history.byteCount == 200)
        #expect(seqs(history.resume(after: 28, current: 30)) == [29, 30])
        #expect(needsSnapshot(history.resume(after: 27, current: 30)))
    }

    @Test("bounds hold after every append, with mixed sizes")
    func boundsAlways() {
        var history = ChangeHistory(maxEntries: 7, maxBytes: 1000)
        for seq in UInt64(1)...300 {
            history.append(seq: seq, encodedPatch: patch(seq, size: Int(seq * 37 % 400) + 5))
            #expect(history.count <= 7)
            #expect(history.byteCount <= 1000)
            // Every patch (at most 404 bytes) fits alone, so the newest is always kept.
            #expect(history.count >= 1)
        }
    }

    @Test("one patch bigger than the byte bound is not kept: resuming across it needs a snapshot")
    func oversizedEntry() {
        var history = self.history(1...5, maxBytes: 100)
        history.append(seq: 6, encodedPatch: patch(6, size: 500))
        #expect(history.count == 0)
        #expect(history.byteCount == 0)
        #expect(needsSnapshot(history.resume(after: 5, current: 6)))
        #expect(upToDate(history.resume(after: 6, current: 6)))
        history.append(seq: 7, encodedPatch: patch(7))
        #expect(seqs(history.resume(after: 6, current: 7)) == [7])
    }

    @Test("resume inside the history gives exactly the missed patches, oldest first, with their bytes")
    func resumeInside() {
        let history = history(1...10)
        for last in UInt64(0)...9 {
            guard case .patches(let entries) = history.resume(after: last, current: 10) else {
                Issue.record("after \(last): not patches")
                continue
            }
            #expect(entries.map(\.seq) == Array((last + 1)...10))
            #expect(entries.map(\.encodedPatch) == entries.map { patch($0.seq) })
        }
    }

    @Test("resume up to a current older than the newest entry leaves the newer ones out")
    func resumeThroughCurrent() {
        let history = history(1...10)
        #expect(seqs(history.resume(after: 3, current: 6)) == [4, 5, 6])
        #expect(seqs(history.resume(after: 5, current: 6)) == [6])
    }

    @Test("up to date when the client has the current change")
    func resumeUpToDate() {
        let history = history(1...10)
        #expect(upToDate(history.resume(after: 10, current: 10)))
        #expect(upToDate(ChangeHistory(maxEntries: 10, maxBytes: 100).resume(after: 0, current: 0)))
    }

    @Test("from the future, older than the history, or with an empty history: needs a snapshot")
    func resumeOutside() {
        let history = history(11...20)
        #expect(needsSnapshot(history.resume(after: 21, current: 20)))
        #expect(needsSnapshot(history.resume(after: UInt64.max, current: 20)))
        #expect(needsSnapshot(history.resume(after: 9, current: 20)))
        #expect(needsSnapshot(history.resume(after: 0, current: 20)))
        #expect(seqs(history.resume(after: 10, current: 20)) == Array(11...20))
        // A current past the newest entry is not covered.
        #expect(needsSnapshot(history.resume(after: 15, current: 21)))
        let empty = ChangeHistory(maxEntries: 10, maxBytes: 100)
        #expect(needsSnapshot(empty.resume(after: 3, current: 5)))
    }

    @Test("a gap in the sequence forgets the older entries (they no longer lead to the newest)")
    func gapClears() {
        var history = history(1...5)
        history.append(seq: 9, encodedPatch: patch(9))
        #expect(history.count == 1)
        #expect(seqs(history.resume(after: 8, current: 9)) == [9])
        #expect(needsSnapshot(history.resume(after: 5, current: 9)))
    }

    @Test("removeAll forgets everything")
    func removeAll() {
        var history = history(1...5)
        history.removeAll()
        #expect(history.count == 0)
        #expect(history.byteCount == 0)
        #expect(needsSnapshot(history.resume(after: 4, current: 5)))
    }

    @Test("zero bounds keep nothing and never fail")
    func zeroBounds() {
        var history = ChangeHistory(maxEntries: 0, maxBytes: 1000)
        history.append(seq: 1, encodedPatch: patch(1))
        #expect(history.count == 0)
        var noBytes = ChangeHistory(maxEntries: 10, maxBytes: 0)
        noBytes.append(seq: 1, encodedPatch: patch(1))
        #expect(noBytes.count == 0)
        let negative = ChangeHistory(maxEntries: -5, maxBytes: -5)
        #expect(negative.maxEntries == 0 && negative.maxBytes == 0)
    }

    // MARK: - Published steps (what /events/items resumes from)

    /// A history of changes 1…6 where 2, 3 and 5 advanced the published view (from 1, 2
    /// and 3; 4 and 6 were held back by the version guard).
    private func historyWithPublishedSteps(maxEntries: Int = 100) -> ChangeHistory {
        var history = ChangeHistory(maxEntries: maxEntries, maxBytes: 1 << 20)
        let published: [UInt64: UInt64] = [2: 1, 3: 2, 5: 3]
        for seq: UInt64 in 1...6 {
            history.append(
                seq: seq, encodedPatch: Array("[\(seq)]".utf8),
                published: published[seq].map { ChangeHistory.PublishedStep(after: $0, itemChanges: []) })
        }
        return history
    }

    @Test("published steps: the chain from the client's view to the current one, skipping held-back changes")
    func publishedStepsFollowTheChain() throws {
        let history = historyWithPublishedSteps()
        #expect(try #require(history.publishedSteps(after: 1, current: 5)).map(\.seq) == [2, 3, 5])
        #expect(try #require(history.publishedSteps(after: 3, current: 5)).map(\.seq) == [5])
        #expect(history.publishedSteps(after: 5, current: 5)?.isEmpty == true, "up to date")
    }

    @Test("published steps: a seq that was never a published view, a trimmed start or a future view is no chain")
    func publishedStepsRefuseGaps() {
        let history = historyWithPublishedSteps()
        #expect(history.publishedSteps(after: 4, current: 5) == nil, "4 was held back: no view has it")
        #expect(history.publishedSteps(after: 5, current: 3) == nil, "from the future")
        #expect(history.publishedSteps(after: 3, current: 9) == nil, "past the newest change")
        // Trimmed to the last 3 changes (4…6): the step after 1 and 2 is gone.
        let trimmed = historyWithPublishedSteps(maxEntries: 3)
        #expect(trimmed.publishedSteps(after: 2, current: 5) == nil)
        #expect(trimmed.publishedSteps(after: 3, current: 5)?.map(\.seq) == [5])
    }
}
