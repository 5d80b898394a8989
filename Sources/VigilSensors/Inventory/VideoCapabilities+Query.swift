import CLinuxSupport
import Glibc

extension VideoCapabilities {
    /// The real query: opens `<deviceRoot>/<devname>` and asks the driver with `VIDIOC_QUERYCAP`.
    ///
    /// The node is checked before it is opened: it must be a character device, and the device sysfs names (its
    /// `dev` numbers), so that a node of another device (a `/dev` that does not belong to the sysfs tree being read)
    /// is never asked. It is opened read-only and non-blocking, asked once and closed; nothing is streamed.
    ///
    /// - Parameter deviceRoot: Where the device nodes are, `/dev`; nil to ask none (a sysfs tree that is not this
    ///   machine's, whose nodes are not under `/dev`): then every node's capabilities are unknown, saying so.
    package static func querying(deviceRoot: String?) -> VideoCapabilityQuery {
        guard let deviceRoot else {
            return { (address) throws(SensorError) in
                throw SensorError.unavailable(
                    source: "/dev/" + address.devname,
                    reason: "not asked: the sysfs tree read is not this machine's /sys, so /dev does not hold its nodes"
                )
            }
        }
        return { (address) throws(SensorError) in try query(address, deviceRoot: deviceRoot) }
    }

    private static func query(_ address: VideoNodeAddress, deviceRoot: String) throws(SensorError)
        -> VideoCapabilities
    {
        let node = BytePath(deviceRoot).appending(BytePath(address.devname))
        let path = node.displayText
        let info: stat
        do {
            info = try node.status()
        } catch {
            throw SensorError.from(error, call: "stat", path: path)
        }
        try checkIsNode(info, of: address, path: path)
        let opened = node.withCString { path in
            Result { () throws(Errno) in
                try retryingOnInterrupt("open") { Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY) }
            }
        }
        let fd: FileDescriptor
        switch opened {
        case .success(let raw): fd = FileDescriptor(raw)
        case .failure(let error): throw SensorError.from(error, call: "open", path: path)
        }
        defer { fd.close() }
        // Checked again on the open descriptor, in case the path changed in between.
        var openedInfo = stat()
        if fstat(fd.rawValue, &openedInfo) == 0 { try checkIsNode(openedInfo, of: address, path: path) }
        var raw = vigil_video_capability()
        do {
            _ = try retryingOnInterrupt("ioctl") { vigil_video_query_capability(fd.rawValue, &raw) }
        } catch {
            throw SensorError.from(error, call: "ioctl VIDIOC_QUERYCAP", path: path)
        }
        let bits = raw.capabilities & Bit.deviceCapabilities != 0 ? raw.device_caps : raw.capabilities
        return VideoCapabilities(
            driver: text(of: raw.driver), card: text(of: raw.card), busInfo: text(of: raw.bus_info),
            nodeCapabilities: bits)
    }

    /// Throws unless `info` is a character device with the address's device numbers.
    private static func checkIsNode(_ info: stat, of address: VideoNodeAddress, path: String) throws(SensorError) {
        let kind = FileKind(mode: info.st_mode)
        guard kind == .characterDevice else {
            throw SensorError.wrongFileType(path: path, found: "\(kind)", expected: "a video4linux device node")
        }
        guard let expected = address.deviceNumber else { return }
        let found = DeviceNumber(info.st_rdev)
        guard found == expected else {
            throw SensorError.unavailable(
                source: path,
                reason:
                    "it is device \(found.major):\(found.minor), not \(expected.major):\(expected.minor) as sysfs says")
        }
    }

    /// The text of a NUL-terminated C string field, invalid UTF-8 replaced.
    private static func text<Field>(of field: Field) -> String {
        withUnsafeBytes(of: field) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}

/// A device number split the way glibc's `major(3)` and `minor(3)` split a `dev_t`.
package struct DeviceNumber: Sendable, Equatable {
    package let major: UInt32
    package let minor: UInt32

    package init(major: UInt32, minor: UInt32) {
        self.major = major
        self.minor = minor
    }

    init(_ device: dev_t) {
        let value = UInt64(device)
        major = UInt32(truncatingIfNeeded: ((value >> 8) & 0xFFF) | ((value >> 32) & ~UInt64(0xFFF)))
        minor = UInt32(truncatingIfNeeded: (value & 0xFF) | ((value >> 12) & ~UInt64(0xFF)))
    }

    /// The numbers of a sysfs `dev` attribute, `MAJOR:MINOR` (`81:0`); nil when the text is not that.
    package init?(attribute text: String) {
        let parts = text.trimmingWhitespace().split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let major = UInt32(parts[0]), let minor = UInt32(parts[1]) else { return nil }
        self.init(major: major, minor: minor)
    }
}
