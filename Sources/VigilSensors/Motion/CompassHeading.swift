/// One compass reading: where the device's top edge points, clockwise from north, and how that was found.
///
/// In JSON: `magneticHeading`, `trueHeading` and `declination` (with a declination), `method` (`device` or `fused`),
/// `tiltCompensated`, `fieldStrength` and `uncalibrated` (fused), and `timestamp`.
public struct CompassHeading: Hashable, Sendable, Encodable, CustomStringConvertible {
    /// The heading from magnetic north in degrees, 0 ≤ heading < 360.
    public let magneticHeading: Double
    /// The heading from true (geographic) north in degrees, 0 ≤ heading < 360: the magnetic heading plus the
    /// declination; nil without a declination.
    public let trueHeading: Double?
    /// The magnetic declination added for the true heading, in degrees, east positive; nil when none was given.
    public let declination: Double?
    /// Whether the device's own channel or the fusion of accelerometer and magnetometer gave the heading.
    public let method: MotionMethod
    /// Whether the heading holds however the device is tilted: always when fused; for a device channel, when it is
    /// `from_north_magnetic_tilt_comp`.
    public let isTiltCompensated: Bool
    /// The strength of the magnetic field in µT, when fused.
    public let fieldStrength: Double?
    /// Whether the field is far outside the Earth's range, so the magnetometer needs calibrating or sits beside a
    /// magnet (see ``FusedRotation/plausibleFieldStrength``); false when the strength is unknown.
    public let isUncalibrated: Bool
    /// When the sample was taken, in nanoseconds (the newer of the two, when fused).
    public let timestamp: Int64

    /// Creates a reading; the true heading is computed from the declination.
    ///
    /// - Parameters:
    ///   - magneticHeading: The heading from magnetic north in degrees, any value: it is brought into 0 ≤ h < 360.
    ///   - declination: The declination in degrees east, or nil.
    ///   - method: What gave the heading.
    ///   - isTiltCompensated: Whether the heading holds however the device is tilted.
    ///   - fieldStrength: The field's strength in µT, when known.
    ///   - isUncalibrated: Whether the field is far outside the Earth's range.
    ///   - timestamp: When the sample was taken, in nanoseconds.
    public init(
        magneticHeading: Double, declination: Double?, method: MotionMethod, isTiltCompensated: Bool,
        fieldStrength: Double?, isUncalibrated: Bool, timestamp: Int64
    ) {
        self.magneticHeading = RotationMatrix.normalizedDegrees(magneticHeading)
        self.declination = declination
        trueHeading = declination.map { RotationMatrix.normalizedDegrees(magneticHeading + $0) }
        self.method = method
        self.isTiltCompensated = isTiltCompensated
        self.fieldStrength = fieldStrength
        self.isUncalibrated = isUncalibrated
        self.timestamp = timestamp
    }

    /// The sixteen points of the compass, from north clockwise.
    private static let points = [
        "N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE", "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW",
    ]

    /// The point of the compass nearest `heading` degrees: `N`, `NNE`, … `NNW`.
    public static func point(_ heading: Double) -> String {
        points[Int((RotationMatrix.normalizedDegrees(heading) / 22.5).rounded()) % points.count]
    }

    private enum CodingKeys: String, CodingKey {
        case magneticHeading, trueHeading, declination, method
        case isTiltCompensated = "tiltCompensated"
        case fieldStrength
        case isUncalibrated = "uncalibrated"
        case timestamp
    }

    public var description: String {
        var text = "\(Self.headingText(magneticHeading)) magnetic"
        if let trueHeading { text += ", \(Self.headingText(trueHeading)) true" }
        text += " (\(method)"
        if method == .device && !isTiltCompensated { text += ", not tilt-compensated" }
        if let fieldStrength { text += ", field \(Vector3.format((fieldStrength * 10).rounded() / 10)) µT" }
        if isUncalibrated { text += ", uncalibrated" }
        return text + ")"
    }

    /// A heading with one decimal and its point of the compass: `123.4° ESE`; 359.96° shows as `0.0° N`.
    private static func headingText(_ heading: Double) -> String {
        let tenths = RotationMatrix.normalizedDegrees((heading * 10).rounded() / 10)
        return degrees(tenths) + " " + point(tenths)
    }

    /// An angle with one decimal and the degree sign: `123.4°`, `-5.0°`.
    static func degrees(_ angle: Double) -> String {
        let tenths = (angle * 10).rounded() / 10
        return (tenths == tenths.rounded() ? String(Int64(tenths)) + ".0" : String(tenths)) + "°"
    }
}
