/// A change a ``FileSystemMonitor`` saw: the payload of the ``SensorEvent``s it publishes (lost events and parts of
/// the tree that cannot be watched are that event's shared `overflow` and `unavailable` cases).
///
/// Paths are ``BytePath``s: a file whose name is not UTF-8 is reported with its exact bytes, and two names that
/// differ only in Unicode normalization are two different paths.
///
/// As JSON (`Encodable`), an event is an object with `kind`, `path`, `isDirectory`, `time` (RFC 3339, see
/// ``ReadingTime``), and `oldPath` when present. Paths are encoded as ``BytePath`` encodes: a path that is valid UTF-8
/// (the usual case) is a JSON string, its exact text: `"path":"/tmp/a"`; a path that is not is an array of its byte
/// values, as journald writes such a field: `"path":[47,116,109,112,47,99,97,102,233]`. So a JSON string is always
/// the very name, never a look-alike with U+FFFD in place of the bytes it could not hold.
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
        /// The kernel removed the watch on the watched object (it was deleted or its file system unmounted); no more
        /// events follow until the monitor is started again.
        case watchRemoved
    }

    /// What happened.
    public let kind: Kind
    /// The path the event is about (for ``Kind/moved``, the new path).
    public let path: BytePath
    /// For ``Kind/moved`` and ``Kind/watchedObjectMoved``, the path before the move.
    public let oldPath: BytePath?
    /// Whether the entry is a directory.
    public let isDirectory: Bool
    /// When the event was seen: when the inotify read that brought it returned (one time for the events of a read).
    public let time: ReadingTime

    /// Creates an event.
    ///
    /// - Parameters:
    ///   - kind: What happened.
    ///   - path: The path of the object the event is about.
    ///   - oldPath: For a move, the path before it.
    ///   - isDirectory: Whether the object is a directory.
    ///   - time: When the event was seen; now by default.
    public init(
        kind: Kind, path: BytePath, oldPath: BytePath? = nil, isDirectory: Bool = false, time: ReadingTime = .now()
    ) {
        self.kind = kind
        self.path = path
        self.oldPath = oldPath
        self.isDirectory = isDirectory
        self.time = time
    }

    /// One line for people: the kind, then the path (`old -> new` for a move), escaped like `ls -b` so that a name
    /// with a newline or bytes that are not UTF-8 stays on one line and stays distinct.
    public var description: String {
        var line = kind.rawValue + " "
        if let oldPath { line += oldPath.description + " -> " }
        line += path.description
        if isDirectory { line += "/" }
        return line
    }
}

extension SensorEvent where Payload == FileSystemEvent {
    /// The file-system event as a published event, with the event's own time.
    init(_ event: FileSystemEvent) { self.init(.event(event), time: event.time) }
}
