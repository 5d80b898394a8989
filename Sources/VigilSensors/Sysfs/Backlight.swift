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
    /// What is not shown as reported, one line each naming the file: an `actual_brightness` above the maximum
    /// (clamped to it), one that cannot be read or parsed (the requested brightness is used). Empty normally.
    public let notes: [String]

    /// Builds a backlight from attribute texts keyed by attribute name; pure, it never reads files.
    ///
    /// An `actual_brightness` above `max_brightness` (some panels' firmware over-reports) is clamped to the maximum,
    /// a fraction of 1.0, with a note; one that does not parse is replaced by `brightness`, with a note.
    ///
    /// - Throws: A ``SensorError`` naming the attribute under `origin` that is missing, does not parse, or lies outside
    ///   its range: `max_brightness` 1...2³¹−1, `brightness` 0...`max_brightness`.
    package static func parse(name: String, attributes: [String: String], origin: String) throws(SensorError)
        -> Backlight
    {
        try parse(name: name, read: AttributeTexts(texts: attributes), origin: origin)
    }

    /// Builds a backlight from attribute texts and the attributes that could not be read.
    static func parse(name: String, read: AttributeTexts, origin: String) throws(SensorError) -> Backlight {
        for required in ["max_brightness", "brightness"] {
            if let failure = read.failures[required] { throw failure }
            guard read.texts[required] != nil else { throw SensorError.notFound(path: origin + "/" + required) }
        }
        let maximum = try AttributeParser.integer(
            read.texts["max_brightness"] ?? "", path: origin + "/max_brightness", in: 1...Int(Int32.max))
        let brightness = try AttributeParser.integer(
            read.texts["brightness"] ?? "", path: origin + "/brightness", in: 0...maximum)
        var notes: [String] = []
        var actual = brightness
        do throws(SensorError) {
            if let failure = read.failures["actual_brightness"] { throw failure }
            if let text = read.texts["actual_brightness"] {
                let path = origin + "/actual_brightness"
                let reported = try AttributeParser.integer(text, path: path, in: 0...Int.max)
                if reported > maximum {
                    notes.append("\(path): \(reported) is above max_brightness \(maximum); clamped to \(maximum)")
                }
                actual = min(reported, maximum)
            }
        } catch {
            notes.append(error.description + "; the requested brightness is shown")
        }
        return Backlight(
            name: name, brightness: brightness, maximumBrightness: maximum, actualBrightness: actual,
            fraction: Double(actual) / Double(maximum), notes: notes)
    }

    /// The attributes a backlight reading is built from.
    static let attributeNames = ["brightness", "max_brightness", "actual_brightness"]

    public var description: String {
        let notesSuffix = notes.isEmpty ? "" : " [" + notes.joined(separator: "; ") + "]"
        return "\(name): " + UnitFormat.percent(fraction) + " (\(actualBrightness)/\(maximumBrightness))" + notesSuffix
    }
}
