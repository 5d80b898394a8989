import Glibc

/// Space on the file system holding a mount point, from `statvfs(3)`.
///
/// Units: bytes; ``usedFraction`` is 0...1 of the space ordinary users can use.
public struct StorageUsage: Sendable, Equatable, Encodable, CustomStringConvertible {
    /// The path asked about.
    public let mountPoint: String
    /// The file system's size.
    public let totalBytes: UInt64
    /// Space not in use, including what only root may use.
    public let freeBytes: UInt64
    /// Space an unprivileged user may still use.
    public let availableBytes: UInt64

    /// Creates a reading from `statvfs` fields: fragment size and block counts in fragments.
    public init(mountPoint: String, fragmentSize: UInt64, blocks: UInt64, freeBlocks: UInt64, availableBlocks: UInt64) {
        self.mountPoint = mountPoint
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

    /// Reads the file system holding `mountPoint`. Wraps `statvfs(3)`.
    ///
    /// - Throws: ``SensorError/notFound(path:)`` or another ``SensorError`` when `statvfs` fails.
    public static func read(mountPoint: String) throws(SensorError) -> StorageUsage {
        var info = statvfs()
        do {
            _ = try retryingOnInterrupt("statvfs") { statvfs(mountPoint, &info) }
        } catch {
            throw SensorError.from(error, call: "statvfs", path: mountPoint)
        }
        return StorageUsage(
            mountPoint: mountPoint, fragmentSize: UInt64(info.f_frsize), blocks: UInt64(info.f_blocks),
            freeBlocks: UInt64(info.f_bfree), availableBlocks: UInt64(info.f_bavail))
    }

    public var description: String {
        "\(mountPoint): " + UnitFormat.percent(usedFraction) + " used, " + UnitFormat.bytes(availableBytes)
            + " available of " + UnitFormat.bytes(totalBytes)
    }
}
