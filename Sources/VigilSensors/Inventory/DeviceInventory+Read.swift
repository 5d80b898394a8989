extension DeviceInventory {
    /// Reads every kind of device under `sysfsRoot` (and `<procfsRoot>/asound/cards`), asking video nodes what they
    /// do with `query`.
    ///
    /// One bad entry hides only itself, and one kind that cannot be read at all (its class directory refused) is a
    /// problem line beside the other kinds.
    ///
    /// - Throws: ``SensorError/notFound(path:)`` when `sysfsRoot` is gone (a tree removed or not mounted): no
    ///   reading, rather than an empty machine.
    package static func read(sysfsRoot: String, procfsRoot: String, query: VideoCapabilityQuery) throws(SensorError)
        -> DeviceInventory
    {
        guard SysfsFile.isDirectory(sysfsRoot) else { throw SensorError.notFound(path: sysfsRoot) }
        var problems: [String] = []
        func section<Device>(_ read: () throws(SensorError) -> SysfsClass.Devices<Device>) -> [Device] {
            do {
                let found = try read()
                problems += found.problems
                return found.devices
            } catch {
                problems.append(error.description)
                return []
            }
        }
        let cameras = section { () throws(SensorError) in try Camera.read(root: sysfsRoot, query: query) }
        let cards = section { () throws(SensorError) in
            try SoundCard.read(sysfsRoot: sysfsRoot, procfsRoot: procfsRoot)
        }
        var otherSwitches: [RadioSwitch] = []
        let adapters = section { () throws(SensorError) -> SysfsClass.Devices<BluetoothAdapter> in
            let found = try BluetoothAdapter.read(root: sysfsRoot)
            otherSwitches = found.otherSwitches
            return found.adapters
        }
        let modems = section { () throws(SensorError) in try CellularModem.read(root: sysfsRoot) }
        let inputs = section { () throws(SensorError) in try InputDevice.read(root: sysfsRoot) }
        // A root that went away during the walk reads as empty classes: not an empty machine either.
        guard SysfsFile.isDirectory(sysfsRoot) else { throw SensorError.notFound(path: sysfsRoot) }
        return DeviceInventory(
            cameras: cameras, soundCards: cards, bluetoothAdapters: adapters, otherBluetoothSwitches: otherSwitches,
            modems: modems, inputDevices: inputs, problems: problems)
    }

    /// Reads the machine's devices, asking the nodes under `deviceRoot` (nil: none, every video node's capabilities
    /// unknown) what they do.
    ///
    /// - Throws: ``SensorError/notFound(path:)`` when `sysfsRoot` is gone.
    public static func read(sysfsRoot: String = "/sys", procfsRoot: String = "/proc", deviceRoot: String? = "/dev")
        throws(SensorError) -> DeviceInventory
    {
        try read(
            sysfsRoot: sysfsRoot, procfsRoot: procfsRoot, query: VideoCapabilities.querying(deviceRoot: deviceRoot))
    }
}
