import Foundation
import Testing
import Vigil
import VigilSensors
import VigilTestSupport
import VigilTesting

/// The sleep source on injected clock pairs and fake statistics: exact states and transitions, timers on a manual
/// clock, no sleeping.
@Suite(.timeLimit(.minutes(10))) struct SleepMonitorTests {
    /// What ``SleepMonitor/transitions`` published.
    final class Transitions: Sendable {
        private let events = FutexMutex<[SensorEvent<PowerTransition>]>([])
        var all: [PowerTransition] { events.withLock { $0.compactMap(\.payload) } }
        func add(_ event: SensorEvent<PowerTransition>) { events.withLock { $0.append(event) } }
    }

    /// A monitor of a fake tree on a loop of its own whose clocks are injected, with its transitions recorded; stops
    /// and shuts the loop down when released.
    final class Harness {
        let sys: FakeSysfsTree
        let clocks: ClockPairs
        let loop: EventLoop
        let monitor: SleepMonitor
        let transitions: Transitions
        private let subscription: Subscription

        init(
            _ sys: FakeSysfsTree = FakeSysfsTree(), loop: EventLoop = EventLoop(), interval: Duration = .seconds(3600),
            clocks: ClockPairs = ClockPairs()
        ) {
            let transitions = Transitions()
            loop.wakeWatch.useClockPairs(clocks.read)
            let monitor = SleepMonitor(root: sys.root, updateInterval: interval, eventLoop: loop)
            subscription = monitor.transitions.subscribe { transitions.add($0) }
            self.sys = sys
            self.clocks = clocks
            self.loop = loop
            self.monitor = monitor
            self.transitions = transitions
        }

        deinit {
            monitor.stopMonitoring()
            subscription.dispose()
            loop.shutdown()
        }
    }

    @Test func startReadsTheTimeSuspendedAndTheStatistics() throws {
        let machine = FakeMachine.empty()
        machine.addSuspendStatistics()
        let harness = Harness(machine.sys)
        defer { withExtendedLifetime(harness) {} }
        let monitor = harness.monitor
        #expect(monitor.availability == .available)
        #expect(monitor.readings.value.status == .pending)
        try monitor.startMonitoring()
        let state = try #require(monitor.readings.value.value)
        #expect(state.suspendedSinceBoot == .seconds(1000) && state.wakes == 0 && state.lastWake == nil)
        #expect(state.statistics?.successes == 12 && state.statistics?.failures == 1)
        #expect(
            state.description
                == "suspended 16 min 40 s since boot; suspends: 12 succeeded, 1 failed (last at freeze, device alarm, EBUSY)"
        )
        #expect(harness.transitions.all.isEmpty, "the failures counted before the start are no transition")
        #expect(monitor.updateInterval == .seconds(3600))
    }

    /// Two reads of the clocks on a machine that never slept can differ by nanoseconds either way: that is shown as
    /// no time suspended, and times are kept to the microsecond.
    @Test(arguments: [
        (Duration.nanoseconds(-419), Duration.zero), (.nanoseconds(499), .zero), (.nanoseconds(1500), .microseconds(2)),
        (.seconds(3600) + .nanoseconds(250), .seconds(3600)),
    ])
    func theTimeSuspendedIsShownToTheMicrosecondAndNeverNegative(suspended: Duration, shown: Duration) throws {
        let clocks = ClockPairs(boottime: .seconds(100) + suspended, monotonic: .seconds(100))
        let harness = Harness(clocks: clocks)
        defer { withExtendedLifetime(harness) {} }
        try harness.monitor.startMonitoring()
        #expect(harness.monitor.readings.value.value?.suspendedSinceBoot == shown)
    }

    /// The coarse timer compares the clocks too, so a wake is found within one interval even without the
    /// cancel-on-set wake-up.
    @Test func theTimerFindsAWakeWithinOneInterval() async throws {
        let clock = ManualClock()
        let harness = Harness(loop: EventLoop(clock: clock), interval: .seconds(60))
        defer { withExtendedLifetime(harness) {} }
        let (monitor, transitions) = (harness.monitor, harness.transitions)
        try monitor.startMonitoring()
        harness.clocks.awake(.seconds(20))
        harness.clocks.asleep(.seconds(3600))
        await clock.advance(by: .seconds(59))
        #expect(transitions.all.isEmpty, "found before the interval")
        #expect(monitor.readings.value.value?.wakes == 0)
        await clock.advance(by: .seconds(1))
        #expect(transitions.all == [.didWake(after: .seconds(3600))])
        let state = try #require(monitor.readings.value.value)
        #expect(state.wakes == 1 && state.suspendedSinceBoot == .seconds(4600))
        #expect(state.lastWake?.slept == .seconds(3600))
        #expect(state.lastWake?.time == monitor.lastTransition?.time)
        #expect(state.statistics == nil)
        await clock.advance(by: .seconds(60))
        #expect(transitions.all.count == 1, "one wake, reported once")
    }

    /// The watch's timer wake-up (the kernel cancels it on resume) publishes the wake at once, on the loop thread.
    @Test func theCancellationOnResumePublishesTheWakeAtOnce() throws {
        let harness = Harness()
        defer { withExtendedLifetime(harness) {} }
        try harness.monitor.startMonitoring()
        harness.clocks.asleep(.milliseconds(42_500))
        harness.loop.wakeWatch.simulateCancellation(on: harness.loop)
        #expect(eventually(timeout: 10) { harness.monitor.readings.value.value?.wakes == 1 })
        #expect(harness.transitions.all == [.didWake(after: .milliseconds(42_500))])
        #expect(harness.transitions.all.first?.description == "woke after sleeping 42 s")
    }

    /// A clock set also cancels the timer, but moves neither clock of the pair: no wake.
    @Test func aClockSetIsNoWake() async throws {
        let harness = Harness()
        defer { withExtendedLifetime(harness) {} }
        try harness.monitor.startMonitoring()
        let before = harness.monitor.readings.value
        harness.clocks.awake(.seconds(3))
        harness.loop.wakeWatch.simulateCancellation(on: harness.loop)
        try await harness.loop.barrier()
        harness.monitor.refresh()
        #expect(harness.loop.wakeWatch.isArmed)
        #expect(harness.transitions.all.isEmpty)
        #expect(harness.monitor.readings.value == before, "nothing changed, nothing published")
    }

    @Test func aFailedSuspendIsATransitionOnce() throws {
        let machine = FakeMachine.empty()
        machine.addSuspendStatistics()
        let harness = Harness(machine.sys)
        defer { withExtendedLifetime(harness) {} }
        try harness.monitor.startMonitoring()
        machine.sys.device(
            "power/suspend_stats",
            ["fail": "2", "failed_suspend": "1", "last_failed_step": "suspend", "last_failed_dev": "0000:00:14.0"])
        harness.monitor.refresh()
        harness.monitor.refresh()
        let last = SuspendStatistics.Failure(device: "0000:00:14.0", errno: Errno(rawValue: 16), step: .suspend)
        #expect(harness.transitions.all == [.suspendFailed(failures: 2, last: last)])
        #expect(harness.monitor.readings.value.value?.statistics?.failures == 2)
        #expect(
            harness.transitions.all.first?.description
                == "a suspend failed (2 since boot), last at suspend, device 0000:00:14.0, EBUSY")
    }

    @Test func aStoppedMonitorLeavesTheWatchAndPublishesNothing() throws {
        let harness = Harness()
        defer { withExtendedLifetime(harness) {} }
        let (monitor, loop) = (harness.monitor, harness.loop)
        try monitor.startMonitoring()
        #expect(loop.wakeWatch.isArmed)
        monitor.stopMonitoring()
        #expect(!loop.wakeWatch.isArmed && loop.registrationCount == 0)
        harness.clocks.asleep(.seconds(60))
        loop.wakeWatch.check()
        monitor.refresh()
        #expect(harness.transitions.all.isEmpty)
        #expect(monitor.readings.value.value?.wakes == 0)
    }

    @Test func theJSONFormsSayWhatHappened() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let time = ReadingTime(monotonic: .now, wall: .seconds(1_700_000_000))
        let state = SleepState(
            suspendedSinceBoot: .milliseconds(5_400_250), wakes: 2,
            lastWake: .init(slept: .milliseconds(3_600_500), time: time),
            statistics: SuspendStatistics(
                successes: 3, failures: 0, failedSteps: [.init(step: .freeze, count: 0)],
                totalHardwareSleep: .microseconds(1_500_000)))
        #expect(
            String(decoding: try encoder.encode(state), as: UTF8.self)
                == #"{"lastWake":{"sleptSeconds":3600.5,"time":"2023-11-14T22:13:20.000000Z"},"statistics":{"#
                + #""failedSteps":[{"count":0,"step":"freeze"}],"failures":0,"problems":[],"successes":3,"#
                + #""totalHardwareSleepSeconds":1.5},"suspendedSeconds":5400.25,"wakes":2}"#)
        #expect(
            String(decoding: try encoder.encode(PowerTransition.didWake(after: .seconds(90))), as: UTF8.self)
                == #"{"sleptSeconds":90,"transition":"didWake"}"#)
        let failed = PowerTransition.suspendFailed(
            failures: 4, last: .init(device: "alarm", errno: Errno(rawValue: 16), step: .freeze))
        #expect(
            String(decoding: try encoder.encode(failed), as: UTF8.self)
                == #"{"failures":4,"lastFailure":{"device":"alarm","errno":16,"errnoName":"EBUSY","step":"freeze"},"#
                + #""transition":"suspendFailed"}"#)
    }

    @Test(arguments: [
        (Duration.milliseconds(850), "850 ms"), (.seconds(42), "42 s"), (.seconds(303), "5 min 03 s"),
        (.seconds(7500), "2 h 05 min"), (.seconds(273_600), "3 d 4 h"),
    ])
    func sleptTimesReadAsPeopleSayThem(duration: Duration, text: String) {
        #expect(PowerTransition.didWake(after: duration).description == "woke after sleeping " + text)
    }
}
