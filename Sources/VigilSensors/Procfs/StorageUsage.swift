import Glibc

/// Space on the file system holding a mount point, from `statvfs(3)`.
///
/// Units: bytes; ``usedFraction`` is 0...1 of the space ordinary users can use.
///
/// Both paths are ``BytePath``s: a mount point whose name is not UTF-8 keeps its exact bytes, and in JSON is the array
/// of them (`"mountedOn":[47,109,110,116,47,99,97,102,233]`) rather than a look-alike string.
public struct StorageUsage: Sendable, Equatable, Encodable, CustomStringConvertible {
    /// The path asked about.
    public let mountPoint: BytePath
    /// The mount point of the file system holding ``mountPoint``, as `df` prints it under "Mounted on": the path
    /// itself when it is one, `/` for `/tmp` on a machine without a `/tmp` mount; nil when `/proc/self/mountinfo`
    /// does not say.
    public let mountedOn: BytePath?
    /// The file system's size.
    public let totalBytes: UInt64
    /// Space not in use, including what only root may use.
    public let freeBytes: UInt64
    /// Space an unprivileged user may still use.
    public let availableBytes: UInt64

    /// Creates a reading from `statvfs` fields: fragment size and block counts in fragments.
    public init(
        mountPoint: BytePath, mountedOn: BytePath? = nil, fragmentSize: UInt64, blocks: UInt64, freeBlocks: UInt64,
        availableBlocks: UInt64
    ) {
        self.mountPoint = mountPoint
        self.mountedOn = mountedOn
        let multiply = { (count: UInt64) -> UInt64 in
            let (bytes, overflow) = count.multipliedReportingOverflow(by: fragmentSize)
            return overflow ? .max : bytes
        }
        totalBytes = multiply(blocks)
        freeBytes = min(multiply(freeBlocks), totalBytes)
        availableBytes = min(multiply(availableBlocks), totalBytes)
        let used = totalBytes - freeBytes
        let (usable, overflow) = used.addingReportingOverflow(availableBytes)
        usedFraction =
            overflow
            ? Double(used) / (Double(used) + Double(availableBytes)) : usable == 0 ? 0 : Double(used) / Double(usable)
    }

    /// The fraction used of the space available to users (used / (used + available)), as `df` reports it.
    public let usedFraction: Double

    /// Reads the file system holding `mountPoint`, and where it is mounted. Wraps `statvfs(3)`, `stat(2)` and
    /// `realpath(3)`, and reads `/proc/self/mountinfo`.
    ///
    /// - Throws: ``SensorError/notFound(path:)`` or another ``SensorError`` when `statvfs` fails.
    public static func read(mountPoint: BytePath) throws(SensorError) -> StorageUsage {
        var info = statvfs()
        let failure = mountPoint.withCString { path -> Errno? in
            do throws(Errno) {
                _ = try retryingOnInterrupt("statvfs") { statvfs(path, &info) }
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw SensorError.from(failure, call: "statvfs", path: mountPoint.displayText) }
        return StorageUsage(
            mountPoint: mountPoint, mountedOn: mountedOn(mountPoint), fragmentSize: UInt64(info.f_frsize),
            blocks: UInt64(info.f_blocks), freeBlocks: UInt64(info.f_bfree), availableBlocks: UInt64(info.f_bavail))
    }

    /// The mount point holding `path`, or nil when it cannot be told (see ``MountTable``).
    private static func mountedOn(_ path: BytePath) -> BytePath? {
        guard let status = try? path.status(), let resolved = path.withCString({ realpath($0, nil) }) else {
            return nil
        }
        defer { free(resolved) }
        let device = DeviceNumber(status.st_dev)
        let mountinfo = try? SysfsFile.readBytes("/proc/self/mountinfo", limit: SysfsFile.procfsLimit)
        guard let mountinfo else { return nil }
        return MountTable.mountPoint(
            holding: BytePath(bytes: UnsafeRawBufferPointer(start: resolved, count: strlen(resolved))),
            device: "\(device.major):\(device.minor)", mountinfo: mountinfo)
    }

    /// Labelled by the mount point, as `df` places a path: `/: 24.5 % used, …`, or `/tmp on /: …` for a path inside
    /// the file system mounted on `/`. A path that is not UTF-8 is escaped like `ls -b` (`/mnt/caf\351`).
    public var description: String {
        let asked = mountPoint.displayText
        let label = mountedOn.map { $0 == mountPoint ? asked : "\(asked) on \($0.displayText)" } ?? asked
        return "\(label): " + UnitFormat.percent(usedFraction) + " used, " + UnitFormat.bytes(availableBytes)
            + " available of " + UnitFormat.bytes(totalBytes)
    }
}
