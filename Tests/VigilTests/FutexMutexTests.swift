import Testing
import Vigil
import VigilTestSupport

@Suite(.timeLimit(.minutes(10))) struct FutexMutexTests {
    /// A plain counter, made racy on purpose: only the lock keeps its increments from being lost.
    final class Counter: @unchecked Sendable {
        var value = 0
    }

    @Test func excludesEveryOtherThreadUnderContention() {
        let lock = FutexMutex(0)
        let counter = Counter()
        concurrently(8) { _ in
            for _ in 0..<50_000 {
                lock.withLock { inside in
                    inside += 1
                    counter.value += 1
                }
            }
        }
        #expect(lock.withLock { $0 } == 400_000)
        #expect(counter.value == 400_000)
    }

    @Test(arguments: [false, true])
    func aReleaseWakesAThreadAsleepOnTheLock(fallback: Bool) {
        // Each holder keeps the lock for 50 µs, far longer than a waiter spins, so the others register and sleep
        // on the futex; a release that failed to see a registration would leave a thread asleep for good. The
        // release relies on the waiters' membarrier(2), or (fallback) uses a full fence.
        FutexLockRelease.forceFallback(fallback)
        defer { FutexLockRelease.forceFallback(false) }
        let lock = FutexMutex(0)
        let finished = finishes(within: 60) {
            concurrently(4) { _ in
                for _ in 0..<500 {
                    lock.withLock { inside in
                        let end = ContinuousClock.now.advanced(by: .microseconds(50))
                        while ContinuousClock.now < end {}
                        inside += 1
                    }
                }
            }
        }
        #expect(finished, "a thread slept through a release")
        #expect(lock.withLock { $0 } == 2_000)
    }

    #if DEBUG
        @Test func lockingAgainOnTheHoldingThreadTraps() async {
            await #expect(processExitsWith: .failure) {
                let lock = FutexMutex(0)
                lock.withLock { _ in lock.withLock { $0 += 1 } }
            }
        }
    #endif
}
