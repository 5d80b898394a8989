import Dispatch
import Glibc
import Synchronization
import Vigil

/// How a running command ends: the first of SIGINT, SIGTERM, a write error, or the command's own end (a count
/// reached, a timeout) sets the exit status and wakes the main thread.
final class RunControl: Sendable {
    /// The exit status and the message for standard error, once decided.
    private let outcome = FutexMutex<(status: Int32, message: String?)?>(nil)
    /// The status of the last signal received, or 0.
    private let signalStatus = Atomic<Int32>(0)
    private let ended = DispatchSemaphore(value: 0)
    private let signalQueue = DispatchQueue(label: "vigil.signals")

    /// Starts handling SIGINT (status 130) and SIGTERM (status 143), which the command blocked first
    /// (``HandledSignals/block(_:)``), on a queue of their own whatever the other threads do.
    ///
    /// - Returns: The signal sources; keep them for as long as the signals should be handled.
    func handleSignals() -> [any DispatchSourceSignal] {
        HandledSignals.stop.map { number in
            HandledSignals.source(number, on: signalQueue) { [self] in
                signalStatus.store(128 + number, ordering: .relaxed)
                finish(128 + number)
            }
        }
    }

    /// Ends the run with `status` and, if given, one line for standard error; only the first call counts.
    func finish(_ status: Int32, message: String? = nil) {
        let first = outcome.withLock { outcome in
            guard outcome == nil else { return false }
            outcome = (status, message)
            return true
        }
        if first { ended.signal() }
    }

    /// Waits until ``finish(_:message:)`` is called, and returns what it was called with.
    func wait() -> (status: Int32, message: String?) {
        ended.wait()
        ended.signal()
        return outcome.withLock { $0 } ?? (0, nil)
    }

    /// The status of a signal received so far (130 or 143), or nil.
    var signalled: Int32? {
        let status = signalStatus.load(ordering: .relaxed)
        return status == 0 ? nil : status
    }
}
