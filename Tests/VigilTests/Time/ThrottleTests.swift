import Dispatch
import Glibc
import Synchronization
import Testing
import Vigil
import VigilTestSupport
import VigilTesting

@Suite(.timeLimit(.minutes(10))) struct ThrottleTests {
    @Test(arguments: [true, false])
    func deliversTheLeadingValueThenOnePerWindow(latest: Bool) async {
        let (clock, subject, recorder, subscription) = recording { subject, clock in
            subject.throttle(for: ms(100), clock: clock, latest: latest)
        }
        for value in 1...3 { subject.publish(value) }
        #expect(recorder.events == [.value(1, at: .zero)], "the leading value comes at once")
        await clock.advance(by: ms(30))
        subject.publish(4)
        await clock.advance(to: .init(offset: ms(200)))
        // The window that closed at 100 delivered its held value and opened the next; that one closed empty at 200.
        subject.publish(5)
        #expect(recorder.events == [.value(1, at: .zero), .value(latest ? 4 : 2, at: ms(100)), .value(5, at: ms(200))])
        #expect(await clock.waitForSleepers(1), "5 opened a window")
        subscription.dispose()
        #expect(clock.sleeperCount == 0)
    }

    /// Leading value, values within a window, the held one at the window's end, the next window, an idle gap, and a
    /// new leading value.
    @Test(arguments: [true, false])
    func marble(latest: Bool) async {
        let (clock, subject, recorder, subscription) = recording { subject, clock in
            subject.throttle(for: ms(100), clock: clock, latest: latest)
        }
        subject.publish(1)  // 0: leading, opens [0, 100)
        await clock.advance(to: .init(offset: ms(10)))
        subject.publish(2)
        await clock.advance(to: .init(offset: ms(60)))
        subject.publish(3)
        await clock.advance(to: .init(offset: ms(99)))
        #expect(recorder.events == [.value(1, at: .zero)], "held until the window closes")
        await clock.advance(to: .init(offset: ms(150)))  // 100: 3 or 2, opens [100, 200)
        subject.publish(4)
        await clock.advance(to: .init(offset: ms(350)))  // 200: 4, opens [200, 300), which closes empty
        subject.publish(5)  // 350: idle, so leading again, opens [350, 450)
        subject.publish(6)
        await clock.advance(to: .init(offset: ms(500)))  // 450: 6
        #expect(
            recorder.events == [
                .value(1, at: .zero), .value(latest ? 3 : 2, at: ms(100)), .value(4, at: ms(200)),
                .value(5, at: ms(350)), .value(6, at: ms(450)),
            ])
        await clock.advance(to: .init(offset: ms(600)))
        #expect(clock.sleeperCount == 0, "the window after 6 closed empty")
        subject.publish(7)
        #expect(recorder.events.last == .value(7, at: ms(600)))
        subscription.dispose()
    }

    @Test(arguments: [true, false])
    func finishingWithAHeldValueDeliversItWhenTheWindowClosesThenFinishes(latest: Bool) async {
        let (clock, subject, recorder, subscription) = recording { subject, clock in
            subject.throttle(for: ms(100), clock: clock, latest: latest)
        }
        subject.publish(1)
        await clock.advance(by: ms(10))
        subject.publish(2)
        subject.publish(3)
        await clock.advance(by: ms(10))
        subject.complete()
        await clock.advance(to: .init(offset: ms(99)))
        #expect(recorder.events == [.value(1, at: .zero)], "the held value keeps its window")
        await clock.advance(to: .init(offset: ms(300)))
        #expect(recorder.events == [.value(1, at: .zero), .value(latest ? 3 : 2, at: ms(100)), .finished(at: ms(100))])
        #expect(clock.sleeperCount == 0, "no window after the end")
        subscription.dispose()
    }

    @Test(arguments: [true, false])
    func finishingWithNothingHeldFinishesAtOnce(latest: Bool) async {
        let (clock, subject, recorder, subscription) = recording { subject, clock in
            subject.throttle(for: ms(100), clock: clock, latest: latest)
        }
        subject.publish(1)
        await clock.advance(by: ms(10))
        subject.complete()
        #expect(recorder.events == [.value(1, at: .zero), .finished(at: ms(10))])
        #expect(clock.sleeperCount == 0, "the end cancels the timer")
        subscription.dispose()
    }

    @Test(arguments: [true, false])
    func failingWithAHeldValueDropsItAndFailsAtOnce(latest: Bool) async {
        let (clock, subject, recorder, subscription) = recording { subject, clock in
            subject.throttle(for: ms(100), clock: clock, latest: latest)
        }
        subject.publish(1)
        await clock.advance(by: ms(10))
        subject.publish(2)
        await clock.advance(by: ms(10))
        subject.fail(TestError(code: 5))
        #expect(recorder.events == [.value(1, at: .zero), .failed("TestError(code: 5)", at: ms(20))])
        #expect(clock.sleeperCount == 0, "the end cancels the timer")
        #expect(await clock.advance(by: ms(200)) == 0)
        #expect(recorder.count == 2)
        subscription.dispose()
    }
}

/// The `DispatchQueue` forms on the real clock, with every thread of Swift's concurrency pool held by blocking code
/// (as other tests, or any blocking code in a program, can hold it): their timers must fire on their queue all the
/// same. They ran in a task and waited for a free pool thread: OpenCombine's `testThrottleGap` got only its first
/// value (issue 21).
@Suite(.timeLimit(.minutes(5))) struct QueueTimerTests {
    @Test func throttleOnAQueueClosesItsWindowsWhileThePoolIsBusy() {
        // testThrottleGap's shape: a 400 ms window; 0 at 0 ms, 1 at 300 ms, 2 at 1,000 ms.
        let subject = PublishSubject<Int>()
        let values = Recorder<Int>()
        let subscription = subject.throttle(.milliseconds(400), on: DispatchQueue(label: "throttle"), latest: false)
            .subscribe { values.record($0) }
        let start = ContinuousClock.now
        let busy = PoolHog()
        subject.publish(0)
        pause(until: start + .milliseconds(300))
        subject.publish(1)
        pause(until: start + .milliseconds(1000))
        subject.publish(2)
        // Bounded; it ends as soon as the three arrive (about at once on the code that fires on the queue).
        _ = eventually(timeout: 10) { values.count == 3 }
        busy.release()
        #expect(values.values == [0, 1, 2], "the held 1 at the window's end, then 2 opens a new window")
        subscription.dispose()
    }

    @Test func debounceOnAQueueFiresWhileThePoolIsBusy() {
        let subject = PublishSubject<Int>()
        let values = Recorder<Int>()
        let subscription = subject.debounce(.milliseconds(50), on: DispatchQueue(label: "debounce"))
            .subscribe { values.record($0) }
        let busy = PoolHog()
        for value in 1...3 { subject.publish(value) }
        _ = eventually(timeout: 10) { values.count == 1 }
        busy.release()
        #expect(values.values == [3])
        subscription.dispose()
    }
}

/// Occupies every thread of Swift's concurrency pool with a blocking loop until released.
final class PoolHog: Sendable {
    private let released = Atomic<Bool>(false)

    init() {
        // More loops than the pool has threads (one per processor); the ones left over wait their turn.
        let processors = max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        for _ in 0..<(4 * processors) {
            Task.detached(priority: .high) { [self] in
                while !released.load(ordering: .acquiring) { usleepMilliseconds(1) }
            }
        }
    }

    func release() {
        released.store(true, ordering: .releasing)
    }
}

/// Sleeps the calling thread until `instant` on the continuous clock.
private func pause(until instant: ContinuousClock.Instant) {
    while ContinuousClock.now < instant { usleepMilliseconds(1) }
}
