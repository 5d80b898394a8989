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
    /// Inputs left out because they could not be read or parsed, or lie outside what the kernel documents, one line
    /// each naming the file; empty for a chip read cleanly.
    public let notes: [String]

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
    /// Channels are found from the `…_input` keys present; a channel without a label is named by its stem. One bad
    /// input hides only itself: it is left out of its channels and said in ``notes``.
    ///
    /// - Throws: A ``SensorError`` naming `origin`/`name` when the chip's name is missing or empty: without it the
    ///   chip cannot be told apart.
    package static func parse(name: String, attributes: [String: String], origin: String) throws(SensorError)
        -> HwmonChip
    {
        try parse(name: name, read: AttributeTexts(texts: attributes), origin: origin)
    }

    /// Builds a chip from attribute texts and the attributes that could not be read, each failure a note.
    static func parse(name: String, read: AttributeTexts, origin: String) throws(SensorError) -> HwmonChip {
        if let failure = read.failures["name"] { throw failure }
        let chip = try AttributeParser.word(read.texts["name"] ?? "", path: origin + "/name")
        var notes: [String] = []
        func channels(_ prefix: String, range: ClosedRange<Int>, unit: String, divisor: Double) -> [Channel] {
            var result: [Channel] = []
            let keys = Set(read.texts.keys).union(read.failures.keys)
            for key in keys.sorted() where key.hasPrefix(prefix) && key.hasSuffix("_input") {
                let stem = String(key.dropLast("_input".count))
                guard Int(stem.dropFirst(prefix.count)) != nil else { continue }
                do throws(SensorError) {
                    if let failure = read.failures[key] { throw failure }
                    guard let text = read.texts[key] else { continue }
                    let raw = try AttributeParser.integer(text, path: origin + "/" + key, in: range, unit: unit)
                    let label = read.texts[stem + "_label"].map { $0.trimmingWhitespace() } ?? stem
                    result.append(Channel(id: stem, label: label.isEmpty ? stem : label, value: Double(raw) / divisor))
                } catch {
                    notes.append(error.description)
                }
            }
            return result.sorted { ($0.id.count, $0.id) < ($1.id.count, $1.id) }
        }
        let temperatures = channels(
            "temp", range: ThermalZone.absoluteZeroMillicelsius...1_000_000, unit: "m°C", divisor: 1000)
        let fans = channels("fan", range: 0...1_000_000, unit: "RPM", divisor: 1)
        let voltages = channels("in", range: -1_000_000...1_000_000, unit: "mV", divisor: 1000)
        return HwmonChip(
            name: name, chip: chip, temperatures: temperatures, fans: fans, voltages: voltages, notes: notes)
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
            + fans.map { "\($0.label) " + UnitFormat.fixed($0.value, 0) + " RPM" }
            + voltages.map { "\($0.label) " + UnitFormat.fixed($0.value, 3) + " V" }
        let notesSuffix = notes.isEmpty ? "" : " [" + notes.joined(separator: "; ") + "]"
        return "\(name) (\(chip)): " + (parts.isEmpty ? "no inputs" : parts.joined(separator: ", ")) + notesSuffix
    }
}
