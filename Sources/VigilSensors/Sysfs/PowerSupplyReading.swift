/// Every power supply of the machine and where the system draws its power from.
///
/// See ``PowerSupply`` for the units of each field.
public struct PowerSupplyReading: Sendable, Equatable, Encodable, CustomStringConvertible {
    /// Where the system draws its power from.
    public enum PowerSource: String, Sendable, Equatable, Encodable {
        /// The machine has no system battery (a desktop or server): it runs on external power.
        case noBattery = "no battery"
        /// A system battery exists and a mains, USB or wireless supply is online.
        case external = "external power"
        /// A system battery exists and no external supply is online.
        case battery = "on battery"
    }

    /// The supplies, sorted by name.
    public let supplies: [PowerSupply]
    /// Where the power comes from, derived from ``supplies``.
    public let powerSource: PowerSource
    /// Entries of the class directory that are not readable supplies (a symbolic-link loop, a stray file), each
    /// naming its path and what is wrong; they are left out of ``supplies``.
    public let problems: [String]

    /// Builds a reading from supplies; peripheral batteries (scope `Device`) never count as the system battery.
    ///
    /// With a system battery, the power source is external when a mains, USB or wireless supply is online; when no
    /// such supply reports `online`, a charging battery means external power, anything else battery power.
    ///
    /// - Parameters:
    ///   - supplies: The supplies, in any order.
    ///   - problems: Class entries that could not be read as supplies.
    public init(supplies: [PowerSupply], problems: [String] = []) {
        self.supplies = supplies.sorted { $0.name < $1.name }
        self.problems = problems
        let batteries = supplies.filter { $0.kind == .battery && $0.scope != .device && $0.isPresent != false }
        let external = supplies.filter { $0.kind != .battery && $0.isOnline != nil }
        if batteries.isEmpty {
            powerSource = .noBattery
        } else if !external.isEmpty {
            // Adapters that report `online` are the authority; battery status lags behind a plug or unplug.
            powerSource = external.contains { $0.isOnline == true } ? .external : .battery
        } else if batteries.contains(where: { $0.status == .charging }) {
            powerSource = .external
        } else {
            powerSource = .battery
        }
    }

    /// The system batteries (present, scope not `Device`).
    public var batteries: [PowerSupply] {
        supplies.filter { $0.kind == .battery && $0.scope != .device && $0.isPresent != false }
    }

    public var description: String {
        ([powerSource.rawValue] + supplies.map(\.description) + problems).joined(separator: "; ")
    }

    /// Reads every supply under `root`/class/power_supply.
    ///
    /// One bad attribute hides only itself (each attribute is parsed on its own), and one bad entry
    /// (a link loop, a file) only itself, in ``problems``. A supply whose directory disappears between listing and
    /// reading is left out; an absent class directory means no supplies (a kernel without `CONFIG_POWER_SUPPLY` has
    /// none to report).
    ///
    /// - Throws: A ``SensorError`` when the class directory exists but cannot be listed, or `root` is gone.
    public static func read(root: String = "/sys") throws(SensorError) -> PowerSupplyReading {
        let read = try SysfsClass.read(
            root: root, className: "power_supply", attributes: { _ in PowerSupply.attributeNames },
            parse: { (name, texts, origin) in PowerSupply.parse(name: name, read: texts, origin: origin) })
        return PowerSupplyReading(supplies: read.devices, problems: read.problems)
    }
}
