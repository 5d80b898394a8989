extension ThermalZone {
    /// Reads every zone under `root`/class/thermal (cooling devices are skipped).
    ///
    /// One bad attribute hides only itself (each attribute is parsed on its own); a zone whose `temp` refuses to
    /// be read (some firmware zones answer `EINVAL` or `ENODATA`) is reported with a `nil` temperature and a note.
    /// Entries that are not readable zones are left out; ``ThermalReading/read(root:)`` lists them.
    ///
    /// - Throws: A ``SensorError`` when the class directory exists but cannot be listed, or `root` is gone.
    public static func read(root: String = "/sys") throws(SensorError) -> [ThermalZone] {
        try readClass(root: root).devices
    }

    /// The zones and the entries that could not be read.
    static func readClass(root: String) throws(SensorError) -> SysfsClass.Devices<ThermalZone> {
        try SysfsClass.read(
            root: root, className: "thermal", include: { $0.hasPrefix("thermal_zone") },
            attributes: { (directory) throws(SensorError) in
                let entries = try SysfsFile.listDirectory(directory)
                let trips = entries.filter { $0.hasPrefix("trip_point_") && $0.hasSuffix("_type") }.count
                return attributeNames(tripCount: trips)
            },
            parse: { (name, read, origin) throws(SensorError) in try parse(name: name, read: read, origin: origin) })
    }
}

extension HwmonChip {
    /// Reads every chip under `root`/class/hwmon.
    ///
    /// Older drivers keep their attributes in the chip's `device/` subdirectory; those are read when the chip
    /// directory itself has no `name`. One bad input hides only itself (each attribute is parsed on its own);
    /// chips without a readable `name` are left out, and ``HwmonReading/read(root:)`` lists them.
    ///
    /// - Throws: A ``SensorError`` when the class directory exists but cannot be listed, or `root` is gone.
    public static func read(root: String = "/sys") throws(SensorError) -> [HwmonChip] {
        try readClass(root: root).devices
    }

    /// The chips and the entries that could not be read.
    static func readClass(root: String) throws(SensorError) -> SysfsClass.Devices<HwmonChip> {
        try SysfsClass.read(
            root: root, className: "hwmon",
            attributes: { (directory) throws(SensorError) in
                try SysfsFile.listDirectory(directory).filter(isRelevant)
            },
            parse: { (name, read, origin) throws(SensorError) in
                if read.texts["name"] == nil, read.failures["name"] == nil, SysfsFile.exists(origin + "/device/name") {
                    let device = origin + "/device"
                    let names = try SysfsFile.listDirectory(device).filter(isRelevant)
                    let texts = try SysfsFile.readAttributeTexts(in: device, names: names)
                    return try parse(name: name, read: texts, origin: device)
                }
                return try parse(name: name, read: read, origin: origin)
            })
    }
}

extension Backlight {
    /// Reads every backlight under `root`/class/backlight.
    ///
    /// A backlight whose `brightness` or `max_brightness` cannot be read or parsed is left out; an
    /// `actual_brightness` above the maximum is clamped, with a note.
    ///
    /// - Throws: A ``SensorError`` when the class directory exists but cannot be listed, or `root` is gone.
    public static func read(root: String = "/sys") throws(SensorError) -> [Backlight] {
        try SysfsClass.read(
            root: root, className: "backlight", attributes: { _ in attributeNames },
            parse: { (name, read, origin) throws(SensorError) in try parse(name: name, read: read, origin: origin) }
        ).devices
    }
}
