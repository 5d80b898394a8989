/// Turns inotify records into ``FileSystemEvent``s: the decisions of an ``InotifySession``, made under its lock and
/// without a system call.
///
/// A record goes in and the session gets back the system calls to make (watch a new directory, unwatch one that left
/// the tree); it makes them after the lock and reports the results with ``watched(_:path:isRoot:)`` and
/// ``append(_:)``. Decided events wait in order until ``takeReleasable()``.
///
/// A rename arrives as `IN_MOVED_FROM` and `IN_MOVED_TO` with one cookie, and the two can fall in different reads.
/// So an `IN_MOVED_FROM` without its other half holds back its own event and every later one: the other half may be
/// in the next read. Only ``expireMoves(readThrough:)`` (the session's deadline) or an overflow decides that it was a
/// move out of the tree, reported as ``FileSystemEvent/Kind/deleted``.
struct InotifyTranslator: Sendable {
    /// What is watched: a directory (optionally recursive) or a single file through its parent directory.
    enum Target: Sendable {
        case directory(path: BytePath, recursive: Bool)
        /// A file is watched through its parent, filtered by name, so that a rename over it (atomic save) is seen.
        case file(path: BytePath, parent: BytePath, name: BytePath)

        /// The directory whose watch is the root: the directory itself, or the file's parent.
        var rootPath: BytePath {
            switch self {
            case .directory(let path, _): return path
            case .file(_, let parent, _): return parent
            }
        }

        var isRecursive: Bool {
            if case .directory(_, true) = self { return true }
            return false
        }
    }

    /// A system call for the session to make after the lock.
    enum Action: Equatable, Sendable {
        /// Watch `directory` (and, for a recursive target, every directory below it); with `report`, list its
        /// entries as created.
        case watch(directory: BytePath, isRoot: Bool, report: Bool)
        /// Remove these watches: their directories left the tree.
        case unwatch([Int32])
    }

    private struct PendingMove {
        /// Where the move's event waits in `events`.
        var index: Int
        let path: BytePath
        let isDirectory: Bool
        /// The read that brought the `IN_MOVED_FROM`.
        let read: UInt64
    }

    let target: Target
    private(set) var table = InotifyWatchTable()
    private(set) var rootWatch: Int32 = -1
    /// The number of reads begun; see ``beginRead(at:)``.
    private(set) var reads: UInt64 = 0
    /// When the current read returned: the time of the events it brings (a move, of the read that completed it).
    private(set) var readTime = ReadingTime.now()
    private var events: [SensorEvent<FileSystemEvent>] = []
    private var pending: [UInt32: PendingMove] = [:]

    init(target: Target) { self.target = target }

    /// Whether an `IN_MOVED_FROM` still waits for its other half.
    var hasPendingMoves: Bool { !pending.isEmpty }

    /// Marks the start of the records of one more read, which returned at `time`.
    mutating func beginRead(at time: ReadingTime = .now()) {
        reads += 1
        readTime = time
    }

    /// Records that `watchDescriptor` watches `path`.
    mutating func watched(_ watchDescriptor: Int32, path: BytePath, isRoot: Bool) {
        table.insert(watchDescriptor, path: path)
        if isRoot { rootWatch = watchDescriptor }
    }

    /// Appends an event decided outside a record (an entry found by listing a new directory, a failed watch).
    mutating func append(_ event: SensorEvent<FileSystemEvent>) { events.append(event) }

    /// The decided events that no pending move holds back, in order; they leave the translator.
    mutating func takeReleasable() -> [SensorEvent<FileSystemEvent>] {
        let end = pending.values.map(\.index).min() ?? events.count
        let released = Array(events[..<end])
        events.removeFirst(end)
        for cookie in pending.keys { pending[cookie]?.index -= end }
        return released
    }

    /// Decides that every `IN_MOVED_FROM` of read `read` or before whose other half has not come was a move out of the
    /// tree: its event stays ``FileSystemEvent/Kind/deleted`` (or ``FileSystemEvent/Kind/watchedObjectMoved``), and
    /// the watches below a directory that left are removed.
    mutating func expireMoves(readThrough read: UInt64) -> [Action] {
        var removed: [Int32] = []
        for (cookie, move) in pending where move.read <= read {
            pending[cookie] = nil
            guard move.isDirectory && target.isRecursive else { continue }
            for watchDescriptor in table.watchDescriptors(under: move.path) {
                table.remove(watchDescriptor)
                removed.append(watchDescriptor)
            }
        }
        return removed.isEmpty ? [] : [.unwatch(removed)]
    }

    /// Translates one record; returns the system calls to make before the next record.
    mutating func translate(_ record: InotifyEvent) -> [Action] {
        if record.mask & Inotify.queueOverflow != 0 {
            // Events after the overflow were lost, the other halves of pending moves with them.
            var actions = expireMoves(readThrough: .max)
            events.append(SensorEvent(.overflow, time: readTime))
            // Directories created during the loss have no watch yet: walk the tree again to add them.
            if case .directory(let path, true) = target {
                actions.append(.watch(directory: path, isRoot: true, report: false))
            }
            return actions
        }
        guard let directory = table[record.watchDescriptor] else { return [] }
        let isRoot = record.watchDescriptor == rootWatch
        if record.mask & Inotify.ignored != 0 {
            table.remove(record.watchDescriptor)
            if isRoot {
                events.append(SensorEvent(FileSystemEvent(kind: .watchRemoved, path: target.rootPath, time: readTime)))
            }
            return []
        }
        if record.name.isEmpty {
            // The watched directory itself; a subdirectory's own changes are reported by its parent's watch.
            if isRoot, case .directory(let path, _) = target { translateRootRecord(record, path: path) }
            return []
        }
        let path = directory.appending(record.name)
        switch target {
        case .file(let filePath, _, let name):
            translateFileRecord(record, path: path, filePath: filePath, isWatchedName: record.name == name)
            return []
        case .directory(_, let recursive):
            return translateDirectoryRecord(record, path: path, recursive: recursive)
        }
    }

    private mutating func translateRootRecord(_ record: InotifyEvent, path: BytePath) {
        if record.mask & Inotify.deleteSelf != 0 {
            events.append(
                SensorEvent(FileSystemEvent(kind: .watchedObjectDeleted, path: path, isDirectory: true, time: readTime))
            )
        } else if record.mask & Inotify.moveSelf != 0 {
            events.append(
                SensorEvent(FileSystemEvent(kind: .watchedObjectMoved, path: path, isDirectory: true, time: readTime)))
        } else if let kind = Self.contentKind(record.mask) {
            events.append(SensorEvent(FileSystemEvent(kind: kind, path: path, isDirectory: true, time: readTime)))
        }
    }

    private mutating func translateDirectoryRecord(
        _ record: InotifyEvent, path: BytePath, recursive: Bool
    ) -> [Action] {
        let mask = record.mask
        let isDirectory = mask & Inotify.isDirectory != 0
        if mask & Inotify.movedFrom != 0 {
            pending[record.cookie] = PendingMove(
                index: events.count, path: path, isDirectory: isDirectory, read: reads)
            events.append(
                SensorEvent(FileSystemEvent(kind: .deleted, path: path, isDirectory: isDirectory, time: readTime)))
        } else if mask & Inotify.movedTo != 0, let move = pending.removeValue(forKey: record.cookie) {
            events[move.index] = SensorEvent(
                FileSystemEvent(
                    kind: .moved, path: path, oldPath: move.path, isDirectory: isDirectory, time: readTime))
            if recursive && isDirectory { table.rename(move.path, to: path) }
        } else if mask & (Inotify.create | Inotify.movedTo) != 0 {
            events.append(
                SensorEvent(FileSystemEvent(kind: .created, path: path, isDirectory: isDirectory, time: readTime)))
            if recursive && isDirectory { return [.watch(directory: path, isRoot: false, report: true)] }
        } else if mask & Inotify.delete != 0 {
            events.append(
                SensorEvent(FileSystemEvent(kind: .deleted, path: path, isDirectory: isDirectory, time: readTime)))
        } else if let kind = Self.contentKind(mask) {
            events.append(
                SensorEvent(FileSystemEvent(kind: kind, path: path, isDirectory: isDirectory, time: readTime)))
        }
        return []
    }

    private mutating func translateFileRecord(
        _ record: InotifyEvent, path: BytePath, filePath: BytePath, isWatchedName: Bool
    ) {
        let mask = record.mask
        if mask & Inotify.movedFrom != 0 {
            // The watched file renamed away: where to is known once the other half comes.
            if isWatchedName {
                pending[record.cookie] = PendingMove(index: events.count, path: path, isDirectory: false, read: reads)
                events.append(SensorEvent(FileSystemEvent(kind: .watchedObjectMoved, path: filePath, time: readTime)))
            }
            return
        }
        if mask & Inotify.movedTo != 0, let move = pending.removeValue(forKey: record.cookie) {
            events[move.index] = SensorEvent(
                FileSystemEvent(
                    kind: .watchedObjectMoved, path: path, oldPath: filePath, time: readTime))
        }
        guard isWatchedName else { return }
        if mask & Inotify.movedTo != 0 {
            // Another file renamed over the watched one: an editor's atomic save.
            events.append(SensorEvent(FileSystemEvent(kind: .modified, path: filePath, time: readTime)))
        } else if mask & Inotify.create != 0 {
            events.append(SensorEvent(FileSystemEvent(kind: .created, path: filePath, time: readTime)))
        } else if mask & Inotify.delete != 0 {
            events.append(SensorEvent(FileSystemEvent(kind: .watchedObjectDeleted, path: filePath, time: readTime)))
        } else if let kind = Self.contentKind(mask) {
            events.append(SensorEvent(FileSystemEvent(kind: kind, path: filePath, time: readTime)))
        }
    }

    private static func contentKind(_ mask: UInt32) -> FileSystemEvent.Kind? {
        if mask & Inotify.modify != 0 { return .modified }
        if mask & Inotify.attributes != 0 { return .attributesChanged }
        if mask & Inotify.closeWrite != 0 { return .closedAfterWrite }
        return nil
    }
}
