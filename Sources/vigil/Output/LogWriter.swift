import Dispatch
import Foundation
import Glibc
import Vigil
import VigilSensors

/// Standard error for the commands that run for long (`serve`, `publish`): lines are queued and written by a thread of
/// its own, so a standard error nobody reads never stalls the event loop that logs (every source shares it).
///
/// Bounded and rate-limited: lines are taken at most ``perSecond`` a second on average (bursts of ``burst``), and at
/// most ``capacity`` wait. Beyond either a line is dropped and counted, and the next line written is preceded by
/// "vigil: N log lines dropped" (a hostile client that earns a line a request cannot flood the log, nor fill
/// memory). ``flush(until:)`` writes what is left when the run ends, for a bounded time.
final class LogWriter: Sendable {
    /// At most this many lines wait to be written.
    static let capacity = 256
    /// The average rate of lines taken, a second.
    static let perSecond = 20.0
    /// The most lines taken at once.
    static let burst = 100.0

    private struct State {
        var lines: [String] = []
        var dropped = 0
        var tokens = LogWriter.burst
        var refilled = ContinuousClock.now
        var writing = false
    }

    private let state = FutexMutex(State())
    private let work = DispatchSemaphore(value: 0)
    private let idle = DispatchSemaphore(value: 0)
    private let descriptor: Int32

    /// Starts the writer thread; `descriptor` is standard error unless a test says otherwise.
    init(descriptor: Int32 = 2) {
        self.descriptor = descriptor
        Thread.detachNewThread { [self] in run() }
    }

    /// Queues one line (without its newline), or counts it as dropped; never blocks.
    func log(_ line: String) {
        let queued = state.withLock { state -> Bool in
            let now = ContinuousClock.now
            let elapsed = now - state.refilled
            state.refilled = now
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            state.tokens = min(Self.burst, state.tokens + seconds * Self.perSecond)
            guard state.tokens >= 1, state.lines.count < Self.capacity else {
                state.dropped += 1
                return false
            }
            state.tokens -= 1
            state.lines.append(line)
            return true
        }
        if queued { work.signal() }
    }

    /// Waits until the queued lines are written or `deadline` passes; says what was dropped, if it can.
    func flush(until deadline: DispatchTime) {
        work.signal()
        while state.withLock({ !$0.lines.isEmpty || $0.writing || $0.dropped > 0 }) {
            guard DispatchTime.now() < deadline else { return }
            _ = idle.wait(timeout: min(deadline, .now() + .milliseconds(20)))
        }
    }

    private func run() {
        while true {
            work.wait()
            let (lines, dropped) = state.withLock { state in
                defer {
                    state.lines = []
                    state.dropped = 0
                    state.writing = true
                }
                return (state.lines, state.dropped)
            }
            var text = dropped > 0 ? "vigil: \(dropped) log lines dropped (too many, or standard error too slow)\n" : ""
            for line in lines { text += line + "\n" }
            if !text.isEmpty { OutputWriter.writeAll(text, to: descriptor) }
            state.withLock { $0.writing = false }
            idle.signal()
        }
    }
}
