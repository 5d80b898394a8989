import CLinuxSupport
import Glibc

/// An error number returned by a Linux system call.
///
/// Named members cover the values Vigil handles on purpose; any other value is kept as its raw number and described
/// with `strerror(3)`.
public struct Errno: Error, Hashable, Sendable, CustomStringConvertible {
    /// The raw `errno` value.
    public let rawValue: Int32

    /// Creates an error from a raw `errno` value.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The calling thread's current `errno`.
    package static var current: Errno { Errno(rawValue: vigil_errno()) }

    /// `EPERM`: operation not permitted.
    public static let notPermitted = Errno(rawValue: EPERM)
    /// `ENOENT`: no such file or directory.
    public static let noSuchFileOrDirectory = Errno(rawValue: ENOENT)
    /// `EINTR`: interrupted by a signal.
    public static let interrupted = Errno(rawValue: EINTR)
    /// `EIO`: input/output error.
    public static let ioError = Errno(rawValue: EIO)
    /// `ENXIO`: no such device or address.
    public static let noSuchDeviceOrAddress = Errno(rawValue: ENXIO)
    /// `EBADF`: bad file descriptor.
    public static let badFileDescriptor = Errno(rawValue: EBADF)
    /// `EAGAIN`: resource temporarily unavailable (also `EWOULDBLOCK`).
    public static let wouldBlock = Errno(rawValue: EAGAIN)
    /// `ENOMEM`: out of memory.
    public static let noMemory = Errno(rawValue: ENOMEM)
    /// `EACCES`: permission denied.
    public static let permissionDenied = Errno(rawValue: EACCES)
    /// `EFAULT`: bad address.
    public static let badAddress = Errno(rawValue: EFAULT)
    /// `EBUSY`: device or resource busy.
    public static let busy = Errno(rawValue: EBUSY)
    /// `EEXIST`: file exists.
    public static let fileExists = Errno(rawValue: EEXIST)
    /// `ENODEV`: no such device.
    public static let noSuchDevice = Errno(rawValue: ENODEV)
    /// `ENOTDIR`: not a directory.
    public static let notDirectory = Errno(rawValue: ENOTDIR)
    /// `EISDIR`: is a directory.
    public static let isDirectory = Errno(rawValue: EISDIR)
    /// `EINVAL`: invalid argument.
    public static let invalidArgument = Errno(rawValue: EINVAL)
    /// `EMFILE`: too many open files in this process.
    public static let tooManyOpenFiles = Errno(rawValue: EMFILE)
    /// `ENOSPC`: no space left (for inotify: the watch limit is reached).
    public static let noSpace = Errno(rawValue: ENOSPC)
    /// `ENOBUFS`: no buffer space (for netlink: the kernel dropped messages).
    public static let noBufferSpace = Errno(rawValue: ENOBUFS)
    /// `ECANCELED`: operation canceled (for timerfd: the clock was set).
    public static let canceled = Errno(rawValue: ECANCELED)
    /// `EOPNOTSUPP`: operation not supported.
    public static let notSupported = Errno(rawValue: EOPNOTSUPP)
    /// `EPROTONOSUPPORT`: protocol not supported.
    public static let protocolNotSupported = Errno(rawValue: EPROTONOSUPPORT)
    /// `ENODATA`: no data available.
    public static let noData = Errno(rawValue: ENODATA)

    /// The C name and `strerror(3)` text, for example `ENOENT (No such file or directory)`.
    ///
    /// A number Linux does not define is shown as itself: `errno 200 (Unknown error 200)`.
    public var description: String {
        let text = String(cString: strerror(rawValue))
        return "\(name ?? "errno \(rawValue)") (\(text))"
    }
}
