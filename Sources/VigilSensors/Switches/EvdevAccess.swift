import CLinuxSupport
import Glibc

/// How a ``SwitchMonitor`` reaches evdev nodes: the kernel's (``kernel``), or a test's stand-in that hands out one
/// end of a socket pair and answers `EVIOCGSW` itself, so partial events, lost events and removal run in-process.
package struct EvdevAccess: Sendable {
    /// Opens a node for reading, non-blocking and close-on-exec.
    package var open: @Sendable (String) throws(SensorError) -> FileDescriptor
    /// Reads which switch codes are set (`EVIOCGSW`).
    package var readSwitches: @Sendable (FileDescriptor) throws(Errno) -> [Int]
    /// Sets the clock of the event timestamps; nil when the node refuses every clock asked for.
    package var setClock: @Sendable (FileDescriptor) -> EvdevClock?

    package init(
        open: @escaping @Sendable (String) throws(SensorError) -> FileDescriptor,
        readSwitches: @escaping @Sendable (FileDescriptor) throws(Errno) -> [Int],
        setClock: @escaping @Sendable (FileDescriptor) -> EvdevClock?
    ) {
        self.open = open
        self.readSwitches = readSwitches
        self.setClock = setClock
    }

    /// No node at all: each open fails with `reason` (the catalog's, under a fake sysfs root whose nodes are not
    /// under `/dev`).
    package static func refusing(_ reason: String) -> EvdevAccess {
        EvdevAccess(
            open: { (path) throws(SensorError) in throw .unavailable(source: path, reason: reason) },
            readSwitches: { (_) throws(Errno) in [] }, setClock: { _ in nil })
    }

    /// The kernel's evdev nodes.
    package static let kernel = EvdevAccess(
        open: { (path) throws(SensorError) in try Evdev.openNode(path) },
        readSwitches: { (descriptor) throws(Errno) in try Evdev.readSwitches(descriptor) },
        setClock: { descriptor in Evdev.setClock(descriptor) })
}

/// The clock an evdev node stamps its events with.
package enum EvdevClock: Sendable, Equatable {
    /// `CLOCK_BOOTTIME`: the clock of ``ReadingTime/monotonic``, counting through suspend.
    case boottime
    /// `CLOCK_MONOTONIC`, for kernels that refuse `CLOCK_BOOTTIME`; it stops while suspended.
    case monotonic

    var clockID: clockid_t { self == .boottime ? CLOCK_BOOTTIME : CLOCK_MONOTONIC }

    /// When an event stamped `timestamp` on this clock happened, as a ``ReadingTime``; `now` when the clock is not
    /// known. The age is clamped to the clock's range, so a hostile timestamp cannot move it before boot or after now.
    static func time(of timestamp: Duration, on clock: EvdevClock?) -> ReadingTime {
        let now = ReadingTime.now()
        guard let clock else { return now }
        var spec = timespec()
        _ = clock_gettime(clock.clockID, &spec)
        let clockNow = Duration.seconds(spec.tv_sec) + .nanoseconds(spec.tv_nsec)
        let age = min(max(.zero, clockNow - timestamp), clockNow)
        return ReadingTime(monotonic: now.monotonic.advanced(by: .zero - age), wall: now.wall - age)
    }
}

/// The evdev calls on the kernel's nodes.
enum Evdev {
    /// Bytes of the `EVIOCGSW` answer: 64 switches, four times the kernel's `SW_CNT`.
    static let switchBitmapBytes = 8

    /// Opens an evdev node, refusing anything but a character device; see ``CharacterDevice/open(_:expected:)``.
    static func openNode(_ path: String) throws(SensorError) -> FileDescriptor {
        try CharacterDevice.open(path, expected: "an evdev character device")
    }

    /// The set switch codes of an open node. Wraps `ioctl(EVIOCGSW)`.
    ///
    /// - Throws: The call's ``Errno`` (`ENODEV` once the device is gone, `ENOTTY` for what is not evdev).
    static func readSwitches(_ descriptor: FileDescriptor) throws(Errno) -> [Int] {
        var bytes = [UInt8](repeating: 0, count: switchBitmapBytes)
        let fd = descriptor.rawValue
        let count = try retryingOnInterrupt("ioctl(EVIOCGSW)") {
            bytes.withUnsafeMutableBytes { buffer in
                vigil_ioctl_pointer(fd, vigil_eviocgsw(UInt32(buffer.count)), buffer.baseAddress)
            }
        }
        return CapabilityBitmap(kernelBytes: Array(bytes.prefix(Int(max(0, min(count, Int32(bytes.count))))))).bits
    }

    /// Asks the node to stamp events with `CLOCK_BOOTTIME`, else `CLOCK_MONOTONIC`. Wraps `ioctl(EVIOCSCLOCKID)`.
    ///
    /// - Returns: The clock set, or nil when the node refuses both (its events then carry `CLOCK_REALTIME`, or
    ///   nothing meaningful on a mock, and are stamped when read).
    static func setClock(_ descriptor: FileDescriptor) -> EvdevClock? {
        for clock in [EvdevClock.boottime, .monotonic] {
            var id = Int32(clock.clockID)
            let result = try? retryingOnInterrupt("ioctl(EVIOCSCLOCKID)") {
                vigil_ioctl_pointer(descriptor.rawValue, vigil_eviocsclockid(), &id)
            }
            if result != nil { return clock }
        }
        return nil
    }

    /// What to tell a user who may not read `path`: the group that may, and how to join it.
    static func permissionAdvice(for path: String) -> String {
        var info = stat()
        guard stat(path, &info) == 0 else { return "permission denied" }
        let groupReadable = info.st_mode & S_IRGRP != 0
        guard groupReadable, info.st_gid != 0, let group = groupName(info.st_gid) else {
            return "permission denied: only root may read it"
        }
        return "permission denied: it is readable by group \(group); add this user to that group "
            + "(usermod -aG \(group) USER) and log in again"
    }

    /// The name of group `gid`, or nil when it has none. Wraps `getgrgid_r(3)`.
    static func groupName(_ gid: gid_t) -> String? {
        var group = Glibc.group()
        var found: UnsafeMutablePointer<Glibc.group>?
        var buffer = [CChar](repeating: 0, count: 4096)
        // The name points into the buffer, so it is copied while the buffer is pinned.
        return buffer.withUnsafeMutableBufferPointer { storage -> String? in
            let status = getgrgid_r(gid, &group, storage.baseAddress, storage.count, &found)
            guard status == 0, found != nil, let name = group.gr_name else { return nil }
            return String(cString: name)
        }
    }
}
