/// Every hardware-monitoring chip under `<root>/class/hwmon`, polled (hwmon inputs do not notify); °C, RPM, V.
public typealias HwmonMonitor = PolledMonitor<HwmonReading>

extension PolledMonitor where Value == HwmonReading {
    /// Creates a hwmon monitor; nothing is read until it starts.
    ///
    /// - Parameters:
    ///   - root: The sysfs root, `/sys` unless reading a fake or captured tree.
    ///   - updateInterval: How often the chips are read (default 5 s).
    ///   - eventLoop: The loop that runs the timer.
    public convenience init(
        root: String = "/sys", updateInterval: Duration = .seconds(5), eventLoop: EventLoop = .shared
    ) {
        self.init(
            name: "Hardware monitors", updateInterval: updateInterval, eventLoop: eventLoop,
            availability: {
                SysfsClass.availability(root: root, className: "hwmon", noun: "hardware-monitoring chips")
            },
            read: { () throws(SensorError) in try HwmonReading.read(root: root) })
    }
}

/// The hardware-monitoring chips at one moment; temperatures in °C, fans in RPM, voltages in V.
public struct HwmonReading: Sendable, Equatable, Encodable, CustomStringConvertible {
    /// The chips, by directory name.
    public let chips: [HwmonChip]
    /// Entries of the class directory that are not readable chips (a link loop, a chip without a readable `name`),
    /// each naming its path and what is wrong; they are left out of ``chips``.
    public let problems: [String]

    /// Creates a reading.
    public init(chips: [HwmonChip], problems: [String] = []) {
        self.chips = chips
        self.problems = problems
    }

    /// Reads every chip under `root`/class/hwmon; one bad input or chip hides only itself.
    ///
    /// - Throws: A ``SensorError`` when the class directory exists but cannot be listed, or `root` is gone.
    public static func read(root: String = "/sys") throws(SensorError) -> HwmonReading {
        let read = try HwmonChip.readClass(root: root)
        return HwmonReading(chips: read.devices, problems: read.problems)
    }

    public var description: String {
        let lines = chips.map(\.description) + problems
        return lines.isEmpty ? "no hardware monitors" : lines.joined(separator: "; ")
    }
}
