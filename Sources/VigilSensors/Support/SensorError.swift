/// What went wrong in a source, said in words a user can act on.
///
/// Every case names the path, interface or device involved. A stream's failure carries a `SensorError` as its
/// `any Error`.
public enum SensorError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The path does not exist (a missing device, a mistyped path).
    case notFound(path: String)
    /// The process may not read or write the path.
    case permissionDenied(path: String)
    /// A file or attribute held text that could not be parsed as what it should be.
    case malformedValue(path: String, text: String, expected: String)
    /// A value parsed but lies outside what the kernel documents for it.
    case valueOutOfRange(path: String, value: String, range: String)
    /// The device or object went away while it was being read.
    case vanished(path: String)
    /// A kernel message (netlink, inotify, IIO scan) was truncated or malformed.
    case malformedMessage(source: String, reason: String)
    /// A kernel limit was reached; `name` is the tunable to raise, for example `fs.inotify.max_user_watches`.
    case limitReached(name: String, value: Int, target: String)
    /// This kernel or machine lacks the interface the source needs.
    case unsupported(interface: String, reason: String)
    /// The source is not available on this machine; `reason` says why.
    case unavailable(source: String, reason: String)
    /// A system call failed for a reason not covered above.
    case systemCall(name: String, target: String, errno: Errno)
    /// The path is not the kind of file the source reads: a FIFO, a device or a directory where an attribute should
    /// be, or a regular file where a character device should be. `found` and `expected` are in words, for example
    /// `"FIFO"` and `"an attribute file"`.
    case wrongFileType(path: String, found: String, expected: String)
    /// The file holds more than `limit` bytes, more than such a file ever holds; it is not parsed at all rather than
    /// parsed truncated.
    case fileTooLarge(path: String, limit: Int)
    /// A value given to the library is not acceptable: `name` is the parameter or property, `value` what was given,
    /// `reason` what is wrong (for example an update interval of zero, or one for a source that does not poll).
    case invalidArgument(name: String, value: String, reason: String)

    public var description: String {
        switch self {
        case .notFound(let path):
            return "\(path): no such file or directory"
        case .permissionDenied(let path):
            return "\(path): permission denied"
        case .malformedValue(let path, let text, let expected):
            return "\(path): cannot parse \(Self.quoted(text)) as \(expected)"
        case .valueOutOfRange(let path, let value, let range):
            return "\(path): value \(value) is outside \(range)"
        case .vanished(let path):
            return "\(path): the device or file went away"
        case .malformedMessage(let source, let reason):
            return "\(source): malformed message: \(reason)"
        case .limitReached(let name, let value, let target):
            return "\(target): the limit \(name) = \(value) is reached; raise it with sysctl"
        case .unsupported(let interface, let reason):
            return "\(interface) is not supported here: \(reason)"
        case .unavailable(let source, let reason):
            return "\(source) is unavailable: \(reason)"
        case .systemCall(let name, let target, let errno):
            return "\(name)(\(target)) failed: \(errno)"
        case .wrongFileType(let path, let found, let expected):
            return "\(path) is a \(found), not \(expected)"
        case .fileTooLarge(let path, let limit):
            return "\(path) holds more than \(limit) bytes, more than such a file ever holds; it was not parsed"
        case .invalidArgument(let name, let value, let reason):
            return "\(name) = \(value) is not accepted: \(reason)"
        }
    }

    /// Maps a failed call's errno to the case a user can act on: missing path, permission, or the raw call.
    package static func from(_ errno: Errno, call name: String, path: String) -> SensorError {
        switch errno {
        case .noSuchFileOrDirectory, .notDirectory: return .notFound(path: path)
        case .permissionDenied, .notPermitted: return .permissionDenied(path: path)
        case .noSuchDevice, .noSuchDeviceOrAddress: return .vanished(path: path)
        default: return .systemCall(name: name, target: path, errno: errno)
        }
    }

    private static func quoted(_ text: String) -> String {
        let trimmed = text.count > 64 ? String(text.prefix(64)) + "…" : text
        return "\"" + trimmed.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\\n") + "\""
    }
}
