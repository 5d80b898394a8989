import CLinuxSupport
import Glibc

/// How a ``RadioMonitor`` reaches `/dev/rfkill`: the kernel's (``kernel``), or a test's stand-in that hands out the
/// read end of a pipe and answers the size request itself, so event sizes, truncation and bursts run in-process.
package struct RfkillAccess: Sendable {
    /// Opens the event device for reading, non-blocking and close-on-exec.
    package var open: @Sendable (String) throws(SensorError) -> FileDescriptor
    /// Asks for events of this many bytes (`RFKILL_IOCTL_MAX_SIZE`); false when the kernel refuses (before 5.11).
    package var requestEventSize: @Sendable (FileDescriptor, Int) -> Bool

    package init(
        open: @escaping @Sendable (String) throws(SensorError) -> FileDescriptor,
        requestEventSize: @escaping @Sendable (FileDescriptor, Int) -> Bool
    ) {
        self.open = open
        self.requestEventSize = requestEventSize
    }

    /// No event device: each open fails with `reason` (the catalog's, under a fake sysfs root).
    package static func refusing(_ reason: String) -> RfkillAccess {
        RfkillAccess(
            open: { (path) throws(SensorError) in throw .unavailable(source: path, reason: reason) },
            requestEventSize: { _, _ in false })
    }

    /// The kernel's `/dev/rfkill`, opened read-only: this source never writes to it.
    package static let kernel = RfkillAccess(
        open: { (path) throws(SensorError) in try CharacterDevice.open(path, expected: "the rfkill character device") },
        requestEventSize: { descriptor, size in
            var bytes = UInt32(size)
            let result = try? retryingOnInterrupt("ioctl(RFKILL_IOCTL_MAX_SIZE)") {
                vigil_ioctl_pointer(descriptor.rawValue, vigil_rfkill_ioctl_max_size(), &bytes)
            }
            return result != nil
        })
}
