/// One IIO input channel of a device, with the sysfs files that give its value.
///
/// A channel is read in SI units: `_input` as is when the driver provides it, otherwise `(raw + offset) × scale` from
/// `_raw`, the channel's own `_scale` and `_offset` or the ones shared by its type (`in_accel_scale`).
public struct IIOChannel: Hashable, Sendable, CustomStringConvertible {
    /// The channel type: `accel`, `anglvel`, `magn`, `illuminance`, `proximity`, `pressure`, …
    public let type: String
    /// The channel number after the type, as in `in_illuminance0_raw`.
    public let index: Int?
    /// The modifier, usually an axis (`x`, `y`, `z`).
    public let modifier: String?
    /// The channel's name without `in_` and attribute: `accel_x`, `illuminance0`.
    public let name: String
    /// `in_<name>_raw`, when present.
    package let rawPath: String?
    /// `in_<name>_input`, when present: already in SI units.
    package let inputPath: String?
    /// The channel's own `_scale`, or the one shared by its type, when present.
    package let scalePath: String?
    /// The channel's own `_offset`, or the one shared by its type, when present.
    package let offsetPath: String?

    init(
        type: String, index: Int?, modifier: String?, name: String, rawPath: String?, inputPath: String?,
        scalePath: String?, offsetPath: String?
    ) {
        self.type = type
        self.index = index
        self.modifier = modifier
        self.name = name
        self.rawPath = rawPath
        self.inputPath = inputPath
        self.scalePath = scalePath
        self.offsetPath = offsetPath
    }

    /// Reads the channel's scale and offset (1 and 0 when the files are absent).
    ///
    /// - Throws: ``SensorError`` when a file cannot be read or parsed, or the scale is zero.
    package func readCalibration() throws(SensorError) -> ChannelCalibration {
        let scale = try scalePath.map { path throws(SensorError) in try SysfsFile.readDouble(path) } ?? 1
        let offset = try offsetPath.map { path throws(SensorError) in try SysfsFile.readDouble(path) } ?? 0
        return try ChannelCalibration(scale: scale, offset: offset, path: scalePath ?? offsetPath ?? name)
    }

    /// Reads the channel's current value in SI units.
    ///
    /// - Parameter calibration: The calibration to apply to `_raw`; read from sysfs when nil.
    /// - Throws: ``SensorError`` when the value cannot be read or parsed (a vanished device, an unreadable raw
    ///   value), the scale is zero, or ``SensorError/valueOutOfRange(path:value:range:)`` when the calibrated value
    ///   overflows to infinity (a huge raw value times the scale).
    package func readValue(calibration: ChannelCalibration? = nil) throws(SensorError) -> Double {
        if let inputPath { return try SysfsFile.readDouble(inputPath) }
        guard let rawPath else { throw SensorError.notFound(path: "in_\(name)_raw") }
        let raw = try SysfsFile.readDouble(rawPath)
        if let calibration { return try calibration.checkedApply(raw, path: rawPath) }
        return try readCalibration().checkedApply(raw, path: rawPath)
    }

    /// Reads a channel whose attribute holds `count` values on one line, separated by spaces, each in SI units: the
    /// kernel prints a multi-value channel so (`IIO_VAL_INT_MULTIPLE`; `in_rot_quaternion_raw` is `x y z w`).
    ///
    /// - Parameters:
    ///   - count: How many values the line must hold.
    ///   - calibration: The calibration to apply to each raw value; read from sysfs when nil.
    /// - Throws: ``SensorError/malformedValue(path:text:expected:)`` when the line does not hold exactly `count`
    ///   finite numbers, and what ``readValue(calibration:)`` throws.
    package func readValues(count: Int, calibration: ChannelCalibration? = nil) throws(SensorError) -> [Double] {
        guard let path = inputPath ?? rawPath else { throw SensorError.notFound(path: "in_\(name)_raw") }
        let text = try SysfsFile.readText(path)
        let fields = text.split { $0 == " " || $0 == "\t" }
        let numbers = fields.compactMap { Double($0) }.filter(\.isFinite)
        guard fields.count == count, numbers.count == count else {
            throw SensorError.malformedValue(path: path, text: text, expected: "\(count) numbers on one line")
        }
        if inputPath != nil { return numbers }
        let applied: ChannelCalibration
        if let calibration { applied = calibration } else { applied = try readCalibration() }
        var values: [Double] = []
        for number in numbers { values.append(try applied.checkedApply(number, path: path)) }
        return values
    }

    public var description: String {
        let source = inputPath != nil ? "input" : "raw"
        return "\(name) (\(source))"
    }
}
