import Dispatch
import Foundation
import Glibc
import Synchronization
import Vigil
import VigilSensors

/// Writes lines to standard output on a thread of its own, from a bounded backlog, so that a blocked standard output
/// (a pipe nobody reads, Ctrl-S in a terminal) never blocks the sources or the signal handling.
///
/// When the backlog is full the oldest lines are dropped; once the writer catches up it says how many on standard
/// error ("vigil: dropped N readings: standard output was too slow"), so the JSON stream on standard output stays
/// clean, and what it never got to say (standard output stayed blocked) is said at the end of the run
/// (``reportDropped()``). Readings dropped before they became lines (see ``countDropped(_:)``) are counted with
/// them. A write error (EPIPE, ENOSPC, …) stops the writer and is reported once through `onFailure`.
final class OutputWriter: Sendable {
    private struct State {
        /// The backlog is `lines[head...]`: dropping the oldest moves `head`, and the array is compacted once half of
        /// it is dropped, so a full backlog drops in constant time, not by shifting 10,000 lines a line.
        var lines: [String] = []
        var head = 0
        var bytes = 0
        var dropped = 0
        var writing = false
        var failed = false
        var failure: String?
    }

    /// At most this many lines wait to be written …
    static let maximumLines = 10_000
    /// … and at most this many bytes.
    static let maximumBytes = 8 << 20

    private let state = FutexMutex(State())
    /// A pipe whose read end wakes the writer thread: a byte a batch of queued lines.
    private let wake: (read: Int32, write: Int32)
    private let idle = DispatchSemaphore(value: 0)
    private let descriptor: Int32

    /// Starts the writer thread.
    ///
    /// - Parameters:
    ///   - descriptor: Where to write, standard output by default.
    ///   - onFailure: Called once, on the writer thread, with a message when a write fails.
    init(descriptor: Int32 = 1, onFailure: @escaping @Sendable (String) -> Void) {
        self.descriptor = descriptor
        var ends: [Int32] = [-1, -1]
        // pipe fails only without descriptors left; the writer then finds nothing to poll and stops at once.
        _ = pipe(&ends)
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
        }
        wake = (ends[0], ends[1])
        Thread.detachNewThread { [self] in self.run(onFailure: onFailure) }
    }

    /// Queues one line (without its newline); drops the oldest lines when the backlog is full. Never blocks.
    func enqueue(_ line: String) {
        let queued = state.withLock { state -> Bool in
            guard !state.failed else { return false }
            state.lines.append(line)
            state.bytes += line.utf8.count + 1
            while state.lines.count - state.head > Self.maximumLines
                || (state.bytes > Self.maximumBytes && state.lines.count - state.head > 1)
            {
                state.bytes -= state.lines[state.head].utf8.count + 1
                state.lines[state.head] = ""
                state.head += 1
                state.dropped += 1
            }
            if state.head > state.lines.count / 2 {
                state.lines.removeFirst(state.head)
                state.head = 0
            }
            return true
        }
        if queued {
            var byte: UInt8 = 1
            _ = write(wake.write, &byte, 1)
        }
    }

    /// Counts `count` readings dropped before they became lines, to be reported with the lines this writer drops.
    func countDropped(_ count: Int) {
        state.withLock { $0.dropped += count }
    }

    /// Says on standard error how many readings were dropped and not yet reported (standard output stayed blocked
    /// until the end of the run); call once the run is over.
    func reportDropped() {
        let dropped = state.withLock { state in
            defer { state.dropped = 0 }
            return state.dropped
        }
        if dropped > 0 { Self.writeAll(Self.droppedNotice(dropped), to: 2) }
    }

    /// The line that says how many readings were dropped.
    private static func droppedNotice(_ dropped: Int) -> String {
        "vigil: dropped \(dropped) readings: standard output was too slow\n"
    }

    /// Waits until every queued line is written, the writer failed, or `deadline` passes (or `shouldGiveUp` says so);
    /// returns whether the backlog was written.
    func drain(until deadline: DispatchTime, shouldGiveUp: () -> Bool = { false }) -> Bool {
        while true {
            let (done, failed) = state.withLock { ($0.lines.count == $0.head && !$0.writing, $0.failed) }
            if done || failed { return !failed }
            if shouldGiveUp() || DispatchTime.now() >= deadline { return false }
            _ = idle.wait(timeout: min(deadline, .now() + .milliseconds(50)))
        }
    }

    /// Why writing failed, once it has.
    var failure: String? { state.withLock { $0.failure } }

    private func run(onFailure: @Sendable (String) -> Void) {
        while true {
            if let failure = waitForWork() {
                state.withLock { state in
                    state.failed = true
                    state.failure = failure
                }
                idle.signal()
                onFailure(failure)
                return
            }
            let lines = state.withLock { state in
                defer {
                    state.lines = []
                    state.head = 0
                    state.bytes = 0
                    state.writing = true
                }
                return state.lines[state.head...]
            }
            var text = lines.joined(separator: "\n")
            if !lines.isEmpty { text += "\n" }
            let error = Self.writeAll(text, to: descriptor)
            // Taken after the write, so that what was dropped while it blocked is reported now or at the end.
            let (failure, dropped) = state.withLock { state in
                defer {
                    state.writing = false
                    state.dropped = 0
                }
                if let error {
                    state.failed = true
                    state.failure = "standard output: \(String(cString: strerror(error)))"
                }
                return (state.failure, state.dropped)
            }
            if dropped > 0 { Self.writeAll(Self.droppedNotice(dropped), to: 2) }
            idle.signal()
            if let failure {
                onFailure(failure)
                return
            }
        }
    }

    /// Waits until lines are queued; returns a failure when standard output is a pipe whose reader went away
    /// (`poll(2)` reports POLLERR), so that `vigil … | head -1` ends at once, not at the next line.
    private func waitForWork() -> String? {
        var descriptors = [
            pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0), pollfd(fd: descriptor, events: 0, revents: 0),
        ]
        while true {
            let ready = poll(&descriptors, 2, -1)
            if ready < 0 && errno == EINTR { continue }
            if ready < 0 { return "standard output: \(String(cString: strerror(errno)))" }
            if descriptors[0].revents != 0 {
                var buffer = [UInt8](repeating: 0, count: 256)
                while read(wake.read, &buffer, buffer.count) > 0 {}
                return nil
            }
            if descriptors[1].revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0 {
                return "standard output: \(String(cString: strerror(EPIPE)))"
            }
        }
    }

    /// Writes all of `text` (see `writingFully`); returns the errno of a failed write, `EAGAIN` when a non-blocking
    /// descriptor took only part of it.
    @discardableResult
    static func writeAll(_ text: String, to descriptor: Int32) -> Int32? {
        // Whoever started us may have closed standard output (`vigil list >&-`): that EBADF is the user's to hear
        // about, not a Vigil bug for the system layer to trap on.
        guard fcntl(descriptor, F_GETFD) >= 0 else { return EBADF }
        var text = text
        return text.withUTF8 { bytes -> Int32? in
            do throws(Errno) {
                let written = try writingFully(UnsafeRawBufferPointer(bytes)) {
                    write(descriptor, $0.baseAddress, $0.count)
                }
                return written == bytes.count ? nil : EAGAIN
            } catch {
                return error.rawValue
            }
        }
    }
}
