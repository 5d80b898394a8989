import CLinuxSupport
import Dispatch
import Glibc
import Vigil

/// The thread that runs every event loop's sleeper tasks on a clock the kernel cannot follow (a test's
/// `ManualClock`).
///
/// A sleeper woken by such a clock only counts itself and wakes its loop thread, but as a task on the shared
/// concurrency pool it first waited for a free pool thread, which blocking work elsewhere in the process (the tests
/// of other suites) could hold for minutes, and advancing the clock waited as long. On a thread of their own the
/// sleepers never wait behind anything but each other.
final class SleeperExecutor: TaskExecutor {
    /// The one executor, started on first use and kept for the life of the process, like ``EventLoop/shared``.
    static let shared = SleeperExecutor()

    private let jobs = FutexMutex<[UnownedJob]>([])
    private let ready = DispatchSemaphore(value: 0)

    /// Starts an executor on a thread of its own, kept for the life of the process; loops use ``shared``.
    package init() {
        let context = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        let created = pthread_create(
            &thread, nil,
            { context in Unmanaged<SleeperExecutor>.fromOpaque(context!).takeRetainedValue().run() }, context)
        // Without a thread the sleepers could never run: a loop on a test clock would stall without saying why.
        precondition(created == 0, "cannot start the event loops' sleeper thread: \(Errno(rawValue: created))")
        pthread_detach(thread)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        jobs.withLock { $0.append(job) }
        ready.signal()
    }

    /// Runs the jobs in the order they came, for ever.
    private func run() -> Never {
        _ = vigil_set_thread_name("vigil-sleepers")
        while true {
            ready.wait()
            let job = jobs.withLock { $0.removeFirst() }
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
