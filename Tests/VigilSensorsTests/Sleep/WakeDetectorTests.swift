import Testing
import Vigil
import VigilSensors

/// The wake detector on exact clock pairs, and the kernel's clocks read live (no suspend can happen here, so two
/// reads must never look like one).
@Suite(.timeLimit(.minutes(10))) struct WakeDetectorTests {
    @Test func theGrowthOfBootTimeOverMonotonicIsTheTimeSlept() {
        let clocks = ClockPairs()
        var detector = WakeDetector(clocks.read())
        #expect(detector.reference == .seconds(1000))
        clocks.awake(.seconds(30))
        #expect(detector.observe(clocks.read()) == nil, "awake time is no sleep")
        clocks.asleep(.seconds(3600))
        clocks.awake(.milliseconds(250))
        #expect(detector.observe(clocks.read()) == .seconds(3600))
        #expect(detector.reference == .seconds(4600))
        #expect(detector.observe(clocks.read()) == nil, "one wake is reported once")
        clocks.asleep(.milliseconds(1500))
        #expect(detector.observe(clocks.read()) == .milliseconds(1500))
    }

    /// Jitter below the threshold never reports and never moves the reference, so it cannot add up; a real short
    /// sleep below it is counted into the next wake reported, not lost.
    @Test func growthBelowTheThresholdWaitsForTheNextWake() {
        let clocks = ClockPairs()
        var detector = WakeDetector(clocks.read())
        clocks.asleep(WakeDetector.threshold - .nanoseconds(1))
        #expect(detector.observe(clocks.read()) == nil)
        #expect(detector.reference == .seconds(1000))
        clocks.asleep(.nanoseconds(1))
        #expect(detector.observe(clocks.read()) == WakeDetector.threshold)
    }

    /// A pair older than one already seen (two threads checking at once) is not a wake, and does not move the
    /// reference back, so the newer one is not reported twice.
    @Test func anOlderPairChangesNothing() {
        let clocks = ClockPairs()
        var detector = WakeDetector(clocks.read())
        let before = clocks.read()
        clocks.asleep(.seconds(60))
        #expect(detector.observe(clocks.read()) == .seconds(60))
        #expect(detector.observe(before) == nil)
        #expect(detector.observe(clocks.read()) == nil)
        #expect(detector.reference == .seconds(1060))
    }

    @Test func theKernelsClocksShowNoWakeBetweenTwoReads() {
        let first = ClockPair.now()
        var detector = WakeDetector(first)
        for _ in 0..<10_000 {
            let pair = ClockPair.now()
            // Boot time is never behind monotonic; the midpoint of the bracket may be, by a read's jitter.
            if pair.suspended < .milliseconds(-1) {
                Issue.record("boot time far behind monotonic: \(pair)")
                return
            }
            if let slept = detector.observe(pair) {
                Issue.record("two reads of the clocks looked like a wake of \(slept): \(first) then \(pair)")
                return
            }
        }
        let last = ClockPair.now()
        let drift = last.suspended - first.suspended
        #expect(drift < .milliseconds(1) && drift > .milliseconds(-1), "\(first) then \(last)")
    }
}
