import Vigil
import VigilSensors

extension Catalog {
    /// The sysfs and procfs sources: power, thermal, hwmon, backlight, CPU, memory, storage, pressure, clock.
    ///
    /// sysfs sources read under `--sys-root`, procfs sources under `--proc-root`.
    static var systemEntries: [CatalogEntry] {
        [
            battery,
            withUevents(id: "power", name: "Power supplies (sysfs)", subsystem: "power_supply") { context, changes in
                PowerSupplyMonitor(root: context.sysRoot, changes: changes)
            },
            .source(id: "thermal", name: "Thermal zones (sysfs)") { context, _ in
                ThermalMonitor(root: context.sysRoot)
            },
            .source(id: "hwmon", name: "Hardware monitors (sysfs hwmon)") { context, _ in
                HwmonMonitor(root: context.sysRoot)
            },
            withUevents(id: "backlight", name: "Backlight (sysfs)", subsystem: "backlight") { context, changes in
                BacklightMonitor(root: context.sysRoot, changes: changes)
            },
            .source(id: "cpu", name: "CPU use (/proc/stat)") { context, _ in
                CPUUsageMonitor(root: context.procRoot)
            },
            .source(id: "memory", name: "Memory use (/proc/meminfo)") { context, _ in
                MemoryUsageMonitor(root: context.procRoot)
            },
            .source(id: "storage", name: "Storage of / (statvfs)") { _, _ in
                StorageMonitor(mountPoints: ["/"])
            },
            .source(id: "pressure", name: "Memory pressure (PSI)") { context, _ in
                MemoryPressureMonitor(root: context.procRoot)
            },
            .source(id: "clock", name: "Wall-clock changes (timerfd)") { _, _ in
                ClockChangeMonitor()
            },
        ]
    }

    /// The system battery: the power-supply source, listed as absent when no system battery exists, so that
    /// `vigil list` says "no battery" plainly on a desktop or server (where `power` still reports mains).
    private static var battery: CatalogEntry {
        let power = withUevents(id: "battery", name: "Battery (sysfs power_supply)", subsystem: "power_supply") {
            context, changes in PowerSupplyMonitor(root: context.sysRoot, changes: changes)
        }
        return CatalogEntry(
            id: power.id, name: power.name, argumentName: nil,
            availability: { context in
                let monitor = PowerSupplyMonitor(root: context.sysRoot)
                guard monitor.availability.isAvailable else { return monitor.availability }
                do {
                    if try PowerSupplyReading.read(root: context.sysRoot).batteries.isEmpty {
                        return .unavailable(
                            reason: .missingDevice,
                            detail: "this machine has no battery (\(context.sysRoot)/class/power_supply has none)")
                    }
                    return .available
                } catch {
                    return .unavailable(reason: .missingDevice, detail: "\(error)")
                }
            },
            start: power.start)
    }

    /// An entry whose source also refreshes on the kernel's uevents for `subsystem`, through a ``DeviceMonitor``
    /// started and stopped with it. Uevents are used only for the machine's own `/sys`: with `--sys-root` the
    /// events would describe other devices than the tree being read, so that source relies on polling.
    private static func withUevents<S: Source>(
        id: String, name: String, subsystem: String,
        make: @escaping @Sendable (CatalogContext, Observable<[String: String]>?) -> S
    ) -> CatalogEntry where S.Reading: Encodable & CustomStringConvertible {
        CatalogEntry(
            id: id, name: name, argumentName: nil,
            availability: { context in make(context, nil).availability },
            start: { context, _, emitter in
                let devices = DeviceMonitor(subsystems: [subsystem])
                let useUevents = context.sysRoot == "/sys" && devices.availability.isAvailable
                let source = make(context, useUevents ? devices.ueventProperties : nil)
                let subscription = source.readings.subscribe(on: .queue(emitter.queue)) { reading in
                    emitter.emit(source: id, reading: reading)
                }
                let group = MonitorGroup(useUevents ? [devices, source] : [source])
                try group.startMonitoring()
                return RunningSource(monitor: group, subscription: subscription)
            })
    }
}

/// Monitors that start together (all or none) and stop together, as one ``Monitor``.
private final class MonitorGroup: Monitor {
    private let monitors: [any Monitor]

    init(_ monitors: [any Monitor]) { self.monitors = monitors }

    var isMonitoring: Bool { monitors.contains { $0.isMonitoring } }
    func startMonitoring() throws { try monitors.startMonitoring() }
    func stopMonitoring() { monitors.reversed().stopMonitoring() }
}
