/// One thermal zone from `/sys/class/thermal/thermal_zoneN`.
///
/// Units: temperatures in degrees Celsius (°C); the kernel reports millidegrees (m°C).
public struct ThermalZone: Sendable, Equatable, Encodable, CustomStringConvertible {
    /// The zone directory name, for example `thermal_zone0`.
    public let name: String
    /// What the zone measures (`type`), for example `x86_pkg_temp` or `acpitz`.
    public let type: String
    /// The temperature in °C, or `nil` when the sensor cannot be read now (some firmware zones refuse reads).
    public let temperatureCelsius: Double?
    /// The trip points, in index order.
    public let tripPoints: [TripPoint]
    /// What was left out or is not shown as a number, one line each naming the file: a trip point or temperature
    /// that could not be read or parsed, a temperature the driver marks invalid. Empty for a zone read cleanly.
    public let notes: [String]

    /// A temperature at which the kernel acts (`trip_point_K_type`, `trip_point_K_temp`).
    public struct TripPoint: Sendable, Equatable, Encodable, CustomStringConvertible {
        /// The index K.
        public let index: Int
        /// The action: `critical`, `hot`, `passive`, `active`.
        public let kind: String
        /// The trip temperature in °C; -274 when the trip is invalid (see ``isValid``).
        public let temperatureCelsius: Double
        /// Whether the trip has a temperature: false when the driver reports `THERMAL_TEMP_INVALID` (-274000 m°C),
        /// as iwlwifi does for trips it has not set.
        public let isValid: Bool

        public var description: String {
            "\(kind) at " + (isValid ? UnitFormat.fixed(temperatureCelsius) + " °C" : "invalid")
        }
    }

    /// The lowest temperature any sensor can report, in m°C (absolute zero).
    static let absoluteZeroMillicelsius = -273_150

    /// The kernel's `THERMAL_TEMP_INVALID` in m°C: a trip point or sensor without a valid temperature.
    static let invalidMillicelsius = -274_000

    /// Builds a zone from attribute texts keyed by attribute name; pure, it never reads files.
    ///
    /// One bad attribute hides only itself: a temperature that does not parse or lies outside absolute zero ...
    /// 1000 °C gives a `nil` temperature, a bad trip point is left out, each with a note naming the file. The
    /// kernel's `THERMAL_TEMP_INVALID` (-274000) is no error: an invalid trip point, or a `nil` temperature.
    ///
    /// - Throws: A ``SensorError`` naming `origin`/`type` when the zone's type is missing or empty.
    package static func parse(name: String, attributes: [String: String], origin: String) throws(SensorError)
        -> ThermalZone
    {
        try parse(name: name, read: AttributeTexts(texts: attributes), origin: origin)
    }

    /// Builds a zone from attribute texts and the attributes that could not be read, each failure a note.
    static func parse(name: String, read: AttributeTexts, origin: String) throws(SensorError) -> ThermalZone {
        if let failure = read.failures["type"] { throw failure }
        let attributes = read.texts
        let type = try AttributeParser.word(attributes["type"] ?? "", path: origin + "/type")
        var notes: [String] = []
        var temperature: Double?
        do throws(SensorError) {
            if let failure = read.failures["temp"] { throw failure }
            if let text = attributes["temp"] {
                let path = origin + "/temp"
                if try AttributeParser.integer(text, path: path) == invalidMillicelsius {
                    notes.append(
                        "\(path): \(invalidMillicelsius) m°C is THERMAL_TEMP_INVALID: the sensor has no reading")
                } else {
                    temperature = try celsius(text, path: path)
                }
            }
        } catch {
            notes.append(error.description)
        }
        var trips: [TripPoint] = []
        var index = 0
        while attributes["trip_point_\(index)_type"] != nil || read.failures["trip_point_\(index)_type"] != nil {
            do throws(SensorError) {
                trips.append(try tripPoint(index, read: read, origin: origin))
            } catch {
                notes.append(error.description)
            }
            index += 1
        }
        return ThermalZone(name: name, type: type, temperatureCelsius: temperature, tripPoints: trips, notes: notes)
    }

    /// Trip point `index`, or the error of its first bad attribute.
    private static func tripPoint(_ index: Int, read: AttributeTexts, origin: String) throws(SensorError) -> TripPoint {
        let prefix = "trip_point_\(index)_"
        for suffix in ["type", "temp"] {
            if let failure = read.failures[prefix + suffix] { throw failure }
        }
        let path = origin + "/" + prefix
        guard let text = read.texts[prefix + "temp"] else { throw SensorError.notFound(path: path + "temp") }
        let kind = try AttributeParser.word(read.texts[prefix + "type"] ?? "", path: path + "type")
        if try AttributeParser.integer(text, path: path + "temp") == invalidMillicelsius {
            return TripPoint(
                index: index, kind: kind, temperatureCelsius: Double(invalidMillicelsius) / 1000, isValid: false)
        }
        return TripPoint(
            index: index, kind: kind, temperatureCelsius: try celsius(text, path: path + "temp"), isValid: true)
    }

    /// Converts a millidegree attribute to °C, checking it lies between absolute zero and 1000 °C.
    static func celsius(_ text: String, path: String) throws(SensorError) -> Double {
        Double(try AttributeParser.integer(text, path: path, in: absoluteZeroMillicelsius...1_000_000, unit: "m°C"))
            / 1000
    }

    /// The attribute names of a zone with `tripCount` trip points.
    static func attributeNames(tripCount: Int) -> [String] {
        ["type", "temp"] + (0..<tripCount).flatMap { ["trip_point_\($0)_type", "trip_point_\($0)_temp"] }
    }

    public var description: String {
        let temperature = temperatureCelsius.map { UnitFormat.fixed($0) + " °C" } ?? "unreadable"
        let notesSuffix = notes.isEmpty ? "" : " [" + notes.joined(separator: "; ") + "]"
        return "\(name) (\(type)): \(temperature)" + notesSuffix
    }
}
