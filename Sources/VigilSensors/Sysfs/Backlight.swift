/// One backlight from `/sys/class/backlight`.
///
/// Units: brightness values are the driver's raw steps (0...``maximumBrightness``); ``fraction`` is 0...1.
public struct Backlight: Sendable, Equatable, Encodable, CustomStringConvertible {
    /// The device name, for example `intel_backlight`.
    public let name: String
    /// The requested brightness (`brightness`), in driver steps.
    public let brightness: Int
    /// The largest brightness (`max_brightness`), in driver steps; always greater than zero.
    public let maximumBrightness: Int
    /// The brightness the hardware reports (`actual_brightness`), in driver steps; the requested one if absent.
    public let actualBrightness: Int
    /// The actual brightness as a fraction of the maximum, 0...1.
    public let fraction: Double

    /// Builds a backlight from attribute texts keyed by attribute name; pure, it never reads files.
    ///
    /// - Throws: A ``SensorError`` naming the attribute under `origin` that is missing, does not parse, or lies outside
    ///   0...`max_brightness` (a maximum of 0 is out of range too).
    public static func parse(name: String, attributes: [String: String], origin: String) throws(SensorError)
        -> Backlight
    {
        guard let maximumText = attributes["max_brightness"] else {
            throw SensorError.notFound(path: origin + "/max_brightness")
        }
        guard let brightnessText = attributes["brightness"] else {
            throw SensorError.notFound(path: origin + "/brightness")
        }
        let maximum = try AttributeParser.integer(maximumText, path: origin + "/max_brightness", in: 1...Int(Int32.max))
        let brightness = try AttributeParser.integer(brightnessText, path: origin + "/brightness", in: 0...maximum)
        let actual = try attributes["actual_brightness"].map { (text) throws(SensorError) in
            try AttributeParser.integer(text, path: origin + "/actual_brightness", in: 0...maximum)
        }
        return Backlight(
            name: name, brightness: brightness, maximumBrightness: maximum, actualBrightness: actual ?? brightness,
            fraction: Double(actual ?? brightness) / Double(maximum))
    }

    /// The attributes a backlight reading is built from.
    static let attributeNames = ["brightness", "max_brightness", "actual_brightness"]

    public var description: String {
        "\(name): " + UnitFormat.percent(fraction) + " (\(actualBrightness)/\(maximumBrightness))"
    }
}
