import CLinuxSupport
import Glibc

/// A sysfs or procfs attribute kept open so that it can be watched with `POLLPRI` and re-read from offset 0.
///
/// sysfs regenerates an attribute's text on every read from offset 0 and marks the open file as seen; a later
/// `sysfs_notify` (or a PSI trigger) raises `POLLPRI` on it. So each read here is a `pread(2)` at offset 0 on the same
/// descriptor, never a sequential `read`.
final class OpenAttribute: Sendable {
    /// The attribute's path.
    let path: String
    private let descriptor: FileDescriptor

    /// The `f_type` of sysfs in `statfs(2)` (`SYSFS_MAGIC` in `linux/magic.h`).
    static let sysfsMagic = 0x6265_6572

    /// Opens `path` non-blocking, read-only or read-write, refusing anything but a regular file.
    ///
    /// - Throws: ``SensorError/notFound(path:)``, ``SensorError/permissionDenied(path:)``,
    ///   ``SensorError/wrongFileType(path:found:expected:)`` or another mapped error.
    init(path: String, writable: Bool = false) throws(SensorError) {
        self.path = path
        descriptor = try SysfsFile.openRegularFile(path, flags: writable ? O_RDWR : O_RDONLY)
    }

    /// The raw descriptor, for the event loop.
    var rawValue: Int32 { descriptor.rawValue }

    /// Reads the whole attribute from offset 0, trailing newlines removed. Wraps `pread(2)`.
    ///
    /// - Throws: ``SensorError/fileTooLarge(path:limit:)`` past ``SysfsFile/attributeLimit`` bytes, or the mapped
    ///   error of `pread`.
    func readText() throws(SensorError) -> String {
        let limit = SysfsFile.attributeLimit
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let offset = off_t(bytes.count)
            let wanted = min(chunk.count, limit + 1 - bytes.count)
            let count: Int
            do {
                count = try retryingOnInterrupt {
                    chunk.withUnsafeMutableBytes { pread(descriptor.rawValue, $0.baseAddress, wanted, offset) }
                }
            } catch {
                throw SensorError.from(error, call: "pread", path: path)
            }
            if count == 0 { break }
            bytes += chunk[0..<count]
            if bytes.count > limit { throw .fileTooLarge(path: path, limit: limit) }
        }
        var text = String(decoding: bytes, as: UTF8.self)
        while text.last == "\n" { text.removeLast() }
        return text
    }

    /// Writes `bytes` in one `write(2)` (a PSI trigger must arrive whole).
    func write(_ bytes: [UInt8]) throws(SensorError) {
        do {
            _ = try retryingOnInterrupt {
                bytes.withUnsafeBytes { Glibc.write(descriptor.rawValue, $0.baseAddress, $0.count) }
            }
        } catch {
            throw SensorError.from(error, call: "write", path: path)
        }
    }

    /// Closes the descriptor (after its event-loop registration is cancelled).
    func close() { descriptor.close() }

    /// The `f_type` of procfs in `statfs(2)` (`PROC_SUPER_MAGIC`).
    static let procfsMagic = 0x9fa0

    /// Whether `path` lives on a sysfs mount, where attributes can be watched with `POLLPRI`. Wraps `statfs(2)`.
    static func isOnSysfs(_ path: String) -> Bool { fileSystemType(path) == sysfsMagic }

    /// Whether `path` lives on a procfs mount (a real PSI file rather than a fake tree). Wraps `statfs(2)`.
    static func isOnProcfs(_ path: String) -> Bool { fileSystemType(path) == procfsMagic }

    private static func fileSystemType(_ path: String) -> Int? {
        var info = statfs()
        return statfs(path, &info) == 0 ? Int(info.f_type) : nil
    }
}
