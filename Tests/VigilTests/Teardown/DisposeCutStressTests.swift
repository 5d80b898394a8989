import Dispatch
import Glibc
import Synchronization
import Testing
import Vigil
import VigilTestSupport

/// What `dispose()` promises under many publishers and many subscribe/dispose loops, in terms a subscriber can
/// check: no value published after `dispose()` returned reaches the closure, and at most one callback enters it
/// after that return, one whose value was published before (the delivery that had already passed the point of no
/// return, on the thread delivering the subject); `disposeAndWait()` leaves none at all.
@Suite(.serialized, .timeLimit(.minutes(10))) struct DisposeCutStressTests {
    struct Violations: Equatable {
        var windows = 0
        /// Callbacks that entered the closure after `dispose()` returned.
        var lateCallbacks = 0
        /// Windows with more than one such callback.
        var windowsWithSeveralLateCallbacks = 0
        /// Late callbacks whose value was published after `dispose()` returned.
        var valuesPublishedAfterTheReturn = 0
    }

    /// Eight publishers stamp each value with a ticket taken just before its publish; eight threads subscribe, wait
    /// 0 to 2 ms, dispose, then read the ticket counter and raise a flag that the closure checks first thing; until
    /// `windows` such windows have run, or `limit` has passed (about 2 s alone; longer under a sanitizer and beside
    /// other suites, where CI saw 634 windows in a fixed 2 s).
    static func run(windows target: Int, within limit: Duration, waiting: Bool) -> Violations {
        let subject = PublishSubject<Int>()
        let tickets = Atomic<Int>(0)
        let running = Atomic<Bool>(true)
        let result = FutexMutex(Violations())
        let deadline = ContinuousClock.now + limit
        let windows = Atomic<Int>(0)
        concurrently(16) { thread in
            if thread < 8 {
                while running.load(ordering: .relaxed) {
                    subject.publish(tickets.add(1, ordering: .sequentiallyConsistent).oldValue)
                }
                return
            }
            var random = SystemRandomNumberGenerator()
            while ContinuousClock.now < deadline, windows.load(ordering: .relaxed) < target {
                let returned = Atomic<Bool>(false)
                let boundary = Atomic<Int>(.max)
                let late = FutexMutex<[Int]>([])
                let subscription = subject.subscribe { ticket in
                    guard returned.load(ordering: .sequentiallyConsistent) else { return }
                    late.withLock { $0.append(ticket) }
                }
                usleep(UInt32.random(in: 0...2_000, using: &random))  // the window: part of the scenario
                if waiting { subscription.disposeAndWait() } else { subscription.dispose() }
                boundary.store(tickets.load(ordering: .sequentiallyConsistent), ordering: .sequentiallyConsistent)
                returned.store(true, ordering: .sequentiallyConsistent)
                // A late callback can only be one already running now: wait for it to return.
                subscription.disposeAndWait()
                let lateTickets = late.withLock { $0 }
                let cut = boundary.load(ordering: .sequentiallyConsistent)
                windows.add(1, ordering: .relaxed)
                result.withLock { violations in
                    violations.windows += 1
                    violations.lateCallbacks += lateTickets.count
                    if lateTickets.count > 1 { violations.windowsWithSeveralLateCallbacks += 1 }
                    violations.valuesPublishedAfterTheReturn += lateTickets.filter { $0 >= cut }.count
                }
            }
            if thread == 8 { running.store(false, ordering: .relaxed) }
        }
        return result.withLock { $0 }
    }

    @Test func disposeLetsNoValuePublishedAfterItsReturnInAndAtMostOneCallbackAlreadyOnItsWay() {
        let violations = Self.run(windows: 5_000, within: .seconds(30), waiting: false)
        #expect(violations.windows > 1_000)
        #expect(violations.valuesPublishedAfterTheReturn == 0)
        #expect(violations.windowsWithSeveralLateCallbacks == 0)
        print(
            "dispose(): \(violations.lateCallbacks) callbacks entered after the return in \(violations.windows) windows"
        )
    }

    @Test func disposeAndWaitLetsNoCallbackInAfterItsReturn() {
        let violations = Self.run(windows: 5_000, within: .seconds(30), waiting: true)
        #expect(violations.windows > 1_000)
        #expect(violations.lateCallbacks == 0)
    }
}
