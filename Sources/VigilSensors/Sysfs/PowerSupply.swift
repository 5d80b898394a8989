/// One power supply from `/sys/class/power_supply`: a battery, a mains adapter, a USB port.
///
/// Units: energies in watt-hours (Wh), charges in ampere-hours (Ah), power in watts (W), current in amperes (A),
/// voltage in volts (V), temperature in degrees Celsius (°C), times in seconds. The kernel reports µWh, µAh, µW, µA,
/// µV and tenths of °C; the conversion happens when parsing. A field is `nil` when the driver does not report it.
public struct PowerSupply: Sendable, Equatable, Encodable, CustomStringConvertible {
    /// The device name, for example `BAT0` or `AC`.
    public let name: String
    /// What kind of supply this is (the `type` attribute).
    public let kind: Kind
    /// For mains, USB and wireless supplies: whether power is connected (`online` is 1, or 2 for a USB PD
    /// programmable supply).
    public let isOnline: Bool?
    /// For batteries: whether the battery is inserted (`present`).
    public let isPresent: Bool?
    /// Whether this supply powers the system or a peripheral such as a mouse (`scope`).
    public let scope: Scope
    /// For batteries: charging state (`status`).
    public let status: Status?
    /// For batteries: state of charge in percent (`capacity`), 0...100; a gauge that over-reads may report more,
    /// which is kept as reported, with a note.
    public let capacityPercent: Int?
    /// For batteries: coarse charge level (`capacity_level`).
    public let capacityLevel: CapacityLevel?
    /// Stored energy in Wh (`energy_now`, `energy_full`, `energy_full_design`).
    public let energy: Store?
    /// Stored charge in Ah (`charge_now`, `charge_full`, `charge_full_design`).
    public let charge: Store?
    /// Power flowing in or out in W, always non-negative; `status` says the direction (`power_now`).
    public let powerWatts: Double?
    /// Current flowing in or out in A, always non-negative (`current_now`).
    public let currentAmperes: Double?
    /// Present voltage in V (`voltage_now`).
    public let voltageVolts: Double?
    /// Battery temperature in °C (`temp`, reported in tenths of °C).
    public let temperatureCelsius: Double?
    /// Battery chemistry (`technology`).
    public let technology: Technology?
    /// Charge cycles so far (`cycle_count`).
    public let cycleCount: Int?
    /// Seconds until empty while discharging: from the kernel's `time_to_empty_now` or derived from energy (charge)
    /// now divided by power (current) now.
    public let timeToEmptySeconds: Double?
    /// Seconds until full while charging: from the kernel's `time_to_full_now` or derived from the missing energy
    /// (charge) divided by power (current) now.
    public let timeToFullSeconds: Double?
    /// What the kernel reported that is not shown as is, one line per attribute naming its file: an attribute left
    /// out because it could not be read or parsed (its field is `nil`), a value outside its documented range, a
    /// `type` or other word this version does not know. Empty for a supply read cleanly.
    public let notes: [String]

    /// Now, full and design-full amounts of a battery store, in Wh for energy or Ah for charge.
    public struct Store: Sendable, Equatable, Encodable {
        /// What is stored now.
        public let now: Double?
        /// What the battery holds when full today.
        public let full: Double?
        /// What the battery held when new.
        public let fullDesign: Double?

        /// Creates a store from amounts in Wh or Ah.
        public init(now: Double?, full: Double?, fullDesign: Double?) {
            self.now = now
            self.full = full
            self.fullDesign = fullDesign
        }

        /// Full capacity as a fraction of the design capacity (battery health), when both are known.
        public var health: Double? {
            guard let full, let fullDesign, fullDesign > 0 else { return nil }
            return full / fullDesign
        }
    }

    /// The kind of power supply (`type` attribute).
    public enum Kind: String, Sendable, Equatable, Encodable {
        /// A battery (`Battery`).
        case battery

        /// A mains adapter (`Mains`).
        case mains

        /// A USB power source (`USB`, and the `USB_*` types).
        case usb

        /// An uninterruptible power supply (`UPS`).
        case ups

        /// A wireless charger (`Wireless`).
        case wireless

        /// A type Vigil does not know, or none.
        case unknown
    }

    /// Whether a supply powers the system (`System`, or no `scope`) or a peripheral (`Device`).
    public enum Scope: String, Sendable, Equatable, Encodable {
        /// Powers the system (`System`, or no `scope` attribute).
        case system

        /// Powers a peripheral, such as a mouse's battery (`Device`).
        case device

        /// A scope the kernel reports as `Unknown`.
        case unknown
    }

    /// Battery charging state (`status` attribute).
    public enum Status: String, Sendable, Equatable, Encodable {
        /// Charging (`Charging`).
        case charging

        /// Discharging (`Discharging`).
        case discharging

        /// Plugged in but not charging (`Not charging`).
        case notCharging = "not charging"

        /// Fully charged (`Full`).
        case full

        /// The kernel does not know (`Unknown`), or a value Vigil does not know.
        case unknown
    }

    /// Coarse charge level (`capacity_level` attribute).
    public enum CapacityLevel: String, Sendable, Equatable, Encodable {
        /// Not reported (`Unknown`).
        case unknown

        /// Critically low (`Critical`).
        case critical

        /// Low (`Low`).
        case low

        /// Normal (`Normal`).
        case normal

        /// High (`High`).
        case high

        /// Full (`Full`).
        case full
    }

    /// Battery chemistry (`technology` attribute).
    public enum Technology: String, Sendable, Equatable, Encodable {
        /// Not reported, or a chemistry Vigil does not know.
        case unknown

        /// Nickel-metal hydride (`NiMH`).
        case nickelMetalHydride = "NiMH"

        /// Lithium-ion (`Li-ion`).
        case lithiumIon = "Li-ion"

        /// Lithium polymer (`Li-poly`).
        case lithiumPolymer = "Li-poly"

        /// Lithium iron phosphate (`LiFe`).
        case lithiumIronPhosphate = "LiFe"

        /// Nickel-cadmium (`NiCd`).
        case nickelCadmium = "NiCd"

        /// Lithium manganese (`LiMn`).
        case lithiumManganese = "LiMn"
    }

    public var description: String {
        switch kind {
        case .battery:
            var parts = ["\(name): battery"]
            if isPresent == false { return parts[0] + " not present" }
            if let capacityPercent { parts.append("\(capacityPercent) %") }
            if let status { parts.append(status.rawValue) }
            if let powerWatts { parts.append(UnitFormat.fixed(powerWatts) + " W") }
            if let seconds = timeToEmptySeconds { parts.append(UnitFormat.duration(seconds: seconds) + " to empty") }
            if let seconds = timeToFullSeconds { parts.append(UnitFormat.duration(seconds: seconds) + " to full") }
            if let temperatureCelsius { parts.append(UnitFormat.fixed(temperatureCelsius) + " °C") }
            return parts.joined(separator: ", ") + notesSuffix
        default:
            let state = isOnline.map { $0 ? "online" : "offline" } ?? "state unknown"
            return "\(name): \(kind.rawValue) \(state)" + notesSuffix
        }
    }

    /// The notes in brackets after the one-line form, or nothing.
    private var notesSuffix: String {
        notes.isEmpty ? "" : " [" + notes.joined(separator: "; ") + "]"
    }
}
