extension SourceCatalog {
    /// The sysfs and procfs sources: `battery`, `power`, `thermal`, `hwmon`, `backlight`, `displays`, `cpu`, `memory`,
    /// `storage`, `pressure`, `clock`, `device`, `switches`, `radios`, `location`, `sleep` and `inventory`.
    ///
    /// sysfs sources read under ``Options/sysfsRoot``, procfs sources under ``Options/procfsRoot``; `switches`,
    /// `radios` (`rfkill`) and `inventory` open nodes under ``Options/devRoot`` (beside another sysfs root only when one is given, since the
    /// machine's `/dev` holds other devices' nodes); `storage` reports the file system of `/`; `device` reads all
    /// three roots and ``Options/etcRoot``; `location` opens the first `gnssN` of `class/gnss` under
    /// ``Options/devRoot``; `sleep` reads the kernel's clocks and the suspend statistics under
    /// ``Options/sysfsRoot``.
    static var systemEntries: [Entry] {
        [
            battery,
            powerSupplies(id: "power", name: "Power supplies (sysfs)"),
            .source(id: "thermal", name: "Thermal zones (sysfs)") { options, _ in
                ThermalMonitor(root: options.sysfsRoot, eventLoop: options.eventLoop)
            },
            .source(id: "hwmon", name: "Hardware monitors (sysfs hwmon)") { options, _ in
                HwmonMonitor(root: options.sysfsRoot, eventLoop: options.eventLoop)
            },
            .withUevents(id: "backlight", name: "Backlight (sysfs)", subsystem: "backlight") { options, devices in
                BacklightMonitor(
                    root: options.sysfsRoot, changes: devices?.readings, eventLoop: options.eventLoop)
            },
            .withUevents(id: "displays", name: "Displays (DRM connectors, EDID)", subsystem: "drm") {
                options, devices in
                DisplayMonitor(root: options.sysfsRoot, changes: devices?.readings, eventLoop: options.eventLoop)
            },
            .source(id: "cpu", name: "CPU use (/proc/stat)") { options, _ in
                CPUUsageMonitor(root: options.procfsRoot, eventLoop: options.eventLoop)
            },
            .source(id: "memory", name: "Memory use (/proc/meminfo)") { options, _ in
                MemoryUsageMonitor(root: options.procfsRoot, eventLoop: options.eventLoop)
            },
            .source(id: "storage", name: "Storage of / (statvfs)") { options, _ in
                StorageMonitor(mountPoints: ["/"], eventLoop: options.eventLoop)
            },
            .source(id: "pressure", name: "Memory pressure (PSI)") { options, _ in
                MemoryPressureMonitor(root: options.procfsRoot, eventLoop: options.eventLoop)
            },
            .source(id: "clock", name: "Wall-clock changes (timerfd)") { options, _ in
                ClockChangeMonitor(eventLoop: options.eventLoop)
            },
            .source(id: "device", name: "Device identity and OS (DMI, os-release, hostname)") { options, _ in
                DeviceIdentityMonitor(
                    sysfsRoot: options.sysfsRoot, procfsRoot: options.procfsRoot, etcRoot: options.etcRoot,
                    eventLoop: options.eventLoop)
            },
            .withUevents(id: "switches", name: "Switches: lid, tablet mode, dock, jacks (evdev)", subsystem: "input") {
                options, devices in
                SwitchMonitor(
                    root: options.sysfsRoot, devRoot: options.devRoot, changes: devices?.readings,
                    eventLoop: options.eventLoop,
                    access: options.deviceNodeRoot == nil ? .refusing(options.missingDeviceNodeRoot) : .kernel)
            },
            .withUevents(id: "radios", name: "Radio switches: Wi-Fi, Bluetooth, WWAN (rfkill)", subsystem: "rfkill") {
                options, devices in
                RadioMonitor(
                    root: options.sysfsRoot, devRoot: options.devRoot, changes: devices?.readings,
                    eventLoop: options.eventLoop,
                    access: options.deviceNodeRoot == nil ? .refusing(options.missingDeviceNodeRoot) : .kernel)
            },
            Entry(
                id: "location", name: locationName,
                availability: { options in locationMonitor(options).availability },
                build: { options, _ in
                    // From the first decoded epoch on: "opened, nothing decoded yet" is the monitor's, not an answer
                    // to `get location` (the first epoch follows within a second or two, or a receiver is silent).
                    let monitor = locationMonitor(options)
                    let decoded = monitor.readings.filter { $0.value?.mode != .waiting }
                    return CatalogSource(id: "location", name: locationName, source: monitor, readings: decoded)
                }),
            .source(id: "sleep", name: "Sleep and resume (boot-time clock, suspend_stats)") { options, _ in
                SleepMonitor(root: options.sysfsRoot, eventLoop: options.eventLoop)
            },
            .withUevents(
                id: "inventory", name: "Inventory (cameras, sound, Bluetooth, modems, input)",
                subsystems: InventoryMonitor.subsystems
            ) { options, devices in
                InventoryMonitor(
                    sysfsRoot: options.sysfsRoot, procfsRoot: options.procfsRoot, deviceRoot: options.deviceNodeRoot,
                    changes: devices?.readings,
                    eventLoop: options.eventLoop)
            },
        ]
    }

    private static let locationName = "Location (GNSS receiver, NMEA 0183)"

    /// The location monitor of `options`: it opens no node of this machine's `/dev` under a fake sysfs tree.
    private static func locationMonitor(_ options: Options) -> LocationMonitor {
        guard let devRoot = options.deviceNodeRoot else {
            return LocationMonitor(
                root: options.sysfsRoot, refusingNodes: options.missingDeviceNodeRoot, eventLoop: options.eventLoop)
        }
        return LocationMonitor(root: options.sysfsRoot, devRoot: devRoot, eventLoop: options.eventLoop)
    }

    /// The power-supply source, refreshed by `power_supply` uevents under `/sys`.
    private static func powerSupplies(id: String, name: String) -> Entry {
        .withUevents(id: id, name: name, subsystem: "power_supply") { options, devices in
            PowerSupplyMonitor(
                root: options.sysfsRoot, changes: devices?.readings, eventLoop: options.eventLoop)
        }
    }

    /// The system battery: the power-supply source, unavailable when no system battery exists, so that a desktop or
    /// server says "no battery" plainly (where `power` still reports mains).
    private static var battery: Entry {
        powerSupplies(id: "battery", name: "Battery (sysfs power_supply)").checking { options in
            let availability = PowerSupplyMonitor(root: options.sysfsRoot).availability
            guard availability.isAvailable else { return availability }
            do {
                guard try PowerSupplyReading.read(root: options.sysfsRoot).batteries.isEmpty else { return .available }
                return .unavailable(
                    reason: .missingDevice,
                    detail: "this machine has no battery (\(options.sysfsRoot)/class/power_supply has none)")
            } catch {
                return .unavailable(reason: .missingDevice, detail: "\(error)")
            }
        }
    }
}
