/// An Industrial I/O device found under `<root>/bus/iio/devices/iio:deviceN`, with what Vigil needs to read it.
///
/// Discovery reads names and lists files only; values are read when a source polls or starts. Every path is under
/// the root given to ``discover(root:)``, so tests and the `--sys-root` option read a fake or captured tree.
public struct IIODevice: Hashable, Sendable, CustomStringConvertible {
    /// The kernel's device name: `iio:device0`.
    public let id: String
    /// The device's sysfs directory.
    public let path: String
    /// The driver's name for the device (the `name` attribute), for example `lis3dh` or `cros-ec-accel`.
    public let name: String
    /// The input channels, sorted by name.
    public let channels: [IIOChannel]
    /// The scan elements buffered mode can capture, sorted by name; empty without `scan_elements`.
    package let scanElements: [IIOScanElement]
    /// Whether the device has a `buffer` directory (buffered mode).
    public let hasBuffer: Bool
    /// Whether the device has a `trigger/current_trigger` attribute (buffered mode may need a trigger).
    public let hasTrigger: Bool
    /// The character device that delivers scans: `/dev/iio:deviceN`, or `<root>/dev/iio:deviceN` under another
    /// root than `/sys`.
    public let deviceNodePath: String
    /// The directory that lists the devices and triggers, `<root>/bus/iio/devices`.
    package let busPath: String

    private let files: Set<String>

    /// The devices under `root`, sorted by number; empty when the machine has none.
    ///
    /// - Parameter root: The sysfs mount point, `/sys` unless testing.
    /// - Throws: ``SensorError`` only when the IIO bus exists but cannot be listed; a device whose `name` cannot be
    ///   read is skipped (it is going away).
    public static func discover(root: String = "/sys") throws(SensorError) -> [IIODevice] {
        let bus = busDirectory(root: root)
        guard SysfsFile.isDirectory(bus) else { return [] }
        let entries = try SysfsFile.listDirectory(bus).filter { $0.hasPrefix("iio:device") }
        let devices = entries.compactMap { entry in try? IIODevice(id: entry, root: root) }
        return devices.sorted { $0.number < $1.number }
    }

    /// The bus directory that lists IIO devices under `root`.
    package static func busDirectory(root: String) -> String {
        "\(root)/bus/iio/devices"
    }

    /// Reads one device.
    ///
    /// - Parameters:
    ///   - id: The device's directory name, `iio:deviceN`.
    ///   - root: The sysfs mount point.
    /// - Throws: ``SensorError`` when the device directory or its `name` cannot be read.
    public init(id: String, root: String = "/sys") throws(SensorError) {
        self.id = id
        busPath = Self.busDirectory(root: root)
        path = "\(busPath)/\(id)"
        let entries = try SysfsFile.listDirectory(path)
        files = Set(entries)
        name = try SysfsFile.readText("\(path)/name")
        channels = Self.channels(in: path, files: files)
        hasBuffer = SysfsFile.isDirectory("\(path)/buffer")
        hasTrigger = SysfsFile.exists("\(path)/trigger/current_trigger")
        let scanDirectory = "\(path)/scan_elements"
        if SysfsFile.isDirectory(scanDirectory), let scanFiles = try? SysfsFile.listDirectory(scanDirectory) {
            scanElements = scanFiles.compactMap { IIOAttributeName(fileName: $0, attributes: ["en"]) }
                .map { IIOScanElement(name: $0.channelName, directory: scanDirectory) }
        } else {
            scanElements = []
        }
        let nodeDirectory = root == "/sys" ? "/dev" : "\(root)/dev"
        deviceNodePath = "\(nodeDirectory)/\(id)"
    }

    /// The device number N of `iio:deviceN`.
    public var number: Int {
        Int(id.dropFirst("iio:device".count)) ?? -1
    }

    /// The channels of one type (`accel`), sorted by name.
    public func channels(ofType type: String) -> [IIOChannel] {
        channels.filter { $0.type == type }
    }

    /// Whether the device has at least one channel of `type`.
    public func hasChannel(ofType type: String) -> Bool {
        channels.contains { $0.type == type }
    }

    /// The path of a device attribute when the device has it.
    package func attributePath(_ name: String) -> String? {
        files.contains(name) ? "\(path)/\(name)" : nil
    }

    /// The sampling frequency attribute for channels of `type`: `in_<type>_sampling_frequency` or the device-wide
    /// `sampling_frequency`, when present.
    package func samplingFrequencyPath(for type: String) -> String? {
        attributePath("in_\(type)_sampling_frequency") ?? attributePath("sampling_frequency")
    }

    /// The frequencies the driver accepts for channels of `type`, from `…sampling_frequency_available`.
    ///
    /// A list (`12.5 25 50`) is returned as is; a range (`[min step max]`) as its end points. Empty when the driver
    /// does not say.
    public func availableSamplingFrequencies(for type: String) -> [Double] {
        let path =
            attributePath("in_\(type)_sampling_frequency_available") ?? attributePath("sampling_frequency_available")
        guard let path, let text = try? SysfsFile.readText(path) else { return [] }
        let isRange = text.hasPrefix("[")
        let numbers = text.split { $0 == " " || $0 == "[" || $0 == "]" || $0 == "\t" }.compactMap { Double($0) }
            .filter { $0.isFinite && $0 > 0 }
        if isRange, numbers.count == 3 { return [numbers[0], numbers[2]] }
        return numbers.sorted()
    }

    /// The mount matrix for channels of `type`: `in_<type>_mount_matrix`, `in_mount_matrix` or `mount_matrix`, or
    /// the identity when the device has none.
    ///
    /// - Throws: ``SensorError/malformedValue(path:text:expected:)`` when the attribute does not parse or has an
    ///   all-zero row.
    public func mountMatrix(for type: String) throws(SensorError) -> MountMatrix {
        let candidates = ["in_\(type)_mount_matrix", "in_mount_matrix", "mount_matrix"]
        guard let path = candidates.lazy.compactMap({ self.attributePath($0) }).first else { return .identity }
        return try MountMatrix(parsing: try SysfsFile.readText(path), path: path)
    }

    public var description: String {
        let types = Set(channels.map(\.type)).sorted().joined(separator: ", ")
        return "\(id) \(name) [\(types)]"
    }

    private static func channels(in path: String, files: Set<String>) -> [IIOChannel] {
        var names: [String: IIOAttributeName] = [:]
        for file in files {
            guard let parsed = IIOAttributeName(fileName: file, attributes: ["raw", "input"]) else { continue }
            names[parsed.channelName] = parsed
        }
        func attribute(_ name: IIOAttributeName, _ suffix: String) -> String? {
            let own = "in_\(name.channelName)_\(suffix)"
            let shared = "in_\(name.type)_\(suffix)"
            if files.contains(own) { return "\(path)/\(own)" }
            return files.contains(shared) ? "\(path)/\(shared)" : nil
        }
        return names.values.map { name in
            IIOChannel(
                type: name.type, index: name.index, modifier: name.modifier, name: name.channelName,
                rawPath: files.contains("in_\(name.channelName)_raw") ? "\(path)/in_\(name.channelName)_raw" : nil,
                inputPath: files.contains("in_\(name.channelName)_input")
                    ? "\(path)/in_\(name.channelName)_input" : nil,
                scalePath: attribute(name, "scale"), offsetPath: attribute(name, "offset"))
        }
        .sorted { $0.name < $1.name }
    }
}
