/// Walks the devices of one `/sys/class/<name>` directory and builds a reading per device.
enum SysfsClass {
    /// Reads every device of class `className` under `root` whose name passes `include`.
    ///
    /// `attributes` lists the attribute names to read for a device directory (it may list the directory); a device
    /// whose directory disappears while it is read is left out. An absent class directory means no devices.
    ///
    /// - Throws: The first ``SensorError`` from reading or `parse`.
    static func read<Device>(
        root: String, className: String, include: (String) -> Bool = { _ in true },
        attributes: (String) throws(SensorError) -> [String],
        parse: (_ name: String, _ attributes: [String: String], _ origin: String) throws(SensorError) -> Device
    ) throws(SensorError) -> [Device] {
        let classPath = root + "/class/" + className
        let names: [String]
        do {
            names = try SysfsFile.listDirectory(classPath)
        } catch .notFound {
            return []
        }
        var devices: [Device] = []
        for name in names where include(name) {
            let directory = classPath + "/" + name
            do {
                let texts = try SysfsFile.readAttributes(in: directory, names: try attributes(directory))
                devices.append(try parse(name, texts, directory))
            } catch .vanished, .notFound(path: directory) {
                continue
            }
        }
        return devices
    }

    /// The class directory path, for availability checks and messages.
    static func path(root: String, className: String) -> String {
        root + "/class/" + className
    }
}

extension SysfsClass {
    /// Whether class `className` under `root` has a device passing `include`; `noun` names the devices in the reason.
    static func availability(
        root: String, className: String, noun: String, include: (String) -> Bool = { _ in true }
    ) -> Availability {
        let classPath = path(root: root, className: className)
        var hasDevice = false
        let readable = Availability.checking(
            classPath, missing: (.missingDevice, "this machine has no \(noun) (no \(classPath))"),
            read: { (path) throws(SensorError) in hasDevice = try SysfsFile.listDirectory(path).contains(where: include)
            })
        guard readable.isAvailable, !hasDevice else { return readable }
        return .unavailable(reason: .missingDevice, detail: "this machine has no \(noun) (\(classPath) is empty)")
    }
}
