import Dispatch
import Glibc
import Synchronization
import Vigil

/// How the dashboard ends: the first of a key (`q`, Ctrl-C) or a signal sets the exit status and wakes the main
/// thread, which waits in ``wait()``.
final class TopEnding: Sendable {
    private let status = FutexMutex<Int32?>(nil)
    private let done = DispatchSemaphore(value: 0)
    private let queue = DispatchQueue(label: "vigil.top.signals")

    /// Ends with `status` unless something ended it already.
    func end(_ status: Int32) {
        let isFirst = self.status.withLock { current in
            guard current == nil else { return false }
            current = status
            return true
        }
        if isFirst { done.signal() }
    }

    /// Blocks until the dashboard ends; returns its exit status.
    func wait() -> Int32 {
        done.wait()
        return status.withLock { $0 ?? 0 }
    }

    /// Ends with each signal's status when it arrives (the command blocked them first: ``HandledSignals/block(_:)``).
    func listen(to signals: [(number: Int32, status: Int32)]) -> [any DispatchSourceProtocol] {
        signals.map { number, status in
            HandledSignals.source(number, on: queue) { [self] in end(status) }
        }
    }

    /// Reads keys from standard input on `queue`: `q` ends with 0, Ctrl-C (a byte in raw mode) with 130. At end of
    /// input the reading stops; the dashboard then runs until a signal.
    func readKeys(on queue: DispatchQueue) -> any DispatchSourceProtocol {
        let source = DispatchSource.makeReadSource(fileDescriptor: STDIN_FILENO, queue: queue)
        source.setEventHandler { [self] in
            var bytes = [UInt8](repeating: 0, count: 64)
            let count = bytes.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if count == 0 || (count < 0 && errno != EINTR && errno != EAGAIN) { source.cancel() }
            for byte in bytes.prefix(max(0, count)) {
                if byte == UInt8(ascii: "q") || byte == UInt8(ascii: "Q") { end(0) }
                if byte == 3 { end(130) }
            }
        }
        source.resume()
        return source
    }

    /// Runs `handler` on `queue` every `interval`.
    func repeating(
        every interval: DispatchTimeInterval, on queue: DispatchQueue, _ handler: @escaping @Sendable () -> Void
    )
        -> any DispatchSourceProtocol
    {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(100))
        timer.setEventHandler(handler: handler)
        timer.resume()
        return timer
    }
}
