extension PowerSupply {
    /// The attributes a power supply reading is built from; the same names, upper-cased and prefixed with
    /// `POWER_SUPPLY_`, are the properties of its uevent.
    static let attributeNames = [
        "type", "online", "present", "scope", "status", "capacity", "capacity_level", "energy_now", "energy_full",
        "energy_full_design", "charge_now", "charge_full", "charge_full_design", "power_now", "current_now",
        "voltage_now", "temp", "technology", "cycle_count", "time_to_empty_now", "time_to_full_now",
    ]

    /// Builds a reading from attribute texts keyed by attribute name (`"energy_now"` → `"48000000"`).
    ///
    /// Pure: it never reads files. `origin` is the device directory or uevent named in errors.
    ///
    /// - Throws: ``SensorError/malformedValue(path:text:expected:)`` or ``SensorError/valueOutOfRange(path:value:range:)``
    ///   naming the first attribute that does not parse.
    public static func parse(name: String, attributes: [String: String], origin: String) throws(SensorError)
        -> PowerSupply
    {
        let fields = Fields(attributes: attributes, origin: origin)
        let kind = try fields.enumeration("type", Kind.self, table: kindTable) ?? .unknown
        let status = try fields.enumeration("status", Status.self, table: statusTable)
        let energy = try fields.store("energy")
        let charge = try fields.store("charge")
        let power = try fields.micro("power_now").map(abs)
        let current = try fields.micro("current_now").map(abs)
        let derived = Times(
            status: status, energy: energy, charge: charge, power: power, current: current,
            kernelEmpty: try fields.seconds("time_to_empty_now"), kernelFull: try fields.seconds("time_to_full_now"))
        return PowerSupply(
            name: name, kind: kind, isOnline: try fields.flag("online"), isPresent: try fields.flag("present"),
            scope: try fields.enumeration("scope", Scope.self, table: scopeTable) ?? .system, status: status,
            capacityPercent: try fields.integer("capacity", in: 0...100),
            capacityLevel: try fields.enumeration("capacity_level", CapacityLevel.self, table: levelTable),
            energy: energy, charge: charge, powerWatts: power, currentAmperes: current,
            voltageVolts: try fields.micro("voltage_now"),
            temperatureCelsius: try fields.integer("temp", in: -2731...10_000).map { Double($0) / 10 },
            technology: try fields.enumeration("technology", Technology.self, table: technologyTable),
            cycleCount: try fields.integer("cycle_count", in: -1...1_000_000).flatMap { $0 < 0 ? nil : $0 },
            timeToEmptySeconds: derived.toEmpty, timeToFullSeconds: derived.toFull)
    }

    /// Turns uevent text (`POWER_SUPPLY_ENERGY_NOW=48000000` lines) into attribute texts keyed by attribute name.
    ///
    /// Accepts the text of a `uevent` file or a netlink uevent's `KEY=value` lines (newline or NUL separated); see
    /// ``attributes(fromUevent:)-(_:[String:String])``. Returns the device name (`POWER_SUPPLY_NAME`) if present.
    public static func attributes(fromUevent text: String) -> (name: String?, attributes: [String: String]) {
        var properties: [String: String] = [:]
        for line in text.split(whereSeparator: { $0 == "\n" || $0 == "\0" }) {
            guard let equals = line.firstIndex(of: "=") else { continue }
            properties[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        return attributes(fromUevent: properties)
    }

    /// Turns uevent properties into attribute texts keyed by attribute name (`POWER_SUPPLY_ENERGY_NOW` →
    /// `energy_now`); keys without the `POWER_SUPPLY_` prefix are ignored. Returns `POWER_SUPPLY_NAME` if present.
    public static func attributes(fromUevent properties: [String: String]) -> (
        name: String?, attributes: [String: String]
    ) {
        var attributes: [String: String] = [:]
        var name: String?
        let prefix = "POWER_SUPPLY_"
        for (key, value) in properties where key.hasPrefix(prefix) {
            let attribute = key.dropFirst(prefix.count).lowercased()
            if attribute == "name" { name = value } else { attributes[attribute] = value }
        }
        return (name, attributes)
    }

    private static let kindTable: [String: Kind] = [
        "Battery": .battery, "Mains": .mains, "USB": .usb, "UPS": .ups, "Wireless": .wireless,
    ]
    private static let statusTable: [String: Status] = [
        "Charging": .charging, "Discharging": .discharging, "Not charging": .notCharging, "Full": .full,
        "Unknown": .unknown,
    ]
    private static let scopeTable: [String: Scope] = ["System": .system, "Device": .device, "Unknown": .unknown]
    private static let levelTable: [String: CapacityLevel] = [
        "Unknown": .unknown, "Critical": .critical, "Low": .low, "Normal": .normal, "High": .high, "Full": .full,
    ]
    private static let technologyTable: [String: Technology] = [
        "Unknown": .unknown, "NiMH": .nickelMetalHydride, "Li-ion": .lithiumIon, "Li-poly": .lithiumPolymer,
        "LiFe": .lithiumIronPhosphate, "NiCd": .nickelCadmium, "LiMn": .lithiumManganese,
    ]
}

/// Typed access to one supply's attribute texts.
private struct Fields {
    let attributes: [String: String]
    let origin: String

    func path(_ name: String) -> String { origin + "/" + name }

    func integer(_ name: String, in range: ClosedRange<Int>) throws(SensorError) -> Int? {
        guard let text = attributes[name] else { return nil }
        return try AttributeParser.integer(text, path: path(name), in: range)
    }

    /// A micro-unit attribute (µWh, µAh, µW, µA, µV) in whole units.
    func micro(_ name: String) throws(SensorError) -> Double? {
        guard let text = attributes[name] else { return nil }
        return Double(try AttributeParser.integer(text, path: path(name))) / 1_000_000
    }

    func seconds(_ name: String) throws(SensorError) -> Double? {
        try integer(name, in: 0...Int(Int32.max)).map(Double.init)
    }

    func flag(_ name: String) throws(SensorError) -> Bool? {
        guard let text = attributes[name] else { return nil }
        return try AttributeParser.flag(text, path: path(name))
    }

    func store(_ prefix: String) throws(SensorError) -> PowerSupply.Store? {
        let now = try micro(prefix + "_now")
        let full = try micro(prefix + "_full")
        let design = try micro(prefix + "_full_design")
        if now == nil && full == nil && design == nil { return nil }
        for (suffix, value) in [("_now", now), ("_full", full), ("_full_design", design)] {
            if let value, value < 0 {
                throw SensorError.valueOutOfRange(path: path(prefix + suffix), value: String(value), range: "≥ 0")
            }
        }
        return PowerSupply.Store(now: now, full: full, fullDesign: design)
    }

    func enumeration<T>(_ name: String, _ type: T.Type, table: [String: T]) throws(SensorError) -> T? {
        guard let text = attributes[name] else { return nil }
        let word = text.trimmingWhitespace()
        guard let value = table[word] else {
            let known = table.keys.sorted().joined(separator: ", ")
            throw SensorError.malformedValue(path: path(name), text: text, expected: "one of \(known)")
        }
        return value
    }
}

/// Time to empty and to full: the kernel's figures when it reports them, else derived from the stores.
private struct Times {
    let toEmpty: Double?
    let toFull: Double?

    init(
        status: PowerSupply.Status?, energy: PowerSupply.Store?, charge: PowerSupply.Store?, power: Double?,
        current: Double?, kernelEmpty: Double?, kernelFull: Double?
    ) {
        let hours: (Double?, Double?) -> Double? = { amount, rate in
            guard let amount, let rate, rate > 0, amount >= 0 else { return nil }
            return amount / rate * 3600
        }
        func missing(_ store: PowerSupply.Store?) -> Double? {
            guard let now = store?.now, let full = store?.full else { return nil }
            return max(0, full - now)
        }
        switch status {
        case .discharging:
            toEmpty = kernelEmpty ?? hours(energy?.now, power) ?? hours(charge?.now, current)
            toFull = nil
        case .charging:
            toEmpty = nil
            toFull = kernelFull ?? hours(missing(energy), power) ?? hours(missing(charge), current)
        default:
            toEmpty = nil
            toFull = nil
        }
    }
}
