import Vigil
import VigilSensors

extension Catalog {
    /// The sysfs and procfs sources: power, thermal, hwmon, backlight, CPU, memory, storage, pressure, clock.
    ///
    /// sysfs sources read under `--sys-root`, procfs sources under `--proc-root`.
    static var systemEntries: [CatalogEntry] {
        [
            battery,
            .withUevents(id: "power", name: "Power supplies (sysfs)", subsystem: "power_supply") { context, devices in
                PowerSupplyMonitor(root: context.sysRoot, changes: devices?.ueventProperties)
            },
            .source(id: "thermal", name: "Thermal zones (sysfs)") { context, _ in
                ThermalMonitor(root: context.sysRoot)
            },
            .source(id: "hwmon", name: "Hardware monitors (sysfs hwmon)") { context, _ in
                HwmonMonitor(root: context.sysRoot)
            },
            .withUevents(id: "backlight", name: "Backlight (sysfs)", subsystem: "backlight") { context, devices in
                BacklightMonitor(root: context.sysRoot, changes: devices?.ueventProperties)
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
        let power = CatalogEntry.withUevents(
            id: "battery", name: "Battery (sysfs power_supply)", subsystem: "power_supply"
        ) {
            context, devices in PowerSupplyMonitor(root: context.sysRoot, changes: devices?.ueventProperties)
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
}
