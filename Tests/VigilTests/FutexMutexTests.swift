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

    #if DEBUG
        @Test func lockingAgainOnTheHoldingThreadTraps() async {
            await #expect(processExitsWith: .failure) {
                let lock = FutexMutex(0)
                lock.withLock { _ in lock.withLock { $0 += 1 } }
            }
        }
    #endif
}
