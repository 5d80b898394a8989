import Glibc

/// The type of a file system object, from the `S_IFMT` bits of its `st_mode`, named as `ls -l` users know it.
enum FileKind: Equatable, Sendable, CustomStringConvertible {
    case regular, directory, fifo, characterDevice, blockDevice, socket, symbolicLink, other

    /// The kind described by `mode`, a `stat(2)` `st_mode`.
    init(mode: mode_t) {
        switch mode & S_IFMT {
        case S_IFREG: self = .regular
        case S_IFDIR: self = .directory
        case S_IFIFO: self = .fifo
        case S_IFCHR: self = .characterDevice
        case S_IFBLK: self = .blockDevice
        case S_IFSOCK: self = .socket
        case S_IFLNK: self = .symbolicLink
        default: self = .other
        }
    }

    /// The kind of the open file `descriptor`. Wraps `fstat(2)`.
    ///
    /// - Throws: The call's ``Errno``.
    static func of(descriptor: Int32) throws(Errno) -> FileKind {
        var info = stat()
        _ = try retryingOnInterrupt { fstat(descriptor, &info) }
        return FileKind(mode: info.st_mode)
    }

    /// The kind of what `path` names, following symbolic links. Wraps `stat(2)`.
    ///
    /// - Throws: The call's ``Errno`` (`ENOENT`, `ELOOP`, …).
    static func of(path: String) throws(Errno) -> FileKind {
        var info = stat()
        _ = try retryingOnInterrupt { stat(path, &info) }
        return FileKind(mode: info.st_mode)
    }

    /// For example `"FIFO"` or `"character device"`, as in "… is a FIFO, not an attribute file".
    var description: String {
        switch self {
        case .regular: return "regular file"
        case .directory: return "directory"
        case .fifo: return "FIFO"
        case .characterDevice: return "character device"
        case .blockDevice: return "block device"
        case .socket: return "socket"
        case .symbolicLink: return "symbolic link"
        case .other: return "special file"
        }
    }
}
