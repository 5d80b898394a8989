import CLinuxSupport
import Glibc

/// Thin wrappers over the inotify system calls, under their C names, and the event mask bits Vigil uses.
enum Inotify {
    static let create = UInt32(IN_CREATE)
    static let modify = UInt32(IN_MODIFY)
    static let attributes = UInt32(IN_ATTRIB)
    static let closeWrite = UInt32(IN_CLOSE_WRITE)
    static let delete = UInt32(IN_DELETE)
    static let movedFrom = UInt32(IN_MOVED_FROM)
    static let movedTo = UInt32(IN_MOVED_TO)
    static let deleteSelf = UInt32(IN_DELETE_SELF)
    static let moveSelf = UInt32(IN_MOVE_SELF)
    static let queueOverflow = UInt32(IN_Q_OVERFLOW)
    static let ignored = UInt32(IN_IGNORED)
    static let isDirectory = UInt32(IN_ISDIR)
    static let onlyDirectory = UInt32(IN_ONLYDIR)
    static let excludeUnlinked = UInt32(IN_EXCL_UNLINK)

    /// Every event kind a ``FileSystemMonitor`` reports.
    static let watchMask =
        create | modify | attributes | closeWrite | delete | movedFrom | movedTo | deleteSelf | moveSelf
        | excludeUnlinked

    /// The sysctl that limits watches per user, and where to read its value.
    static let watchLimitName = "fs.inotify.max_user_watches"
    static let watchLimitPath = "/proc/sys/fs/inotify/max_user_watches"
    /// The sysctl that limits inotify instances per user, and where to read its value.
    static let instanceLimitName = "fs.inotify.max_user_instances"
    static let instanceLimitPath = "/proc/sys/fs/inotify/max_user_instances"

    /// Wraps `inotify_init1(2)` with `IN_NONBLOCK | IN_CLOEXEC`.
    static func initialize() throws(Errno) -> FileDescriptor {
        FileDescriptor(try retryingOnInterrupt { inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC)) })
    }

    /// Wraps `inotify_add_watch(2)`; returns the watch descriptor.
    static func addWatch(_ fd: Int32, path: BytePath, mask: UInt32) throws(Errno) -> Int32 {
        try retryingOnInterrupt { path.withCString { inotify_add_watch(fd, $0, mask) } }
    }

    /// Wraps `inotify_rm_watch(2)`; a watch the kernel already removed is not an error.
    static func removeWatch(_ fd: Int32, watchDescriptor: Int32) {
        _ = try? retryingOnInterrupt { inotify_rm_watch(fd, watchDescriptor) }
    }

    /// Maps a failed `inotify_init1`/`inotify_add_watch` to a ``SensorError``, naming the limit for `ENOSPC`/`EMFILE`;
    /// the path appears escaped like `ls -b`.
    static func error(_ errno: Errno, call: String, path bytePath: BytePath) -> SensorError {
        let path = bytePath.description
        switch errno {
        case .noSpace:
            let value = (try? SysfsFile.readInteger(watchLimitPath)) ?? -1
            return .limitReached(name: watchLimitName, value: value, target: path)
        case .tooManyOpenFiles where call == "inotify_init1":
            let value = (try? SysfsFile.readInteger(instanceLimitPath)) ?? -1
            return .limitReached(name: instanceLimitName, value: value, target: path)
        default:
            return SensorError.from(errno, call: call, path: path)
        }
    }
}
