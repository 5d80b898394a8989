/// A change a ``FileSystemMonitor`` saw: the payload of the ``SensorEvent``s it publishes (lost events and parts of
/// the tree that cannot be watched are that event's shared `overflow` and `unavailable` cases).
///
/// Paths are ``BytePath``s: a file whose name is not UTF-8 is reported with its exact bytes, and two names that
/// differ only in Unicode normalization are two different paths.
///
/// As JSON (`Encodable`), an event is an object with `kind`, `path`, `isDirectory`, `time` (RFC 3339, see
/// ``ReadingTime``), and `oldPath` when present. A path is a JSON string: its exact text when it is valid UTF-8 (the usual case, so `"path":"/tmp/a"`).
/// When it is not, the string is only for display (each invalid sequence becomes U+FFFD) and a parallel field,
/// `pathBytes` (or `oldPathBytes`), holds the path's exact bytes in standard base64 (RFC 4648, with padding): a reader
/// that needs the real path decodes that field whenever it is present. Either way the line is valid JSON and nothing
/// is lost.
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

    private enum CodingKeys: String, CodingKey {
        case kind, path, pathBytes, oldPath, oldPathBytes, isDirectory, time
    }

    /// Encodes the event as described in the type's discussion: `pathBytes`/`oldPathBytes` appear only for a path
    /// that is not valid UTF-8.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encode(path.lossyString, forKey: .path)
        if !path.isValidUTF8 { try container.encode(path.base64, forKey: .pathBytes) }
        if let oldPath {
            try container.encode(oldPath.lossyString, forKey: .oldPath)
            if !oldPath.isValidUTF8 { try container.encode(oldPath.base64, forKey: .oldPathBytes) }
        }
        try container.encode(isDirectory, forKey: .isDirectory)
        try container.encode(time, forKey: .time)
    }
}

extension SensorEvent where Payload == FileSystemEvent {
    /// The file-system event as a published event, with the event's own time.
    init(_ event: FileSystemEvent) { self.init(.event(event), time: event.time) }
}
