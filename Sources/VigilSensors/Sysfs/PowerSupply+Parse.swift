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
    /// Pure: it never reads files. `origin` is the device directory or uevent named in notes. One bad attribute
    /// hides only itself: an attribute that does not parse or lies outside what the kernel documents is left out
    /// (its field is `nil`) and said in ``notes``, naming the file and quoting the value in the attribute's own
    /// units. Every documented value is accepted: `online` 0, 1 or 2 (online, programmable), every `type` (the USB
    /// charger types count as ``Kind-swift.enum/usb``; a string this version does not know is
    /// ``Kind-swift.enum/unknown`` with a note), and a `capacity` above 100 % (kept, with a note).
    ///
    /// - Throws: Nothing today; a bad attribute is a note. The signature stays throwing for source compatibility.
    package static func parse(name: String, attributes: [String: String], origin: String) throws(SensorError)
        -> PowerSupply
    {
        parse(name: name, read: AttributeTexts(texts: attributes), origin: origin)
    }

    /// Builds a reading from attribute texts and the attributes that could not be read, each failure a note.
    static func parse(name: String, read: AttributeTexts, origin: String) -> PowerSupply {
        var fields = Fields(attributes: read.texts, origin: origin)
        for (attribute, error) in read.failures.sorted(by: { $0.key < $1.key })
        where attributeNames.contains(attribute) {
            fields.notes.append(error.description)
        }
        let kind = fields.enumeration("type", table: kindTable, unknown: Kind.unknown) ?? .unknown
        let status = fields.enumeration("status", table: statusTable, unknown: Status.unknown)
        let energy = fields.store("energy", unit: "µWh")
        let charge = fields.store("charge", unit: "µAh")
        let power = fields.micro("power_now").map(abs)
        let current = fields.micro("current_now").map(abs)
        let derived = Times(
            status: status, energy: energy, charge: charge, power: power, current: current,
            kernelEmpty: fields.seconds("time_to_empty_now"), kernelFull: fields.seconds("time_to_full_now"))
        let online = fields.integer("online", in: 0...2, unit: "").map { $0 != 0 }
        let present = fields.flag("present")
        let scope = fields.enumeration("scope", table: scopeTable, unknown: Scope.unknown) ?? .system
        let capacity = fields.capacity()
        let level = fields.enumeration("capacity_level", table: levelTable, unknown: CapacityLevel.unknown)
        let voltage = fields.micro("voltage_now")
        let temperature = fields.integer("temp", in: -2731...10_000, unit: "tenths of °C").map { Double($0) / 10 }
        let technology = fields.enumeration("technology", table: technologyTable, unknown: Technology.unknown)
        let cycles = fields.integer("cycle_count", in: -1...Int(Int32.max), unit: "").flatMap { $0 < 0 ? nil : $0 }
        return PowerSupply(
            name: name, kind: kind, isOnline: online, isPresent: present, scope: scope, status: status,
            capacityPercent: capacity, capacityLevel: level, energy: energy, charge: charge, powerWatts: power,
            currentAmperes: current, voltageVolts: voltage, temperatureCelsius: temperature, technology: technology,
            cycleCount: cycles, timeToEmptySeconds: derived.toEmpty, timeToFullSeconds: derived.toFull,
            notes: fields.notes)
    }

    /// Turns uevent text (`POWER_SUPPLY_ENERGY_NOW=48000000` lines) into attribute texts keyed by attribute name.
    ///
    /// Accepts the text of a `uevent` file or a netlink uevent's `KEY=value` lines (newline or NUL separated); see
    /// the variant that takes a `[String: String]` of properties. Returns the device name (`POWER_SUPPLY_NAME`) if present.
    package static func attributes(fromUevent text: String) -> (name: String?, attributes: [String: String]) {
        var properties: [String: String] = [:]
        for line in text.split(whereSeparator: { $0 == "\n" || $0 == "\0" }) {
            guard let equals = line.firstIndex(of: "=") else { continue }
            properties[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        return attributes(fromUevent: properties)
    }

    /// Turns uevent properties into attribute texts keyed by attribute name (`POWER_SUPPLY_ENERGY_NOW` →
    /// `energy_now`); keys without the `POWER_SUPPLY_` prefix are ignored. Returns `POWER_SUPPLY_NAME` if present.
    package static func attributes(fromUevent properties: [String: String]) -> (
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

    /// Every `type` of `power_supply_type_text` in the kernel. Chargers detected on a USB port ("USB_DCP",
    /// "USB_CDP", "USB_ACA", "USB_C", "USB_PD", "USB_PD_DRP", Apple's "BrickID"), which older kernels report as the
    /// type rather than in `usb_type`, are USB supplies.
    private static let kindTable: [String: Kind] = [
        "Battery": .battery, "Mains": .mains, "USB": .usb, "UPS": .ups, "Wireless": .wireless, "Unknown": .unknown,
        "USB_DCP": .usb, "USB_CDP": .usb, "USB_ACA": .usb, "USB_C": .usb, "USB_PD": .usb, "USB_PD_DRP": .usb,
        "BrickID": .usb,
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

/// Typed access to one supply's attribute texts; an attribute that does not parse gives `nil` and a note.
private struct Fields {
    let attributes: [String: String]
    let origin: String
    /// What was left out or adjusted, one line per attribute, naming its file.
    var notes: [String] = []

    init(attributes: [String: String], origin: String) {
        self.attributes = attributes
        self.origin = origin
    }

    func path(_ name: String) -> String { origin + "/" + name }

    /// The value of `parse`, or `nil` with a note when it throws.
    mutating func noting<T>(_ parse: () throws(SensorError) -> T?) -> T? {
        do {
            return try parse()
        } catch {
            notes.append(error.description)
            return nil
        }
    }

    mutating func integer(_ name: String, in range: ClosedRange<Int>, unit: String) -> Int? {
        guard let text = attributes[name] else { return nil }
        let path = path(name)
        return noting { () throws(SensorError) in try AttributeParser.integer(text, path: path, in: range, unit: unit) }
    }

    /// A micro-unit attribute (µW, µA, µV) in whole units.
    mutating func micro(_ name: String) -> Double? {
        guard let text = attributes[name] else { return nil }
        let path = path(name)
        return noting { () throws(SensorError) in Double(try AttributeParser.integer(text, path: path)) / 1_000_000 }
    }

    /// A stored amount (µWh, µAh) in whole units; negative amounts are refused, quoting the raw value.
    mutating func amount(_ name: String, unit: String) -> Double? {
        guard let text = attributes[name] else { return nil }
        let path = path(name)
        return noting { () throws(SensorError) in
            let raw = try AttributeParser.integer(text, path: path)
            guard raw >= 0 else {
                throw SensorError.valueOutOfRange(
                    path: path, value: "\(raw) \(unit)", range: "≥ 0 \(unit) (a stored amount cannot be negative)")
            }
            return Double(raw) / 1_000_000
        }
    }

    mutating func seconds(_ name: String) -> Double? {
        integer(name, in: 0...Int(Int32.max), unit: "s").map(Double.init)
    }

    mutating func flag(_ name: String) -> Bool? {
        guard let text = attributes[name] else { return nil }
        let path = path(name)
        return noting { () throws(SensorError) in try AttributeParser.flag(text, path: path) }
    }

    /// `capacity` in percent: above 100 is kept with a note (a gauge that over-reads), below 0 is left out.
    mutating func capacity() -> Int? {
        guard let value = integer("capacity", in: 0...Int(Int32.max), unit: "%") else { return nil }
        if value > 100 {
            let path = path("capacity")
            notes.append("\(path): \(value) % is above 100 % (the fuel gauge over-reads); shown as reported")
        }
        return value
    }

    mutating func store(_ prefix: String, unit: String) -> PowerSupply.Store? {
        let keys = [prefix + "_now", prefix + "_full", prefix + "_full_design"]
        guard keys.contains(where: { attributes[$0] != nil }) else { return nil }
        let now = amount(keys[0], unit: unit)
        let full = amount(keys[1], unit: unit)
        let design = amount(keys[2], unit: unit)
        if now == nil && full == nil && design == nil { return nil }
        return PowerSupply.Store(now: now, full: full, fullDesign: design)
    }

    /// The table's value for the attribute's word; a word the table lacks gives `unknown` and a note.
    mutating func enumeration<T>(_ name: String, table: [String: T], unknown: T) -> T? {
        guard let text = attributes[name] else { return nil }
        let word = text.trimmingWhitespace()
        if let value = table[word] { return value }
        let known = table.keys.sorted().joined(separator: ", ")
        notes.append(
            SensorError.malformedValue(path: path(name), text: text, expected: "one of \(known)").description
                + "; shown as unknown")
        return unknown
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
