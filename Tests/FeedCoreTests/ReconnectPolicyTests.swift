import FeedCore
import Testing

@Suite("Reconnect policy")
struct ReconnectPolicyTests {
    /// The delays for `count` consecutive failures, all with the same `random`.
    private func delays(_ policy: inout ReconnectPolicy, count: Int, random: Double) -> [Duration] {
        (0..<count).map { _ in policy.nextDelay(random: random) }
    }

    @Test("the delay doubles per failure from the retry interval and stops at the cap")
    func growthAndCap() {
        var policy = ReconnectPolicy(retryInterval: .seconds(1), maxBackoff: .seconds(30))
        // random 0.999_999 gives (almost) the un-jittered delay; compare the nominal values.
        var nominal: [Duration] = []
        for _ in 0..<10 {
            nominal.append(policy.nominalDelay)
            _ = policy.nextDelay(random: 0)
        }
        #expect(nominal == [1, 2, 4, 8, 16, 30, 30, 30, 30, 30].map { Duration.seconds($0) })
        #expect(policy.failures == 10)
    }

    @Test("jitter only adds: every delay is in [d, min(1.5 d, cap)] for the nominal delay d, never sooner")
    func jitterRange() {
        for failures in 0..<8 {
            for random in [0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 0.999_999, 0.999_999_999] {
                var policy = ReconnectPolicy(retryInterval: .milliseconds(300), maxBackoff: .seconds(10))
                _ = delays(&policy, count: failures, random: 0.5)
                // The nominal delay, written out: 300 ms doubled per failure, capped at 10 s.
                let nominal = min(Duration.milliseconds(300 << failures), .seconds(10))
                let delay = policy.nextDelay(random: random)
                #expect(delay >= nominal, "failures \(failures), random \(random): \(delay)")
                #expect(delay <= min(nominal * 1.5, .seconds(10)), "failures \(failures), random \(random): \(delay)")
            }
        }
    }

    @Test("random 0 gives exactly the retry time, random near 1 almost one and a half times it")
    func jitterEnds() {
        var low = ReconnectPolicy(retryInterval: .seconds(2), maxBackoff: .seconds(30))
        #expect(low.nextDelay(random: 0) == .seconds(2))
        var high = ReconnectPolicy(retryInterval: .seconds(2), maxBackoff: .seconds(30))
        let delay = high.nextDelay(random: 0.999_999)
        #expect(delay > .milliseconds(2999) && delay < .seconds(3))
    }

    @Test("jitter never takes a delay past the cap")
    func jitterStaysUnderTheCap() {
        var policy = ReconnectPolicy(retryInterval: .seconds(2), maxBackoff: .milliseconds(2500))
        #expect(policy.nextDelay(random: 0.999_999) == .milliseconds(2500))
        #expect(policy.nextDelay(random: 0) == .milliseconds(2500))
    }

    @Test("out-of-range randomness is clamped into the jitter range", arguments: [-5.0, 1.0, 7.5, .infinity, .nan])
    func jitterClamped(random: Double) {
        var policy = ReconnectPolicy(retryInterval: .seconds(1), maxBackoff: .seconds(30))
        let delay = policy.nextDelay(random: random)
        #expect(delay >= .seconds(1) && delay < .milliseconds(1500))
    }

    @Test("reset starts the sequence again from the retry interval")
    func reset() {
        var policy = ReconnectPolicy(retryInterval: .milliseconds(100), maxBackoff: .seconds(5))
        _ = delays(&policy, count: 6, random: 0)
        #expect(policy.nominalDelay == .seconds(5))
        policy.reset()
        #expect(policy.failures == 0)
        #expect(policy.nominalDelay == .milliseconds(100))
        #expect(policy.nextDelay(random: 0) == .milliseconds(100))
        #expect(policy.nextDelay(random: 0) == .milliseconds(200))
    }

    @Test("a new retry interval (from retry:) is the base of later delays")
    func retryIntervalChanges() {
        var policy = ReconnectPolicy(maxBackoff: .seconds(30))
        #expect(policy.nominalDelay == .seconds(1))
        policy.retryInterval = .milliseconds(250)
        #expect(policy.nextDelay(random: 0) == .milliseconds(250))
        #expect(policy.nextDelay(random: 0) == .milliseconds(500))
        policy.retryInterval = .seconds(4)
        // Two failures so far: 4 s × 4, capped at 30 s… no: 16 s.
        #expect(policy.nominalDelay == .seconds(16))
    }

    @Test("a retry interval above the cap is capped")
    func retryAboveCap() {
        var policy = ReconnectPolicy(retryInterval: .seconds(100), maxBackoff: .seconds(3))
        #expect(policy.nominalDelay == .seconds(3))
        #expect(policy.nextDelay(random: 0) == .seconds(3))
    }

    @Test("absurd retry values and endless failures never overflow")
    func noOverflow() {
        var policy = ReconnectPolicy(retryInterval: .milliseconds(Int.max), maxBackoff: .seconds(30))
        #expect(policy.nominalDelay == .seconds(30))
        for _ in 0..<200 { _ = policy.nextDelay(random: 0.5) }
        #expect(policy.nominalDelay == .seconds(30))
        var huge = ReconnectPolicy(retryInterval: .seconds(1), maxBackoff: .seconds(Int64.max / 4))
        for _ in 0..<300 { _ = huge.nextDelay(random: 0.5) }
        #expect(huge.nominalDelay <= .seconds(Int64.max / 4))
        #expect(huge.nominalDelay > .seconds(1 << 40))
    }

    @Test("retry: 0 or a tiny cap cannot make a hot loop: the floor holds")
    func floor() {
        var zero = ReconnectPolicy(retryInterval: .zero, maxBackoff: .seconds(30))
        #expect(zero.nominalDelay == ReconnectPolicy.minimumInterval)
        #expect(zero.nextDelay(random: 0) == ReconnectPolicy.minimumInterval)
        // It still grows from the floor.
        #expect(zero.nominalDelay == ReconnectPolicy.minimumInterval * 2)
        var tinyCap = ReconnectPolicy(retryInterval: .seconds(1), maxBackoff: .milliseconds(1))
        #expect(tinyCap.nominalDelay == ReconnectPolicy.minimumInterval)
        #expect(tinyCap.delayAfterStopRequest() == ReconnectPolicy.minimumInterval)
    }

    @Test("204: always the full cap, no jitter, and it counts as a failure")
    func stopRequest() {
        var policy = ReconnectPolicy(retryInterval: .milliseconds(200), maxBackoff: .seconds(7))
        for n in 1...4 {
            #expect(policy.delayAfterStopRequest() == .seconds(7))
            #expect(policy.failures == n)
        }
        // After the 204s the normal sequence continues, grown.
        #expect(policy.nominalDelay == .milliseconds(3200))
        policy.reset()
        #expect(policy.nominalDelay == .milliseconds(200))
    }

    @Test("the default policy: 1 s base, 30 s cap")
    func defaults() {
        let policy = ReconnectPolicy()
        #expect(policy.retryInterval == .seconds(1))
        #expect(policy.maxBackoff == .seconds(30))
        #expect(policy.failures == 0)
    }
}
