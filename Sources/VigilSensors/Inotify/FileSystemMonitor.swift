import Glibc
import Vigil

/// Watches a file or a directory with inotify and publishes what changes.
///
/// A directory reports changes to its entries (and, with `recursive`, to everything below it, including
/// subdirectories created later: each new directory is watched first and then listed, so files created in it before
/// the watch existed are reported as ``FileSystemEvent/Kind/created`` too, possibly twice). A rename inside the tree
/// arrives as one ``FileSystemEvent/Kind/moved`` event with both paths, even when its two halves come in different
/// reads (an unpaired half waits up to a few milliseconds for the other); a move out or in arrives as deleted or
/// created. Changes to the watched directory itself (its permissions, its timestamps) arrive with its own path.
///
/// Paths are bytes (``BytePath``): names that are not UTF-8 are watched and reported exactly, and two names that
/// differ only in Unicode normalization are two files.
///
/// A single file is watched through its parent directory, so an editor's atomic save (write a temp file, rename it
/// over the original) keeps being reported: as ``FileSystemEvent/Kind/modified`` of the file's path.
///
/// Events are ``SensorEvent``s of ``FileSystemEvent``s, published on the event-loop thread, in kernel order, never
/// under a lock; subscribe with a queue delivery if the consumer is slow. After ``stopMonitoring()`` returns, nothing
/// more is published.
///
/// Problems after the start travel in-band, in the shape every event source shares: an
/// ``SensorEvent/Kind/overflow`` when the kernel dropped events (or a read could not be parsed), after which the
/// consumer must rescan (a recursive monitor re-walks the tree to watch directories created meanwhile); an
/// ``SensorEvent/Kind/unavailable(reason:)`` when a directory inside a recursive watch cannot be watched (the reason
/// names it and the limit to raise: changes below it are not reported). The watched object going away is an event
/// of its own (``FileSystemEvent/Kind/watchedObjectDeleted``, ``FileSystemEvent/Kind/watchRemoved``). The subject is
/// never failed or completed. A monitor that is released stops and closes its inotify descriptor.
public final class FileSystemMonitor: Source {
    /// The watched path, as given (without a trailing slash).
    public let path: BytePath
    /// Whether subdirectories are watched too.
    public let isRecursive: Bool
    /// The events; a `PublishSubject`, since file changes are events, not state.
    public let readings = PublishSubject<SensorEvent<FileSystemEvent>>()

    private let eventLoop: EventLoop
    private let tuning: InotifyTuning
    private let lifecycle = Lifecycle()
    /// The last event published, for ``latest``.
    private let lastEvent = FutexMutex<SensorEvent<FileSystemEvent>?>(nil)

    /// Creates a monitor for `path`, given as bytes; nothing is watched until ``startMonitoring()``.
    ///
    /// - Parameters:
    ///   - path: A file or directory; its name need not be UTF-8.
    ///   - recursive: For a directory, also watch every directory below it.
    ///   - eventLoop: The event loop that reads the inotify descriptor.
    public init(path: BytePath, recursive: Bool = false, eventLoop: EventLoop = .shared) {
        self.path = path.withoutTrailingSlashes
        self.isRecursive = recursive
        self.eventLoop = eventLoop
        self.tuning = .standard
    }

    /// Creates a monitor for `path`; nothing is watched until ``startMonitoring()``.
    ///
    /// - Parameters:
    ///   - path: A file or directory, as text (its UTF-8 bytes are the path).
    ///   - recursive: For a directory, also watch every directory below it.
    ///   - eventLoop: The event loop that reads the inotify descriptor.
    public convenience init(path: String, recursive: Bool = false, eventLoop: EventLoop = .shared) {
        self.init(path: BytePath(path), recursive: recursive, eventLoop: eventLoop)
    }

    /// Creates a monitor that reads as `tuning` says; for tests that split renames across reads.
    package init(path: BytePath, recursive: Bool, eventLoop: EventLoop, tuning: InotifyTuning) {
        self.path = path.withoutTrailingSlashes
        self.isRecursive = recursive
        self.eventLoop = eventLoop
        self.tuning = tuning
    }

    deinit { stopMonitoring() }

    /// "Files (PATH)", the path escaped like `ls -b`.
    public var name: String { "Files (\(path))" }

    /// Available when the path exists and is readable; otherwise says why not.
    public var availability: Availability {
        if !SysfsFile.exists("/proc/sys/fs/inotify") {
            return .unavailable(reason: .kernelLacksInterface, detail: "no inotify (/proc/sys/fs/inotify is missing)")
        }
        do {
            _ = try path.status()
        } catch {
            if error == .permissionDenied {
                return .unavailable(reason: .permissionDenied, detail: "\(path): permission denied")
            }
            return .unavailable(reason: .missingDevice, detail: "\(path): no such file or directory")
        }
        if (try? path.checkReadable()) == nil {
            return .unavailable(reason: .permissionDenied, detail: "\(path): permission denied")
        }
        return .available
    }

    /// Whether the monitor is running (or starting).
    public var isMonitoring: Bool { lifecycle.isRunning }

    /// Starts watching; does nothing if already running.
    ///
    /// The watches are added and directories walked outside the monitor's lock.
    ///
    /// - Throws: ``SensorError/notFound(path:)``, ``SensorError/permissionDenied(path:)``, or
    ///   ``SensorError/limitReached(name:value:target:)`` naming `fs.inotify.max_user_watches` (or
    ///   `max_user_instances`) with its value. A recursive watch that cannot watch every directory fails as a whole.
    public func startMonitoring() throws(SensorError) {
        try lifecycle.start { generation throws(SensorError) in
            let session = try InotifySession(target: try resolveTarget(), eventLoop: eventLoop, tuning: tuning) {
                [weak self] event in self?.deliver(event)
            }
            // A stop that races this start deactivates the session at once, so nothing read before the watch below
            // learns of the stop is published after the stop returned.
            guard lifecycle.keep(generation, release: { session.deactivate() }) else { return session.close() }
            try lifecycle.watch(
                session.fileDescriptor, closing: { session.close() }, on: eventLoop, interest: .readable,
                generation: generation
            ) { _ in session.handleReadable() }
        }
    }

    /// Stops watching; does nothing if not running. May be called from inside a subscriber of ``readings``.
    public func stopMonitoring() { lifecycle.stop() }

    /// The last event published; `nil` before the first. Kept across stop and start.
    public var latest: SensorEvent<FileSystemEvent>? { lastEvent.withLock { $0 } }

    /// Does nothing: file events are relayed as the kernel reports them, and there is no state to re-read. After an
    /// ``SensorEvent/Kind/overflow`` event, rescan the tree yourself.
    public func refresh() {}

    /// Remembers `event` as the latest, then publishes it, on the event-loop thread and never under the lock.
    private func deliver(_ event: SensorEvent<FileSystemEvent>) {
        lastEvent.withLock { $0 = event }
        readings.publish(event)
    }

    private func resolveTarget() throws(SensorError) -> InotifySession.Target {
        let info: stat
        do {
            info = try path.status()
        } catch {
            throw SensorError.from(error, call: "stat", path: path.description)
        }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            return .directory(path: path, recursive: isRecursive)
        }
        do {
            try path.checkReadable()
        } catch {
            throw SensorError.from(error, call: "access", path: path.description)
        }
        let (parent, name) = path.parentAndName
        return .file(path: path, parent: parent, name: name)
    }
}
