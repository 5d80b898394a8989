import Glibc

/// The hardware a class device belongs to: where it sits in the kernel's device tree, and which driver and bus serve
/// it.
///
/// Read from the class entry's `device` link (`/sys/class/sound/card0/device` → the PCI function of the sound
/// chip), so two class devices of one piece of hardware (a camera's capture and metadata nodes) name the same path.
public struct ParentDevice: Sendable, Hashable, Encodable, CustomStringConvertible {
    /// The device's path as the kernel writes `DEVPATH`, relative to the sysfs root, for example
    /// `/devices/pci0000:00/0000:00:14.0/usb1/1-6/1-6:1.0`.
    public let path: String
    /// The bound driver (the `driver` link's name, such as `uvcvideo` or `snd_hda_intel`), when one is bound.
    public let driver: String?
    /// The bus (the `subsystem` link's name, such as `usb`, `pci` or `platform`), when the kernel gives it.
    public let bus: String?

    /// Creates a parent device.
    public init(path: String, driver: String? = nil, bus: String? = nil) {
        self.path = path
        self.driver = driver
        self.bus = bus
    }

    /// For example `/devices/…/1-6:1.0 (usb, uvcvideo)`.
    public var description: String {
        let details = [bus, driver].compactMap { $0 }
        return details.isEmpty ? path : "\(path) (\(details.joined(separator: ", ")))"
    }

    /// The parent of the class device at `entry` (its `device` link), or nil when it has none (a virtual device) or
    /// the link leads nowhere (dangling, a loop, outside `root`).
    static func read(_ entry: BytePath, root: String) -> ParentDevice? {
        let device = entry.appending("device")
        guard let path = SysfsLinks.devicePath(device, root: root) else { return nil }
        return ParentDevice(
            path: path, driver: SysfsLinks.targetName(device.appending("driver")),
            bus: SysfsLinks.targetName(device.appending("subsystem")))
    }
}

/// The symbolic links of sysfs: resolved to a device path, or read for the name they point to.
enum SysfsLinks {
    /// What `path` resolves to (every link followed), as a path relative to `root` the way the kernel writes
    /// `DEVPATH` (`/devices/…`); nil when it cannot be resolved (gone, dangling, a loop) or lies outside `root`.
    static func devicePath(_ path: BytePath, root: String) -> String? {
        guard let resolved = realPath(path), let base = realPath(BytePath(root)), resolved.isEqualOrBelow(base)
        else { return nil }
        let relative = resolved.replacingPrefix(base, with: BytePath("")).displayText
        return relative.hasPrefix("/") ? relative : "/" + relative
    }

    /// The last component of the target of the symbolic link at `path` (a `driver` or `subsystem` link: the driver
    /// or bus name); nil when `path` is not a link.
    static func targetName(_ path: BytePath) -> String? {
        let capacity = Int(PATH_MAX)
        var buffer = [CChar](repeating: 0, count: capacity)
        let length = path.withCString { readlink($0, &buffer, capacity) }
        guard length > 0, length < capacity else { return nil }
        let target = BytePath(bytes: buffer[..<length].map { UInt8(bitPattern: $0) })
        let name = target.withoutTrailingSlashes.parentAndName.name
        return name.isEmpty ? nil : name.displayText
    }

    /// The canonical absolute path of `path` (`realpath(3)`), or nil when it cannot be resolved.
    private static func realPath(_ path: BytePath) -> BytePath? {
        let resolved = path.withCString { realpath($0, nil) }
        guard let resolved else { return nil }
        defer { free(resolved) }
        return BytePath(bytes: UnsafeRawBufferPointer(start: resolved, count: strlen(resolved)))
    }
}
