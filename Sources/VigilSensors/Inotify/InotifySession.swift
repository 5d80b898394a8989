import Glibc
import Synchronization

/// One running watch of a ``FileSystemMonitor``: the inotify descriptor, its watches, and the translation of kernel
/// records into ``FileSystemEvent``s. A new session is made for every start.
final class InotifySession: Sendable {
    /// What is watched: a directory (optionally recursive) or a single file through its parent directory.
    enum Target: Sendable {
        case directory(path: String, recursive: Bool)
        /// A file is watched through its parent, filtered by name, so that a rename over it (atomic save) is seen.
        case file(path: String, parent: String, name: String)

        var rootPath: String {
            switch self {
            case .directory(let path, _): return path
            case .file(_, let parent, _): return parent
            }
        }
    }

    private struct PendingMove {
        let index: Int
        let path: String
        let isDirectory: Bool
    }

    private struct State {
        var table = InotifyWatchTable()
        var rootWatch: Int32 = -1
    }

    let target: Target
    private let descriptor: FileDescriptor
    private let active = Atomic<Bool>(true)
    private let state = Mutex(State())
    private let publish: @Sendable (FileSystemEvent) -> Void
    private static let readSize = 64 * 1024
    private static let maximumReadsPerWake = 16

    /// Opens an inotify instance and adds the watches for `target`.
    ///
    /// - Throws: A ``SensorError``: missing path, permission, or a limit reached (with the limit's name and value).
    init(target: Target, publish: @escaping @Sendable (FileSystemEvent) -> Void) throws(SensorError) {
        self.target = target
        self.publish = publish
        do {
            descriptor = try Inotify.initialize()
        } catch {
            throw Inotify.error(error, call: "inotify_init1", path: target.rootPath)
        }
        do {
            try addInitialWatches()
        } catch {
            descriptor.close()
            throw error
        }
    }

    var fileDescriptor: Int32 { descriptor.rawValue }

    /// Makes the session publish nothing more and closes its descriptor (which removes every watch).
    ///
    /// Call it after the loop registration is cancelled, or from inside ``handleReadable()``.
    func close() {
        active.store(false, ordering: .releasing)
        descriptor.close()
    }

    /// Makes the session publish nothing more; the descriptor stays open until ``close()``.
    func deactivate() { active.store(false, ordering: .releasing) }

    private var isActive: Bool { active.load(ordering: .acquiring) }

    private func addInitialWatches() throws(SensorError) {
        var failures: [(String, SensorError)] = []
        var events: [FileSystemEvent] = []
        state.withLock { state in
            switch target {
            case .directory(let path, let recursive):
                watchTree(
                    path, isRoot: true, recursive: recursive, report: false, stopOnFailure: true,
                    state: &state, events: &events, failures: &failures)
            case .file(_, let parent, _):
                watchTree(
                    parent, isRoot: true, recursive: false, report: false, stopOnFailure: true,
                    state: &state, events: &events, failures: &failures)
            }
        }
        if let (_, error) = failures.first { throw error }
    }

    /// Reads and publishes everything pending; runs on the event-loop thread.
    func handleReadable() {
        guard isActive else { return }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.readSize, alignment: 8)
        defer { buffer.deallocate() }
        var records: [InotifyEvent] = []
        var malformed: SensorError?
        reading: for _ in 0..<Self.maximumReadsPerWake {
            guard isActive else { return }
            let count: Int
            do {
                count = try retryingOnInterrupt { read(descriptor.rawValue, buffer.baseAddress, buffer.count) }
            } catch {
                break reading
            }
            if count == 0 { break }
            do {
                records += try InotifyEvent.parse(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            } catch {
                malformed = error
                break reading
            }
        }
        var events = state.withLock { translate(records, state: &$0) }
        if let malformed {
            events.append(FileSystemEvent(kind: .overflow, path: target.rootPath, detail: malformed.description))
        }
        for event in events {
            guard isActive else { return }
            publish(event)
        }
    }

    // MARK: - Translation

    private func translate(_ records: [InotifyEvent], state: inout State) -> [FileSystemEvent] {
        var events: [FileSystemEvent] = []
        var pending: [UInt32: PendingMove] = [:]
        for record in records {
            if record.mask & Inotify.queueOverflow != 0 {
                events.append(
                    FileSystemEvent(
                        kind: .overflow, path: target.rootPath,
                        detail: "the kernel dropped events (fs.inotify.max_queued_events); rescan"))
                continue
            }
            guard let directory = state.table[record.watchDescriptor] else { continue }
            let isRoot = record.watchDescriptor == state.rootWatch
            if record.mask & Inotify.ignored != 0 {
                state.table.remove(record.watchDescriptor)
                if isRoot { events.append(FileSystemEvent(kind: .watchRemoved, path: target.rootPath)) }
                continue
            }
            if record.name.isEmpty {
                if isRoot, case .directory(let path, _) = target {
                    if record.mask & Inotify.deleteSelf != 0 {
                        events.append(FileSystemEvent(kind: .watchedObjectDeleted, path: path, isDirectory: true))
                    } else if record.mask & Inotify.moveSelf != 0 {
                        events.append(FileSystemEvent(kind: .watchedObjectMoved, path: path, isDirectory: true))
                    }
                }
                continue
            }
            let path = Self.join(directory, record.name)
            let isDirectory = record.mask & Inotify.isDirectory != 0
            switch target {
            case .file(let filePath, _, let name):
                translateFileRecord(
                    record, path: path, filePath: filePath, isWatchedName: record.name == name,
                    events: &events, pending: &pending)
            case .directory(_, let recursive):
                translateDirectoryRecord(
                    record, path: path, isDirectory: isDirectory, recursive: recursive,
                    state: &state, events: &events, pending: &pending)
            }
        }
        // A move whose other half never came went out of the tree: it stays "deleted"; stop watching below it.
        for move in pending.values where move.isDirectory {
            for watchDescriptor in state.table.watchDescriptors(under: move.path) {
                Inotify.removeWatch(descriptor.rawValue, watchDescriptor: watchDescriptor)
                state.table.remove(watchDescriptor)
            }
        }
        return events
    }

    private func translateDirectoryRecord(
        _ record: InotifyEvent, path: String, isDirectory: Bool, recursive: Bool, state: inout State,
        events: inout [FileSystemEvent], pending: inout [UInt32: PendingMove]
    ) {
        let mask = record.mask
        if mask & Inotify.movedFrom != 0 {
            pending[record.cookie] = PendingMove(index: events.count, path: path, isDirectory: isDirectory)
            events.append(FileSystemEvent(kind: .deleted, path: path, isDirectory: isDirectory))
        } else if mask & Inotify.movedTo != 0, let move = pending.removeValue(forKey: record.cookie) {
            events[move.index] = FileSystemEvent(kind: .moved, path: path, oldPath: move.path, isDirectory: isDirectory)
            if recursive && isDirectory { state.table.rename(move.path, to: path) }
        } else if mask & (Inotify.create | Inotify.movedTo) != 0 {
            events.append(FileSystemEvent(kind: .created, path: path, isDirectory: isDirectory))
            if recursive && isDirectory {
                var failures: [(String, SensorError)] = []
                watchTree(
                    path, isRoot: false, recursive: true, report: true, stopOnFailure: false,
                    state: &state, events: &events, failures: &failures)
                for (directory, error) in failures {
                    events.append(
                        FileSystemEvent(
                            kind: .watchFailed, path: directory, isDirectory: true, detail: error.description))
                }
            }
        } else if mask & Inotify.delete != 0 {
            events.append(FileSystemEvent(kind: .deleted, path: path, isDirectory: isDirectory))
        } else if let kind = Self.contentKind(mask) {
            events.append(FileSystemEvent(kind: kind, path: path, isDirectory: isDirectory))
        }
    }

    private func translateFileRecord(
        _ record: InotifyEvent, path: String, filePath: String, isWatchedName: Bool,
        events: inout [FileSystemEvent], pending: inout [UInt32: PendingMove]
    ) {
        let mask = record.mask
        if mask & Inotify.movedFrom != 0 {
            // Remember every name: the watched file may be renamed away, or a temp file renamed over it.
            pending[record.cookie] = PendingMove(index: events.count, path: path, isDirectory: false)
            if isWatchedName { events.append(FileSystemEvent(kind: .watchedObjectMoved, path: filePath)) }
            return
        }
        if mask & Inotify.movedTo != 0, let move = pending.removeValue(forKey: record.cookie),
            move.path == filePath
        {
            events[move.index] = FileSystemEvent(kind: .watchedObjectMoved, path: path, oldPath: filePath)
        }
        guard isWatchedName else { return }
        if mask & Inotify.movedTo != 0 {
            events.append(FileSystemEvent(kind: .modified, path: filePath))
        } else if mask & Inotify.create != 0 {
            events.append(FileSystemEvent(kind: .created, path: filePath))
        } else if mask & Inotify.delete != 0 {
            events.append(FileSystemEvent(kind: .watchedObjectDeleted, path: filePath))
        } else if let kind = Self.contentKind(mask) {
            events.append(FileSystemEvent(kind: kind, path: filePath))
        }
    }

    private static func contentKind(_ mask: UInt32) -> FileSystemEvent.Kind? {
        if mask & Inotify.modify != 0 { return .modified }
        if mask & Inotify.attributes != 0 { return .attributesChanged }
        if mask & Inotify.closeWrite != 0 { return .closedAfterWrite }
        return nil
    }

    // MARK: - Watching

    /// Watches `directory` and, if `recursive`, every directory below it; adds the watch before listing, so an entry
    /// created meanwhile is either listed or reported by the new watch. With `report`, lists entries as created.
    private func watchTree(
        _ directory: String, isRoot: Bool, recursive: Bool, report: Bool, stopOnFailure: Bool, state: inout State,
        events: inout [FileSystemEvent], failures: inout [(String, SensorError)]
    ) {
        let mask = Inotify.watchMask | Inotify.onlyDirectory | (isRoot ? 0 : UInt32(IN_DONT_FOLLOW))
        let watchDescriptor: Int32
        do {
            watchDescriptor = try Inotify.addWatch(descriptor.rawValue, path: directory, mask: mask)
        } catch {
            // A directory that vanished before its watch was added is no failure: its deletion was reported.
            if isRoot || (error != .noSuchFileOrDirectory && error != .notDirectory) {
                failures.append((directory, Inotify.error(error, call: "inotify_add_watch", path: directory)))
            }
            return
        }
        state.table.insert(watchDescriptor, path: directory)
        if isRoot { state.rootWatch = watchDescriptor }
        guard recursive || report, let names = try? SysfsFile.listDirectory(directory) else { return }
        for name in names {
            let child = Self.join(directory, name)
            let isDirectory = Self.isRealDirectory(child)
            if report { events.append(FileSystemEvent(kind: .created, path: child, isDirectory: isDirectory)) }
            if recursive && isDirectory {
                watchTree(
                    child, isRoot: false, recursive: true, report: report, stopOnFailure: stopOnFailure,
                    state: &state, events: &events, failures: &failures)
                if stopOnFailure && !failures.isEmpty { return }
            }
        }
    }

    private static func isRealDirectory(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }
}
