extension BluetoothAdapter {
    /// The adapters and the Bluetooth rfkill switches that belong to none of them (a laptop's platform switch).
    struct Found {
        var adapters: SysfsClass.Devices<BluetoothAdapter>
        var otherSwitches: [RadioSwitch]
    }

    /// An adapter before its switches are attached: where it sits in the device tree.
    private struct Located {
        var name: String
        var path: String?
        var parent: ParentDevice?
    }

    /// An rfkill switch and where it sits: its own device path and its `device` link's.
    private struct LocatedSwitch {
        var radioSwitch: RadioSwitch
        var path: String?
        var devicePath: String?

        /// Whether this switch belongs to the adapter at `adapterPath` (its child, or linked to it) or to the
        /// adapter's hardware `parentPath`.
        func belongs(toAdapterAt adapterPath: String?, parentPath: String?) -> Bool {
            if let adapterPath {
                if devicePath == adapterPath { return true }
                if let path, BytePath(path).parentAndName.parent == BytePath(adapterPath) { return true }
            }
            return parentPath != nil && devicePath == parentPath
        }
    }

    /// Reads every adapter under `<root>/class/bluetooth` (`hciN`; connection entries such as `hci0:256` are not
    /// adapters) and attaches the `bluetooth` switches of `<root>/class/rfkill` through their `device` links.
    ///
    /// - Throws: A ``SensorError`` when a class directory exists but cannot be listed, or `root` is gone.
    static func read(root: String) throws(SensorError) -> Found {
        let adapters = try SysfsClass.read(
            root: root, className: "bluetooth", include: { isNodeName($0, prefix: "hci") }, attributes: { _ in [] },
            parseAt: { (name, _, directory) throws(SensorError) in
                Located(
                    name: name, path: SysfsLinks.devicePath(directory, root: root),
                    parent: ParentDevice.read(directory, root: root))
            })
        // The switches are read on their own: a class that cannot be listed hides only the switches.
        var switches = SysfsClass.Devices<LocatedSwitch>()
        do {
            switches = try readSwitches(root: root)
        } catch {
            switches.problems.append(error.description)
        }
        var unattached = switches.devices.filter { $0.radioSwitch.type == "bluetooth" }
        var result = Found(
            adapters: SysfsClass.Devices(problems: adapters.problems + switches.problems), otherSwitches: [])
        for adapter in adapters.devices {
            let mine = unattached.filter { $0.belongs(toAdapterAt: adapter.path, parentPath: adapter.parent?.path) }
            unattached.removeAll { $0.belongs(toAdapterAt: adapter.path, parentPath: adapter.parent?.path) }
            result.adapters.devices.append(
                BluetoothAdapter(name: adapter.name, parent: adapter.parent, radioSwitches: mine.map(\.radioSwitch)))
        }
        result.otherSwitches = unattached.map(\.radioSwitch)
        return result
    }

    /// Every switch under `<root>/class/rfkill`, with its own device path and its `device` link's.
    private static func readSwitches(root: String) throws(SensorError) -> SysfsClass.Devices<LocatedSwitch> {
        try RadioSwitch.readAll(root: root) { radioSwitch, directory in
            LocatedSwitch(
                radioSwitch: radioSwitch, path: SysfsLinks.devicePath(directory, root: root),
                devicePath: SysfsLinks.devicePath(directory.appending("device"), root: root))
        }
    }
}
