/// Every hardware-monitoring chip under `<root>/class/hwmon`, polled (hwmon inputs do not notify); °C, RPM, V.
public typealias HwmonMonitor = PolledMonitor<HwmonReading>

extension PolledMonitor where Value == HwmonReading {
    /// Creates a hwmon monitor; nothing is read until it starts.
    ///
    /// - Parameters:
    ///   - root: The sysfs root, `/sys` unless reading a fake or captured tree.
    ///   - interval: How often the chips are read (default 5 s).
    ///   - eventLoop: The loop that runs the timer.
    public convenience init(root: String = "/sys", interval: Duration = .seconds(5), eventLoop: EventLoop = .shared) {
        self.init(
            name: "Hardware monitors", interval: interval, eventLoop: eventLoop,
            availability: {
                SysfsClass.availability(root: root, className: "hwmon", noun: "hardware-monitoring chips")
            },
            read: { () throws(SensorError) in HwmonReading(chips: try HwmonChip.read(root: root)) })
    }
}

/// The hardware-monitoring chips at one moment; temperatures in °C, fans in RPM, voltages in V.
public struct HwmonReading: Sendable, Equatable, Encodable, CustomStringConvertible {
    /// The chips, by directory name.
    public let chips: [HwmonChip]

    /// Creates a reading.
    public init(chips: [HwmonChip]) { self.chips = chips }

    public var description: String {
        chips.isEmpty ? "no hardware monitors" : chips.map(\.description).joined(separator: "; ")
    }
}
