import Dispatch
import Testing
import Vigil
import VigilTestSupport
import VigilTesting

@testable import VigilSensors

/// The loop's timers: one descriptor and a deadline heap, on the loop's clock.
///
/// Ten minutes, as the other suites on a manual-clock loop: a test's own task still needs a thread of the test run's
/// two-thread pool, and other suites' blocking tests held both for over a minute under ThreadSanitizer.
@Suite(.timeLimit(.minutes(10))) struct EventLoopTimerTests {
    /// What the handlers saw, in order: a name and the manual clock's time when it ran.
    private final class Firings: Sendable {
        private let storage = FutexMutex<[String]>([])
        private let clock: ManualClock

        init(_ clock: ManualClock) { self.clock = clock }

        var all: [String] { storage.withLock { $0 } }

        func record(_ name: String) {
            let now = clock.now.offset
            storage.withLock { $0.append("\(name)@\(now)") }
        }
    }

    @Test(arguments: [Duration.zero, .seconds(-1), .microseconds(999)])
    func aRepeatingTimerRefusesAnIntervalBelowOneMillisecondInsteadOfTrapping(interval: Duration) {
        let loop = EventLoop(clock: ManualClock())
        defer { loop.shutdown() }
        #expect {
            try loop.schedule(every: interval) {}
        } throws: { error in
            guard case .invalidArgument(let name, _, let reason) = error as? SensorError else { return false }
            return name == "interval" && reason.contains("1 ms")
        }
    }

    /// A loop on a manual clock runs its timers while every thread of the concurrency pool is blocked: its sleeper
    /// runs on a thread of its own. It used to be a task on the pool, and advancing the clock waited for a free
    /// pool thread as long as other work held them all.
    @Test func aTimerOnAManualClockFiresWhileThePoolIsBlocked() async throws {
        let clock = ManualClock()
        let loop = EventLoop(clock: clock)
        defer { loop.shutdown() }
        let fired = DispatchSemaphore(value: 0)
        let timer = try loop.schedule(after: .seconds(1)) { fired.signal() }
        defer { timer.cancel() }
        // The test's own advancing runs on a thread of its own too, so that only the sleeper could need the pool.
        let advancing = SleeperExecutor()
        let firedWhileBlocked = await offThePool {
            let blocked = PoolBlocker()
            defer { blocked.release() }
            Task(executorPreference: advancing) { await clock.advance(by: .seconds(1)) }
            return fired.wait(timeout: .now() + 10) == .success
        }
        #expect(firedWhileBlocked, "the timer waited for a thread of the blocked pool")
    }

    @Test func fiftyTimersShareTheLoopsOneTimerDescriptor() throws {
        let loop = EventLoop()
        defer { loop.shutdown() }
        let first = try loop.schedule(every: .seconds(3600)) {}
        let before = ProcessProbe.openDescriptorCount(linkingTo: "anon_inode:[timerfd]")
        let timers = try (0..<50).map { index in
            try loop.schedule(every: .seconds(3600 + index)) {}
        }
        let during = ProcessProbe.openDescriptorCount(linkingTo: "anon_inode:[timerfd]")
        for timer in timers + [first] { timer.cancel() }
        // Other suites may open a timer descriptor or two meanwhile; fifty timers of their own would add fifty.
        #expect(during - before < 10, "50 timers added \(during - before) timer descriptors")
    }

    @Test func timersOnAManualClockFireExactlyAtTheirDeadlines() async throws {
        let clock = ManualClock()
        let loop = EventLoop(clock: clock)
        defer { loop.shutdown() }
        let firings = Firings(clock)
        let repeating = try loop.schedule(every: .milliseconds(10)) { firings.record("every") }
        let once = try loop.schedule(after: .milliseconds(25)) { firings.record("once") }
        await clock.advance(by: .milliseconds(9))
        #expect(firings.all == [])
        await clock.advance(by: .milliseconds(1))
        #expect(firings.all == ["every@0.01 seconds"])
        await clock.advance(by: .milliseconds(30))
        #expect(
            firings.all == [
                "every@0.01 seconds", "every@0.02 seconds", "once@0.025 seconds", "every@0.03 seconds",
                "every@0.04 seconds",
            ])
        #expect(once.isCancelled, "a one-shot timer cancels itself once it ran")
        repeating.cancel()
        let woken = await clock.advance(by: .seconds(10))
        #expect(firings.all.count == 5)
        #expect(woken == 0, "a cancelled timer's deadline left the heap, so nothing waits on the clock for it")
    }

    @Test func aDelayOfZeroOrLessRunsOnTheLoopWithoutAdvancingTheClock() async throws {
        let clock = ManualClock()
        let loop = EventLoop(clock: clock)
        defer { loop.shutdown() }
        let firings = Firings(clock)
        _ = try loop.schedule(after: .zero) { firings.record("zero") }
        _ = try loop.schedule(after: .seconds(-1)) { firings.record("negative") }
        await clock.advance(by: .zero)
        // Each is due the moment it is scheduled, so the loop may run the first before the second exists: no order.
        #expect(firings.all.sorted() == ["negative@0.0 seconds", "zero@0.0 seconds"])
        #expect(clock.now.offset == .zero)
    }

    @Test func aHandlerCancelsAndReschedulesFromInsideItsCallback() async throws {
        let clock = ManualClock()
        let loop = EventLoop(clock: clock)
        defer { loop.shutdown() }
        let firings = Firings(clock)
        let own = FutexMutex<EventLoop.Registration?>(nil)
        let registration = try loop.schedule(every: .milliseconds(10)) {
            firings.record("tick")
            // Cancels itself and schedules a follow-up: both take the loop's lock, which a handler never runs under.
            own.withLock { $0 }?.cancel()
            _ = try? loop.schedule(after: .milliseconds(5)) { firings.record("follow-up") }
        }
        own.withLock { $0 = registration }
        await clock.advance(by: .milliseconds(100))
        #expect(firings.all == ["tick@0.01 seconds", "follow-up@0.015 seconds"])
        #expect(registration.isCancelled)
    }

    @Test func timersDueTogetherRunInDeadlineThenRegistrationOrder() async throws {
        let clock = ManualClock()
        let loop = EventLoop(clock: clock)
        defer { loop.shutdown() }
        let firings = Firings(clock)
        for name in ["a", "b", "c"] { _ = try loop.schedule(after: .milliseconds(20)) { firings.record(name) } }
        _ = try loop.schedule(after: .milliseconds(10)) { firings.record("early") }
        await clock.advance(by: .milliseconds(20))
        #expect(firings.all == ["early@0.01 seconds", "a@0.02 seconds", "b@0.02 seconds", "c@0.02 seconds"])
    }

    /// On the kernel's clock: a handler holds the loop for ten periods; the timer then fires once, and the next
    /// tick comes a full period later, not the missed ones in a burst.
    @Test func aRepeatingTimerHeldUpByASlowHandlerIsNotMadeUpInABurst() async throws {
        let loop = EventLoop()
        defer { loop.shutdown() }
        let ticks = FutexMutex<[ContinuousClock.Instant]>([])
        let unblocked = FutexMutex<ContinuousClock.Instant?>(nil)
        let timer = try loop.schedule(every: .milliseconds(10)) { ticks.withLock { $0.append(.now) } }
        defer { timer.cancel() }
        let hold = DispatchSemaphore(value: 0)
        _ = try loop.schedule(after: .zero) {
            _ = hold.wait(timeout: .now() + .milliseconds(100))  // a slow handler: nothing signals it
            unblocked.withLock { $0 = .now }
        }
        let enough = await eventually {
            guard let end = unblocked.withLock({ $0 }) else { return false }
            return ticks.withLock { $0.filter { $0 >= end }.count } >= 2
        }
        #expect(enough)
        let end = try #require(unblocked.withLock { $0 })
        let after = ticks.withLock { $0.filter { $0 >= end } }
        #expect(after.count >= 2)
        if after.count >= 2 {
            let gap = after[0].duration(to: after[1])
            // A period after it, less what a descheduled loop thread can lose between reading the clock and the call.
            #expect(gap >= .milliseconds(5), "the tick after the late one came \(gap) later: a burst of missed ones")
        }
    }

    @Test func aRepeatingTimerThatFellBehindFiresOnceThenKeepsItsPeriod() {
        // The heap's rule, applied when a timer runs late: the next deadline is one period after now, not the
        // missed ones in a burst.
        #expect(
            EventLoop.nextDeadline(after: .milliseconds(10), period: .milliseconds(10), now: .milliseconds(12))
                == .milliseconds(20))
        #expect(
            EventLoop.nextDeadline(after: .milliseconds(10), period: .milliseconds(10), now: .milliseconds(95))
                == .milliseconds(105))
        #expect(
            EventLoop.nextDeadline(after: .milliseconds(10), period: .milliseconds(10), now: .milliseconds(20))
                == .milliseconds(30))
    }
}

@Suite(.timeLimit(.minutes(5))) struct DeadlineHeapTests {
    @Test func popsInDeadlineThenTokenOrderAndForgetsRemovedTokens() {
        var heap = DeadlineHeap()
        let deadlines: [UInt64: Int] = [1: 50, 2: 10, 3: 30, 4: 10, 5: 40, 6: 20, 7: 60]
        for (token, milliseconds) in deadlines.sorted(by: { $0.key < $1.key }) {
            heap.insert(token, deadline: .milliseconds(milliseconds))
        }
        heap.remove(3)
        heap.remove(3)
        heap.insert(7, deadline: .milliseconds(5))
        #expect(heap.count == 6)
        #expect(heap.popDue(at: .milliseconds(1)) == nil)
        var order: [UInt64] = []
        while let element = heap.popDue(at: .seconds(1)) { order.append(element.token) }
        #expect(order == [7, 2, 4, 6, 5, 1])
        #expect(heap.isEmpty)
    }

    @Test(arguments: 0..<20) func staysOrderedUnderRandomInsertsAndRemovals(seed: Int) {
        var random = SeededRandom(seed: UInt64(seed))
        var heap = DeadlineHeap()
        var model: [UInt64: Duration] = [:]
        for _ in 0..<300 {
            let token = UInt64(random.next() % 40)
            if random.next() % 3 == 0 {
                heap.remove(token)
                model[token] = nil
            } else {
                let deadline = Duration.milliseconds(Int(random.next() % 100))
                heap.insert(token, deadline: deadline)
                model[token] = deadline
            }
        }
        let expected = model.sorted { ($0.value, $0.key) < ($1.value, $1.key) }.map(\.key)
        var popped: [UInt64] = []
        while let element = heap.popDue(at: .seconds(1)) { popped.append(element.token) }
        #expect(popped == expected)
    }
}
