import Glibc
import Synchronization
import Testing
import Vigil
import VigilTestSupport

/// `disposeAndWait()` waits for the callback running on another thread even when the thread that delivered before
/// it is preempted just after it gave up the deliverer role: what that late thread does next must not look like the
/// end of the new deliverer's round. CI once saw it so, rarely, under AddressSanitizer; here the kernel is made to
/// preempt the publishing thread at random points, so the moment recurs hundreds of times a second.
@Suite(.serialized, .timeLimit(.minutes(5))) struct LateDelivererTests {
    /// Thread D publishes without pause on CPU A. Thread H, real-time on the same CPU, wakes at random moments, so
    /// the kernel stops D wherever it is, and publishes; when its own value reaches the subscriber on H, the callback
    /// lets thread X (CPU B) `disposeAndWait()`, keeps D off the CPU for a moment, then lets D go on while it still
    /// runs. X must not return before it.
    @Test func disposeAndWaitOutlastsTheCallbackWhenTheFormerDelivererIsLate() throws {
        let cpus = ThreadPlacement.allowedCPUs
        guard cpus.count >= 2 else { try skip("needs two CPUs, this process may use \(cpus)", expectedUnderCI: false) }
        let realTime = Atomic<Bool>(false)
        _ = finishes {
            realTime.store(ThreadPlacement.makeRealTime(), ordering: .relaxed)
            ThreadPlacement.makeNormal()
        }
        guard realTime.load(ordering: .relaxed) else {
            try skip("needs SCHED_FIFO (CAP_SYS_NICE, root) to preempt a thread at will", expectedUnderCI: false)
        }
        let run = Scenario()
        concurrently(3) { role in
            switch role {
            case 0: run.publishWithoutPause(on: cpus[0])
            case 1: run.publishAtRandomMoments(on: cpus[0])
            default: run.subscribeAndDisposeAndWait(on: cpus[1], windows: 200, within: .seconds(60))
            }
        }
        let scenarios = run.scenarios.load(ordering: .relaxed)
        #expect(scenarios > 100, "the callback ran on the real-time thread in \(scenarios) windows")
        #expect(run.returnedEarly.load(ordering: .relaxed) == 0, "in \(scenarios) windows")
        let early = run.returnedEarly.load(ordering: .relaxed)
        print("disposeAndWait() returned early in \(early) of \(scenarios) windows")
    }

    final class Scenario: Sendable {
        enum Phase: Int { case idle, subscribed, dispose, done }

        let subject = PublishSubject<Int>()
        let running = Atomic<Bool>(true)
        let phase = Atomic<Int>(Phase.idle.rawValue)
        /// How many of D's publishes returned.
        let published = Atomic<Int>(0)
        let realTimeThread = Atomic<UInt>(0)
        let inside = Atomic<Bool>(false)
        let waiterReturned = Atomic<Bool>(false)
        let scenarios = Atomic<Int>(0)
        let returnedEarly = Atomic<Int>(0)

        func publishWithoutPause(on cpu: Int) {
            ThreadPlacement.pin(to: cpu)
            while running.load(ordering: .relaxed) {
                subject.publish(0)
                published.add(1, ordering: .sequentiallyConsistent)
            }
        }

        func publishAtRandomMoments(on cpu: Int) {
            ThreadPlacement.pin(to: cpu)
            guard ThreadPlacement.makeRealTime() else { return running.store(false, ordering: .relaxed) }
            defer { ThreadPlacement.makeNormal() }
            realTimeThread.store(UInt(bitPattern: Int(bitPattern: pthread_self())), ordering: .relaxed)
            var random = SystemRandomNumberGenerator()
            while running.load(ordering: .relaxed) {
                guard wait(for: .subscribed) else { continue }
                usleep(UInt32.random(in: 20...300, using: &random))  // waking here preempts D wherever it is
                subject.publish(1)
                // The value went to D's delivery (D held the role): no scenario this time.
                _ = phase.compareExchange(
                    expected: Phase.subscribed.rawValue, desired: Phase.dispose.rawValue, ordering: .relaxed)
                guard wait(for: .done) else { continue }
                waiterReturned.store(false, ordering: .sequentiallyConsistent)
                phase.store(Phase.idle.rawValue, ordering: .sequentiallyConsistent)
            }
        }

        /// Runs trials until `windows` scenarios happened or `limit` passed: about 3 s alone, longer when a sanitizer
        /// and the other suites share the two CPUs (CI saw 15 windows in a fixed 3 s under ThreadSanitizer).
        func subscribeAndDisposeAndWait(on cpu: Int, windows: Int, within limit: Duration) {
            ThreadPlacement.pin(to: cpu)
            defer { running.store(false, ordering: .relaxed) }
            let end = ContinuousClock.now + limit
            while ContinuousClock.now < end, scenarios.load(ordering: .relaxed) < windows,
                running.load(ordering: .relaxed)
            {
                guard wait(for: .idle) else { return }
                let subscription = subject.subscribe { [self] _ in onValue() }
                phase.store(Phase.subscribed.rawValue, ordering: .sequentiallyConsistent)
                guard wait(for: .dispose) else { return }
                subscription.disposeAndWait()
                if inside.load(ordering: .sequentiallyConsistent) { returnedEarly.add(1, ordering: .relaxed) }
                waiterReturned.store(true, ordering: .sequentiallyConsistent)
                phase.store(Phase.done.rawValue, ordering: .sequentiallyConsistent)
            }
        }

        /// The subscriber: on H, with its trial's value, holds the callback open across X's wait and D's return.
        func onValue() {
            guard UInt(bitPattern: Int(bitPattern: pthread_self())) == realTimeThread.load(ordering: .relaxed),
                phase.load(ordering: .sequentiallyConsistent) == Phase.subscribed.rawValue
            else { return }
            scenarios.add(1, ordering: .relaxed)
            inside.store(true, ordering: .sequentiallyConsistent)
            phase.store(Phase.dispose.rawValue, ordering: .sequentiallyConsistent)
            // Spinning, real-time: D stays where the kernel stopped it while X detaches and starts waiting.
            let spun = ContinuousClock.now + .microseconds(300)
            while ContinuousClock.now < spun {}
            // Asleep: D goes on (finishing the publish it was stopped in) while this callback still runs.
            let mark = published.load(ordering: .sequentiallyConsistent)
            let limit = ContinuousClock.now + .milliseconds(20)
            while published.load(ordering: .sequentiallyConsistent) == mark, ContinuousClock.now < limit { usleep(20) }
            let grace = ContinuousClock.now + .milliseconds(2)
            while !waiterReturned.load(ordering: .sequentiallyConsistent), ContinuousClock.now < grace { usleep(20) }
            inside.store(false, ordering: .sequentiallyConsistent)
        }

        /// Waits until the phase is `wanted`, up to a second; false if the run ended or the wait timed out.
        private func wait(for wanted: Phase) -> Bool {
            let limit = ContinuousClock.now + .seconds(1)
            while phase.load(ordering: .sequentiallyConsistent) != wanted.rawValue {
                guard running.load(ordering: .relaxed), ContinuousClock.now < limit else { return false }
                usleep(10)
            }
            return true
        }
    }
}
