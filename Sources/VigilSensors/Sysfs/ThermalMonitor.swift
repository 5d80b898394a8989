/// Every thermal zone under `<root>/class/thermal`, polled (the kernel does not notify temperatures); °C.
public typealias ThermalMonitor = PolledMonitor<ThermalReading>

extension PolledMonitor where Value == ThermalReading {
    /// Creates a thermal monitor; nothing is read until it starts.
    ///
    /// - Parameters:
    ///   - root: The sysfs root, `/sys` unless reading a fake or captured tree.
    ///   - interval: How often the zones are read (default 5 s).
    ///   - eventLoop: The loop that runs the timer.
    public convenience init(root: String = "/sys", interval: Duration = .seconds(5), eventLoop: EventLoop = .shared) {
        self.init(
            name: "Thermal zones", interval: interval, eventLoop: eventLoop,
            availability: {
                SysfsClass.availability(
                    root: root, className: "thermal", noun: "thermal zones", include: { $0.hasPrefix("thermal_zone") })
            },
            read: { () throws(SensorError) in ThermalReading(zones: try ThermalZone.read(root: root)) })
    }
}

/// The thermal zones at one moment; temperatures in °C.
public struct ThermalReading: Sendable, Equatable, Encodable, CustomStringConvertible {
    /// The zones, by name.
    public let zones: [ThermalZone]

    /// Creates a reading.
    public init(zones: [ThermalZone]) { self.zones = zones }

    public var description: String {
        zones.isEmpty ? "no thermal zones" : zones.map(\.description).joined(separator: "; ")
    }
}
