/// A change a ``FileSystemMonitor`` saw.
public struct FileSystemEvent: Hashable, Sendable, Encodable, CustomStringConvertible {
    /// What happened.
    public enum Kind: String, Hashable, Sendable, Encodable, CaseIterable {
        /// An entry was created, or moved in from outside the watched tree.
        case created
        /// A file's content changed. For a single watched file, also: another file was renamed over it (an
        /// editor's atomic save).
        case modified
        /// Permissions, ownership, timestamps or extended attributes changed.
        case attributesChanged
        /// A file opened for writing was closed: a good moment to read it.
        case closedAfterWrite
        /// An entry was deleted, or moved out of the watched tree.
        case deleted
        /// An entry was renamed inside the watched tree; ``FileSystemEvent/oldPath`` holds where it was.
        case moved
        /// The watched file or directory itself was deleted.
        case watchedObjectDeleted
        /// The watched file or directory itself was moved; ``FileSystemEvent/path`` is its new path if known.
        case watchedObjectMoved
        /// The kernel's event queue overflowed and events were lost: the consumer must rescan the tree.
        case overflow
        /// The kernel removed the watch on the watched object (it was deleted or its file system unmounted); no more
        /// events follow until the monitor is started again.
        case watchRemoved
        /// A directory inside a recursive watch could not be watched (see ``FileSystemEvent/detail``, for example the
        /// watch limit): changes below ``FileSystemEvent/path`` are not reported.
        case watchFailed
    }

    /// What happened.
    public let kind: Kind
    /// The path the event is about (for ``Kind/moved``, the new path).
    public let path: String
    /// For ``Kind/moved`` and ``Kind/watchedObjectMoved``, the path before the move.
    public let oldPath: String?
    /// Whether the entry is a directory.
    public let isDirectory: Bool
    /// A human explanation for ``Kind/overflow`` and ``Kind/watchFailed``.
    public let detail: String?

    public init(kind: Kind, path: String, oldPath: String? = nil, isDirectory: Bool = false, detail: String? = nil) {
        self.kind = kind
        self.path = path
        self.oldPath = oldPath
        self.isDirectory = isDirectory
        self.detail = detail
    }

    public var description: String {
        var line = kind.rawValue + " "
        if let oldPath { line += oldPath + " -> " }
        line += path
        if isDirectory { line += "/" }
        if let detail { line += ": " + detail }
        return line
    }
}
