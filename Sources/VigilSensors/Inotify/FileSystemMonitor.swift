import Glibc
import Vigil

/// Watches a file or a directory with inotify and publishes what changes.
///
/// A directory reports changes to its entries (and, with `recursive`, to everything below it, including
/// subdirectories created later: each new directory is watched first and then listed, so files created in it before
/// the watch existed are reported as ``FileSystemEvent/Kind/created`` too, possibly twice). A rename inside the tree
/// arrives as one ``FileSystemEvent/Kind/moved`` event with both paths; a move out or in arrives as deleted or created.
///
/// A single file is watched through its parent directory, so an editor's atomic save (write a temp file, rename it
/// over the original) keeps being reported: as ``FileSystemEvent/Kind/modified`` of the file's path.
///
/// Events are published on the event-loop thread, in kernel order, never under a lock; subscribe with a queue
/// delivery if the consumer is slow. When the kernel drops events, an ``FileSystemEvent/Kind/overflow`` event says
/// the consumer must rescan. After ``stopMonitoring()`` returns, nothing more is published.
public final class FileSystemMonitor: Source {
    /// The watched path, as given (without a trailing slash).
    public let path: String
    /// Whether subdirectories are watched too.
    public let isRecursive: Bool
    /// The events; a `PublishSubject`, since file changes are events, not state.
    public let readings = PublishSubject<FileSystemEvent>()

    private let loop: EventLoop
    private let running = Mutex<Running?>(nil)

    private struct Running {
        let session: InotifySession
        let registration: EventLoop.Registration
    }

    /// Creates a monitor for `path`; nothing is watched until ``startMonitoring()``.
    ///
    /// - Parameters:
    ///   - path: A file or directory.
    ///   - recursive: For a directory, also watch every directory below it.
    ///   - loop: The event loop that reads the inotify descriptor.
    public init(path: String, recursive: Bool = false, loop: EventLoop = .shared) {
        var normalized = path
        while normalized.count > 1 && normalized.hasSuffix("/") { normalized.removeLast() }
        self.path = normalized
        self.isRecursive = recursive
        self.loop = loop
    }

    public var name: String { "Files (\(path))" }

    /// Available when the path exists and is readable; otherwise says why not.
    public var availability: Availability {
        if !SysfsFile.exists("/proc/sys/fs/inotify") {
            return .unavailable(reason: .kernelLacksInterface, detail: "no inotify (/proc/sys/fs/inotify is missing)")
        }
        if !SysfsFile.exists(path) {
            if Errno.current == .permissionDenied {
                return .unavailable(reason: .permissionDenied, detail: "\(path): permission denied")
            }
            return .unavailable(reason: .missingDevice, detail: "\(path): no such file or directory")
        }
        if access(path, R_OK) != 0 {
            return .unavailable(reason: .permissionDenied, detail: "\(path): permission denied")
        }
        return .available
    }

    public var isMonitoring: Bool { running.withLock { $0 != nil } }

    /// Starts watching; does nothing if already running.
    ///
    /// - Throws: ``SensorError/notFound(path:)``, ``SensorError/permissionDenied(path:)``, or
    ///   ``SensorError/limitReached(name:value:target:)`` naming `fs.inotify.max_user_watches` (or
    ///   `max_user_instances`) with its value. A recursive watch that cannot watch every directory fails as a whole.
    public func startMonitoring() throws {
        try running.withLock { (running) throws(SensorError) in
            guard running == nil else { return }
            let target = try resolveTarget()
            let subject = readings
            let session = try InotifySession(target: target) { subject.publish($0) }
            do throws(SensorError) {
                let registration = try loop.register(fileDescriptor: session.fileDescriptor, interest: .readable) {
                    [session] _ in session.handleReadable()
                }
                running = Running(session: session, registration: registration)
            } catch {
                session.close()
                throw error
            }
        }
    }

    /// Stops watching; does nothing if not running. May be called from inside a subscriber of ``readings``.
    public func stopMonitoring() {
        guard let stopped = running.withLock({ running in running.take() }) else { return }
        stopped.session.deactivate()
        stopped.registration.cancel()
        stopped.session.close()
    }

    private func resolveTarget() throws(SensorError) -> InotifySession.Target {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw SensorError.from(.current, call: "stat", path: path)
        }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            return .directory(path: path, recursive: isRecursive)
        }
        guard access(path, R_OK) == 0 else { throw SensorError.from(.current, call: "access", path: path) }
        let slash = path.lastIndex(of: "/")
        let parent = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        return .file(path: path, parent: parent, name: name)
    }
}
