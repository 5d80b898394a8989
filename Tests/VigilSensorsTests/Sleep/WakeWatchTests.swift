import Testing
import Vigil
import VigilSensors
import VigilTestSupport

/// The loop's wake watch: one cancel-on-set timer while anyone subscribes, and each wake the injected clocks show
/// delivered once to every subscriber with the exact time slept.
@Suite(.timeLimit(.minutes(10))) struct WakeWatchTests {
    /// What subscribers were told.
    final class Heard: Sendable {
        private let slept = FutexMutex<[Duration]>([])
        var all: [Duration] { slept.withLock { $0 } }
        func add(_ duration: Duration) { slept.withLock { $0.append(duration) } }
    }

    @Test func theFirstSubscriberOpensOneTimerAndTheLastClosesIt() throws {
        let probe = try EventLoopProbe()
        defer { probe.shutdown() }
        let watch = probe.loop.wakeWatch
        #expect(!watch.isArmed && probe.held().isEmpty)
        let first = try watch.subscribe(on: probe.loop) { _ in }
        let second = try watch.subscribe(on: probe.loop) { _ in }
        let timers = ClockChangeMonitorTests.timers(on: probe)
        #expect(watch.isArmed && timers.count == 1, "\(probe.registrations())")
        #expect(probe.held().tableEntries == 1)
        first.cancel()
        first.cancel()
        #expect(watch.isArmed, "a second cancel of one subscription ended the other")
        second.cancel()
        #expect(!watch.isArmed && probe.held().isEmpty, "\(probe.held())")
        #expect(timers.filter(\.isStillOpen).isEmpty)
        let again = try watch.subscribe(on: probe.loop) { _ in }
        #expect(ClockChangeMonitorTests.timers(on: probe).count == 1, "a later subscriber opens it again")
        again.cancel()
    }

    @Test func aWakeReachesEverySubscriberOnceWithTheTimeSlept() throws {
        let loop = EventLoop()
        defer { loop.shutdown() }
        let clocks = ClockPairs()
        let watch = loop.wakeWatch
        watch.useClockPairs(clocks.read)
        let (one, two) = (Heard(), Heard())
        let first = try watch.subscribe(on: loop) { one.add($0) }
        let second = try watch.subscribe(on: loop) { two.add($0) }
        #expect(watch.suspended == .seconds(1000))
        clocks.awake(.seconds(40))
        watch.check()
        #expect(one.all.isEmpty && two.all.isEmpty, "awake time is no wake")
        clocks.asleep(.seconds(1800))
        watch.check()
        watch.check()
        #expect(one.all == [.seconds(1800)] && two.all == [.seconds(1800)])
        #expect(watch.suspended == .seconds(2800) && watch.wakeCount == 1)
        second.cancel()
        clocks.asleep(.seconds(7))
        watch.check()
        #expect(one.all == [.seconds(1800), .seconds(7)] && two.all == [.seconds(1800)], "a cancelled one hears none")
        first.cancel()
        #expect(watch.suspended == nil)
    }

    /// A wake during no subscription is not reported to a later subscriber: it measures from its own start.
    @Test func aNewSubscriberStartsFromTheClocksAsTheyAre() throws {
        let loop = EventLoop()
        defer { loop.shutdown() }
        let clocks = ClockPairs()
        loop.wakeWatch.useClockPairs(clocks.read)
        let heard = Heard()
        let early = try loop.wakeWatch.subscribe(on: loop) { _ in }
        early.cancel()
        clocks.asleep(.seconds(600))
        let subscription = try loop.wakeWatch.subscribe(on: loop) { heard.add($0) }
        defer { subscription.cancel() }
        loop.wakeWatch.check()
        #expect(heard.all.isEmpty)
        #expect(loop.wakeWatch.suspended == .seconds(1600))
    }

    /// The timer's own wake-up (what the kernel's cancellation on resume causes) runs the comparison: shown by a
    /// wake delivered on the loop thread with no `check()` called.
    @Test func theTimersWakeUpComparesTheClocks() throws {
        let loop = EventLoop()
        defer { loop.shutdown() }
        let clocks = ClockPairs()
        loop.wakeWatch.useClockPairs(clocks.read)
        let heard = Heard()
        let subscription = try loop.wakeWatch.subscribe(on: loop) { heard.add($0) }
        defer { subscription.cancel() }
        clocks.asleep(.seconds(90))
        loop.wakeWatch.simulateCancellation(on: loop)
        #expect(eventually(timeout: 10) { heard.all == [.seconds(90)] }, "\(heard.all)")
        #expect(loop.wakeWatch.isArmed, "the timer is armed again after a cancellation")
    }
}
