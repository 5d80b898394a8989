extension ThermalZone {
    /// Reads every zone under `root`/class/thermal (cooling devices are skipped).
    ///
    /// A zone whose `temp` refuses to be read (some firmware zones answer `EINVAL` or `ENODATA`) is reported with a
    /// `nil` temperature rather than failing the whole reading.
    ///
    /// - Throws: A ``SensorError`` for an attribute that cannot be read or parsed.
    public static func read(root: String = "/sys") throws(SensorError) -> [ThermalZone] {
        try SysfsClass.read(
            root: root, className: "thermal", include: { $0.hasPrefix("thermal_zone") },
            attributes: { (directory) throws(SensorError) in
                let entries = try SysfsFile.listDirectory(directory)
                let trips = entries.filter { $0.hasPrefix("trip_point_") && $0.hasSuffix("_type") }.count
                return attributeNames(tripCount: trips).filter { $0 != "temp" }
            },
            parse: { (name, attributes, origin) throws(SensorError) in
                var attributes = attributes
                attributes["temp"] = try readTemperature(origin + "/temp")
                return try parse(name: name, attributes: attributes, origin: origin)
            })
    }

    /// The `temp` text, or `nil` when the zone refuses the read or has no sensor.
    private static func readTemperature(_ path: String) throws(SensorError) -> String? {
        do {
            return try SysfsFile.readText(path)
        } catch .systemCall, .notFound(path: path) {
            return nil
        }
    }
}

extension HwmonChip {
    /// Reads every chip under `root`/class/hwmon.
    ///
    /// Older drivers keep their attributes in the chip's `device/` subdirectory; those are read when the chip
    /// directory itself has no `name`.
    ///
    /// - Throws: A ``SensorError`` for an attribute that cannot be read or parsed.
    public static func read(root: String = "/sys") throws(SensorError) -> [HwmonChip] {
        try SysfsClass.read(
            root: root, className: "hwmon",
            attributes: { (directory) throws(SensorError) in
                try SysfsFile.listDirectory(directory).filter(isRelevant)
            },
            parse: { (name, attributes, origin) throws(SensorError) in
                if attributes["name"] == nil, SysfsFile.exists(origin + "/device/name") {
                    let device = origin + "/device"
                    let names = try SysfsFile.listDirectory(device).filter(isRelevant)
                    let texts = try SysfsFile.readAttributes(in: device, names: names)
                    return try parse(name: name, attributes: texts, origin: device)
                }
                return try parse(name: name, attributes: attributes, origin: origin)
            })
    }
}

extension Backlight {
    /// Reads every backlight under `root`/class/backlight.
    ///
    /// - Throws: A ``SensorError`` for an attribute that cannot be read or parsed.
    public static func read(root: String = "/sys") throws(SensorError) -> [Backlight] {
        try SysfsClass.read(
            root: root, className: "backlight", attributes: { _ in attributeNames },
            parse: { (name, attributes, origin) throws(SensorError) in
                try parse(name: name, attributes: attributes, origin: origin)
            })
    }
}
