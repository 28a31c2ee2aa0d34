import Testing

@testable import WebUI

/// When page frames may start: two back to back after a quiet spell, then one per interval;
/// a quiet spell gives the allowance back. Times are handed in, nothing waits.
@Suite struct FrameScheduleTests {
    let interval = Duration.milliseconds(50)
    let start = ContinuousClock.now

    @Test func aFirstFrameStartsAtOnce() {
        let schedule = FrameSchedule(interval: interval, burst: 2)
        #expect(schedule.earliestStart == nil)
    }

    @Test func aFrameRightAfterAnotherStartsAtOnceWithinTheBurst() {
        var schedule = FrameSchedule(interval: interval, burst: 2)
        schedule.frameStarted(at: start)
        let second = start + .milliseconds(5)
        #expect((schedule.earliestStart ?? second) <= second, "the status frame does not hold back a story")
        schedule.frameStarted(at: second)
        // The burst is spent: the third waits for the sustained rate.
        #expect(schedule.earliestStart == start + interval)
    }

    @Test func sustainedRequestsGetOneFramePerInterval() {
        var schedule = FrameSchedule(interval: interval, burst: 2)
        var now = start
        var starts: [ContinuousClock.Instant] = []
        // Ask for a frame every millisecond for a second; start each as soon as allowed.
        let end = start + .seconds(1)
        while now < end {
            if (schedule.earliestStart ?? now) <= now {
                schedule.frameStarted(at: now)
                starts.append(now)
            }
            now += .milliseconds(1)
        }
        let perSecond = Int(Duration.seconds(1) / interval)
        #expect(starts.count == perSecond + 1, "one per interval, plus the burst's one: \(starts.count)")
        // Never more than the burst within one interval; after it, one per interval.
        for (earlier, later) in zip(starts, starts.dropFirst(2)) {
            #expect(later - earlier >= interval)
        }
        for (earlier, later) in zip(starts.dropFirst(2), starts.dropFirst(3)) {
            #expect(later - earlier == interval)
        }
    }

    @Test func aQuietSpellGivesTheBurstBack() {
        var schedule = FrameSchedule(interval: interval, burst: 2)
        schedule.frameStarted(at: start)
        schedule.frameStarted(at: start)
        let later = start + interval * 3
        #expect((schedule.earliestStart ?? later) <= later)
        schedule.frameStarted(at: later)
        #expect((schedule.earliestStart ?? later) <= later, "two back to back again")
    }

    @Test func aBurstOfOneIsAPlainInterval() {
        var schedule = FrameSchedule(interval: interval, burst: 1)
        schedule.frameStarted(at: start)
        #expect(schedule.earliestStart == start + interval)
    }
}
