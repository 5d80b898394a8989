/// One hardware-monitoring chip from `/sys/class/hwmon/hwmonN`.
///
/// Units: temperatures in degrees Celsius (°C, the kernel reports m°C), fan speeds in revolutions per minute (RPM),
/// voltages in volts (V, the kernel reports mV).
public struct HwmonChip: Sendable, Equatable, Encodable, CustomStringConvertible {
    /// The directory name, for example `hwmon2`.
    public let name: String
    /// The driver's chip name (`name` attribute), for example `coretemp` or `nct6775`.
    public let chip: String
    /// Temperature channels (`tempN_input`) in °C.
    public let temperatures: [Channel]
    /// Fan channels (`fanN_input`) in RPM.
    public let fans: [Channel]
    /// Voltage channels (`inN_input`) in V.
    public let voltages: [Channel]

    /// One input channel of a chip.
    public struct Channel: Sendable, Equatable, Encodable {
        /// The attribute stem, for example `temp1`.
        public let id: String
        /// The driver's label (`tempN_label`), or the stem when there is none.
        public let label: String
        /// The value in the channel kind's unit (°C, RPM or V).
        public let value: Double
    }

    /// Builds a chip from attribute texts keyed by attribute name; pure, it never reads files.
    ///
    /// Channels are found from the `…_input` keys present; a channel without a label is named by its stem.
    ///
    /// - Throws: A ``SensorError`` naming the first attribute under `origin` that does not parse or is out of range.
    public static func parse(name: String, attributes: [String: String], origin: String) throws(SensorError)
        -> HwmonChip
    {
        func channels(_ prefix: String, range: ClosedRange<Int>, divisor: Double) throws(SensorError) -> [Channel] {
            var result: [Channel] = []
            for key in attributes.keys where key.hasPrefix(prefix) && key.hasSuffix("_input") {
                let stem = String(key.dropLast("_input".count))
                guard Int(stem.dropFirst(prefix.count)) != nil, let text = attributes[key] else { continue }
                let raw = try AttributeParser.integer(text, path: origin + "/" + key, in: range)
                let label = attributes[stem + "_label"].map { $0.trimmingWhitespace() } ?? stem
                result.append(Channel(id: stem, label: label.isEmpty ? stem : label, value: Double(raw) / divisor))
            }
            return result.sorted { ($0.id.count, $0.id) < ($1.id.count, $1.id) }
        }
        return HwmonChip(
            name: name, chip: try AttributeParser.word(attributes["name"] ?? "", path: origin + "/name"),
            temperatures: try channels("temp", range: ThermalZone.absoluteZeroMillicelsius...1_000_000, divisor: 1000),
            fans: try channels("fan", range: 0...1_000_000, divisor: 1),
            voltages: try channels("in", range: -1_000_000...1_000_000, divisor: 1000))
    }

    /// Whether `attribute` is one a chip reading uses.
    static func isRelevant(_ attribute: String) -> Bool {
        guard attribute != "name" else { return true }
        guard attribute.hasSuffix("_input") || attribute.hasSuffix("_label") else { return false }
        return attribute.hasPrefix("temp") || attribute.hasPrefix("fan") || attribute.hasPrefix("in")
    }

    public var description: String {
        let parts =
            temperatures.map { "\($0.label) " + UnitFormat.fixed($0.value) + " °C" }
            + fans.map { "\($0.label) \(Int($0.value)) RPM" }
            + voltages.map { "\($0.label) " + UnitFormat.fixed($0.value, 3) + " V" }
        return "\(name) (\(chip)): " + (parts.isEmpty ? "no inputs" : parts.joined(separator: ", "))
    }
}
