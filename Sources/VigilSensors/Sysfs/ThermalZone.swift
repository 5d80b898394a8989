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

    /// A temperature at which the kernel acts (`trip_point_K_type`, `trip_point_K_temp`).
    public struct TripPoint: Sendable, Equatable, Encodable {
        /// The index K.
        public let index: Int
        /// The action: `critical`, `hot`, `passive`, `active`.
        public let kind: String
        /// The trip temperature in °C.
        public let temperatureCelsius: Double
    }

    /// The lowest temperature any sensor can report, in m°C (absolute zero).
    static let absoluteZeroMillicelsius = -273_150

    /// Builds a zone from attribute texts keyed by attribute name; pure, it never reads files.
    ///
    /// - Throws: A ``SensorError`` naming the attribute under `origin` that does not parse, or a temperature below
    ///   absolute zero or above 1000 °C.
    public static func parse(name: String, attributes: [String: String], origin: String) throws(SensorError)
        -> ThermalZone
    {
        let type = try AttributeParser.word(attributes["type"] ?? "", path: origin + "/type")
        let temperature = try attributes["temp"].map { (text) throws(SensorError) in
            try celsius(text, path: origin + "/temp")
        }
        var trips: [TripPoint] = []
        var index = 0
        while let kind = attributes["trip_point_\(index)_type"] {
            let path = origin + "/trip_point_\(index)_"
            guard let text = attributes["trip_point_\(index)_temp"] else {
                throw SensorError.notFound(path: path + "temp")
            }
            trips.append(
                TripPoint(
                    index: index, kind: try AttributeParser.word(kind, path: path + "type"),
                    temperatureCelsius: try celsius(text, path: path + "temp")))
            index += 1
        }
        return ThermalZone(name: name, type: type, temperatureCelsius: temperature, tripPoints: trips)
    }

    /// Converts a millidegree attribute to °C, checking it lies between absolute zero and 1000 °C.
    static func celsius(_ text: String, path: String) throws(SensorError) -> Double {
        Double(try AttributeParser.integer(text, path: path, in: absoluteZeroMillicelsius...1_000_000)) / 1000
    }

    /// The attribute names of a zone with `tripCount` trip points.
    static func attributeNames(tripCount: Int) -> [String] {
        ["type", "temp"] + (0..<tripCount).flatMap { ["trip_point_\($0)_type", "trip_point_\($0)_temp"] }
    }

    public var description: String {
        let temperature = temperatureCelsius.map { UnitFormat.fixed($0) + " °C" } ?? "unreadable"
        return "\(name) (\(type)): \(temperature)"
    }
}
