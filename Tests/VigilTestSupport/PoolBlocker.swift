import Dispatch
import Foundation
import Synchronization

/// Holds the threads of Swift concurrency's shared pool blocked until ``release()``, to show that something does not
/// need one of them.
///
/// Blocks more tasks than the pool has threads (libdispatch adds threads for blocked ones only slowly), and waits
/// until a core's worth of them are running, so that the pool is full when the initializer returns. Call it off the
/// pool (``offThePool(_:)``): a test task that blocks the pool waits behind its own blockers.
package final class PoolBlocker: Sendable {
    private let gate = DispatchSemaphore(value: 0)
    private let running = Atomic<Int>(0)
    private let count: Int

    /// The online cores, the width of the pool; from `sysconf(3)`, not `ProcessInfo.activeProcessorCount`, whose
    /// cgroup `cpuset` read leaks a 4 KiB buffer that LeakSanitizer reported in CI.
    package static var cores: Int { max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))) }

    /// Starts `count` blocking tasks and waits (five seconds at most) until a core's worth of them run.
    package init(tasks count: Int = 4 * PoolBlocker.cores) {
        self.count = count
        for _ in 0..<count {
            Task.detached { [self] in
                running.add(1, ordering: .relaxed)
                block()
            }
        }
        let deadline = ContinuousClock.now + .seconds(5)
        while running.load(ordering: .relaxed) < Self.cores,
            ContinuousClock.now < deadline
        {
            usleep(1_000)
        }
    }

    /// Lets every blocking task finish.
    package func release() {
        for _ in 0..<count { gate.signal() }
    }

    /// Waits on the gate; synchronous, since an async context may not wait on a semaphore.
    private func block() { gate.wait() }
}
