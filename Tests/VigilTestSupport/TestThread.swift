import Dispatch
import Foundation
import Synchronization

/// Threads of their own for test work that blocks: reading a child's pipe, serving a fake broker, a client waiting
/// for its reply, a callback that must not return yet.
///
/// Never `DispatchQueue.global()` or `concurrentPerform` for such work. On Linux their threads are the ones Swift
/// concurrency runs every async test on, sized to the cores; libdispatch adds a thread for a blocked one only once a
/// second, and not at all while another is runnable and four exist. Twenty blocked pipe readers there stalled every
/// async test of the run for two minutes under AddressSanitizer on two cores, and once until CI's time limit.
package enum TestThread {
    /// Runs `body` on a new thread.
    package static func detach(_ body: @escaping @Sendable () -> Void) {
        Thread(block: body).start()
    }
}

/// Runs `body(index)` on `count` threads at once and waits for all.
package func concurrently(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    // Threads of their own behind a barrier: `DispatchQueue.concurrentPerform` may run every iteration one after
    // the other on the calling thread when the pool is busy, and then nothing in the test runs concurrently.
    let arrived = Atomic<Int>(0)
    let done = DispatchGroup()
    for index in 0..<count {
        done.enter()
        TestThread.detach {
            arrived.add(1, ordering: .acquiringAndReleasing)
            while arrived.load(ordering: .acquiring) < count { sched_yield() }
            body(index)
            done.leave()
        }
    }
    done.wait()
}

/// Runs `body` on a thread of its own and waits up to `seconds` for it; returns whether it finished.
///
/// A deadlock then fails the test at once instead of hanging it until the suite's time limit.
package func finishes(within seconds: Double = 10, _ body: @escaping @Sendable () -> Void) -> Bool {
    let done = DispatchSemaphore(value: 0)
    TestThread.detach {
        body()
        done.signal()
    }
    return done.wait(timeout: .now() + seconds) == .success
}

/// Runs blocking `body` on a thread of its own and resumes when it returns, so an async test that blocks (on a
/// semaphore, a polling wait) leaves the threads Swift concurrency runs on free for the timers and tasks under test.
package func offThePool<Result: Sendable>(_ body: @escaping @Sendable () -> Result) async -> Result {
    await withCheckedContinuation { continuation in
        TestThread.detach { continuation.resume(returning: body()) }
    }
}

/// A stimulus repeated on a thread of its own until stopped: the test's wait then only looks, and the stimulus goes on
/// however seldom it looks (a test process whose threads are all busy may look once in thirty seconds, and a stimulus
/// given in the wait's condition would then stop with it).
package final class Repeating: Sendable {
    private let stopped = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    /// Runs `body` now, then every `interval` until ``stop()``.
    package init(every interval: Duration, _ body: @escaping @Sendable () -> Void) {
        let stopped = stopped
        let finished = finished
        let nanoseconds = Int(interval / .nanoseconds(1))
        TestThread.detach {
            repeat { body() } while stopped.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .timedOut
            finished.signal()
        }
    }

    /// Ends the repetition and waits for a running `body` to return.
    package func stop() {
        stopped.signal()
        finished.wait()
    }
}
