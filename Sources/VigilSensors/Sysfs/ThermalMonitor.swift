/// Every thermal zone under `<root>/class/thermal`, polled (the kernel does not notify temperatures); °C.
public typealias ThermalMonitor = PolledMonitor<ThermalReading>

extension PolledMonitor where Value == ThermalReading {
    /// Creates a thermal monitor; nothing is read until it starts.
    ///
    /// - Parameters:
    ///   - root: The sysfs root, `/sys` unless reading a fake or captured tree.
    ///   - updateInterval: How often the zones are read (default 5 s).
    ///   - eventLoop: The loop that runs the timer.
    public convenience init(
        root: String = "/sys", updateInterval: Duration = .seconds(5), eventLoop: EventLoop = .shared
    ) {
        self.init(
            name: "Thermal zones", updateInterval: updateInterval, eventLoop: eventLoop,
            availability: {
                SysfsClass.availability(
                    root: root, className: "thermal", noun: "thermal zones", include: { $0.hasPrefix("thermal_zone") })
            },
            read: { () throws(SensorError) in try ThermalReading.read(root: root) })
    }
}

/// The thermal zones at one moment; temperatures in °C.
public struct ThermalReading: Sendable, Equatable, Encodable, CustomStringConvertible {
    /// The zones, by name.
    public let zones: [ThermalZone]
    /// Zone entries that are not readable zones (a link loop, a zone without a readable `type`), each naming its
    /// path and what is wrong; they are left out of ``zones``.
    public let problems: [String]

    /// Creates a reading.
    public init(zones: [ThermalZone], problems: [String] = []) {
        self.zones = zones
        self.problems = problems
    }

    /// Reads every zone under `root`/class/thermal; one bad trip point, temperature or zone hides only itself.
    ///
    /// - Throws: A ``SensorError`` when the class directory exists but cannot be listed, or `root` is gone.
    public static func read(root: String = "/sys") throws(SensorError) -> ThermalReading {
        let read = try ThermalZone.readClass(root: root)
        return ThermalReading(zones: read.devices, problems: read.problems)
    }

    public var description: String {
        let lines = zones.map(\.description) + problems
        return lines.isEmpty ? "no thermal zones" : lines.joined(separator: "; ")
    }
}
