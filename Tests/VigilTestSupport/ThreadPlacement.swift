import CVigilTestSupport
import Glibc

/// Places the calling thread on one CPU, and optionally above every normal thread, so a test can make the kernel
/// preempt one thread by another at a point of its choosing: a real-time thread that wakes on a CPU preempts the
/// normal thread running there at once, wherever that thread is.
package enum ThreadPlacement {
    /// The CPUs this process may run on, in order.
    package static var allowedCPUs: [Int] {
        var cpus = [Int32](repeating: 0, count: 1024)
        let count = vigil_test_allowed_cpus(&cpus, Int32(cpus.count))
        return cpus.prefix(max(Int(count), 0)).map(Int.init)
    }

    /// Pins the calling thread to `cpu`; returns whether the kernel agreed.
    @discardableResult
    package static func pin(to cpu: Int) -> Bool {
        vigil_test_pin_thread(Int32(cpu)) == 0
    }

    /// Makes the calling thread real-time (`SCHED_FIFO` at `priority`); returns whether the kernel agreed (it needs
    /// `CAP_SYS_NICE`). The thread should sleep most of the time: the kernel's real-time throttling is the only
    /// bound on a real-time thread that spins.
    package static func makeRealTime(priority: Int32 = 10) -> Bool {
        var parameters = sched_param(sched_priority: priority)
        return sched_setscheduler(0, SCHED_FIFO, &parameters) == 0
    }

    /// Makes the calling thread a normal thread again.
    package static func makeNormal() {
        var parameters = sched_param(sched_priority: 0)
        _ = sched_setscheduler(0, SCHED_OTHER, &parameters)
    }
}
