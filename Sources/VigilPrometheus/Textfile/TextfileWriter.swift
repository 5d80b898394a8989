import Dispatch
import Glibc
import Vigil
import VigilSensors

/// Writes a ``MetricsExporter``'s exposition to a file at an interval, atomically, for node_exporter's textfile
/// collector.
///
/// Each write goes to a temporary file in the same directory (`.NAME.PID.tmp`, which the collector ignores since it
/// reads only `*.prom`), is flushed to disk with `fsync(2)`, and is renamed over the target, so a reader sees the old
/// file or the new one, never a part. The event loop's timer only queues each write: writes run on a serial queue of
/// their own, since a file system may block, and a tick that finds the previous write still running skips.
public final class TextfileWriter: Sendable {
    private struct State {
        var timer: EventLoop.Registration?
        var lastFailure: String?
        /// A write is queued or running; a tick that finds one skips, so slow disks do not pile writes up.
        var isWriting = false
    }

    /// The file written.
    public let path: String
    /// The time between writes.
    public let interval: Duration
    private let exporter: MetricsExporter
    private let eventLoop: EventLoop
    private let log: @Sendable (String) -> Void
    private let queue = DispatchQueue(label: "vigil.textfile")
    private let state = FutexMutex(State())

    /// Creates a writer; ``start()`` writes at once and then every `interval`.
    ///
    /// - Parameters:
    ///   - exporter: What is written.
    ///   - path: The target file, usually `DIRECTORY/vigil.prom` in the collector's directory.
    ///   - interval: The time between writes, at least 1 ms.
    ///   - eventLoop: The loop whose timer paces the writes.
    ///   - log: Called with one line when a write fails (once, until a write succeeds again), on the writer's queue.
    public init(
        exporter: MetricsExporter, path: String, interval: Duration = .seconds(15), eventLoop: EventLoop = .shared,
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.exporter = exporter
        self.eventLoop = eventLoop
        self.path = path
        self.interval = max(interval, .milliseconds(1))
        self.log = log
    }

    deinit { stop() }

    /// Writes the exposition now, atomically.
    ///
    /// - Throws: `SensorError` naming the call and the path that failed (the directory is missing or not
    ///   writable, the disk is full).
    public func write() throws(SensorError) {
        try Self.writeAtomically(Array(exporter.render().utf8), to: path)
    }

    /// Writes at once, then every ``interval`` until ``stop()``; does nothing if already running.
    ///
    /// - Throws: `SensorError.systemCall(name:target:errno:)` if the timer cannot be created.
    public func start() throws(SensorError) {
        guard state.withLock({ $0.timer == nil }) else { return }
        let timer = try eventLoop.schedule(every: interval) { [weak self] in self?.queueWrite() }
        let keep = state.withLock { state in
            guard state.timer == nil else { return false }
            state.timer = timer
            return true
        }
        if keep { queueWrite() } else { timer.cancel() }
    }

    /// Stops writing; a write in progress finishes. The file stays.
    public func stop() {
        state.withLock { state in
            defer { state.timer = nil }
            return state.timer
        }?.cancel()
    }

    private func queueWrite() {
        let queued = state.withLock { state in
            guard !state.isWriting else { return false }
            state.isWriting = true
            return true
        }
        guard queued else { return }
        queue.async { [weak self] in self?.tick() }
    }

    private func tick() {
        defer { state.withLock { $0.isWriting = false } }
        do {
            try write()
            state.withLock { $0.lastFailure = nil }
        } catch {
            let text = "\(error)"
            let isNew = state.withLock { state in
                defer { state.lastFailure = text }
                return state.lastFailure != text
            }
            if isNew { log("textfile: cannot write \(path): \(text)") }
        }
    }

    /// Writes `bytes` to a temporary file beside `path`, syncs it, and renames it over `path`.
    static func writeAtomically(_ bytes: [UInt8], to path: String) throws(SensorError) {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let temporary = (directory == "/" ? "" : directory) + "/.\(name).\(getpid()).tmp"
        let fd: FileDescriptor
        do {
            fd = FileDescriptor(
                try retryingOnInterrupt("open") { open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) })
        } catch {
            throw SensorError.from(error, call: "open", path: temporary)
        }
        var failure: SensorError?
        do {
            try fd.write(fully: bytes[...])
        } catch {
            failure = SensorError.from(error, call: "write", path: temporary)
        }
        if failure == nil, fsync(fd.rawValue) != 0 {
            failure = SensorError.from(.current, call: "fsync", path: temporary)
        }
        if let error = fd.close(), failure == nil { failure = SensorError.from(error, call: "close", path: temporary) }
        if failure == nil, rename(temporary, path) != 0 {
            failure = SensorError.from(.current, call: "rename", path: path)
        }
        if let failure {
            unlink(temporary)
            throw failure
        }
        // The rename itself is made durable by syncing the directory; a failure here loses nothing already visible.
        let directoryFD = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directoryFD >= 0 {
            _ = fsync(directoryFD)
            close(directoryFD)
        }
    }
}
