/// What a GNSS receiver reported for one UTC time: the position with how good it is, or no fix and how many
/// satellites are in view.
///
/// Every field but ``receiver`` and ``mode`` is nil where the receiver did not say (a receiver without GST gives no
/// errors; one without a fix gives no position). The satellites in view and the DOPs persist from the last epoch
/// that gave them, since receivers send GSV every few seconds only.
public struct LocationFix: Sendable, Equatable, Encodable, CustomStringConvertible {
    /// The device read, for example `/dev/gnss0` or `/dev/ttyACM0`.
    public var receiver: String
    /// The receiver's type from `class/gnss/gnssN/type` (`UBX`, `SiRF`, `MTK`, `NMEA`), or nil for a serial device.
    public var receiverType: String?
    /// Whether there is a fix, and its dimension.
    public var mode: FixMode
    /// The UTC time of the fix, once the receiver gave a date (RMC or ZDA).
    public var time: FixTime?
    /// How the position was found (GGA).
    public var quality: FixQuality?
    /// Latitude in degrees, north positive (WGS 84).
    public var latitude: Double?
    /// Longitude in degrees, east positive (WGS 84).
    public var longitude: Double?
    /// Altitude above mean sea level, in metres (GGA).
    public var altitude: Double?
    /// The height of the geoid above the WGS 84 ellipsoid, in metres: altitude plus this is the ellipsoidal height.
    public var geoidSeparation: Double?
    /// Speed over ground, in metres per second (RMC, or VTG).
    public var speed: Double?
    /// Course over ground, in degrees from true north (RMC, or VTG).
    public var course: Double?
    /// Satellites used in the fix (GGA, or those GSA lists).
    public var satellitesUsed: Int?
    /// Satellites in view, summed over the constellations (GSV).
    public var satellitesInView: Int?
    /// Horizontal dilution of precision (GSA, or GGA).
    public var hdop: Double?
    /// Vertical dilution of precision (GSA).
    public var vdop: Double?
    /// Position dilution of precision (GSA).
    public var pdop: Double?
    /// The latitude's standard deviation in metres (GST).
    public var latitudeError: Double?
    /// The longitude's standard deviation in metres (GST).
    public var longitudeError: Double?
    /// The altitude's standard deviation in metres (GST).
    public var altitudeError: Double?

    /// As JSON the fix's own time is `fixTime`: a reading's `time` is when it was published, which the envelope of
    /// every source already says.
    private enum CodingKeys: String, CodingKey {
        case receiver, receiverType, mode, time = "fixTime", quality, latitude, longitude, altitude, geoidSeparation
        case speed, course, satellitesUsed, satellitesInView, hdop, vdop, pdop, latitudeError, longitudeError
        case altitudeError
    }

    /// A reading of `receiver` with nothing decoded yet.
    public init(receiver: String, receiverType: String? = nil, mode: FixMode = .waiting) {
        self.receiver = receiver
        self.receiverType = receiverType
        self.mode = mode
    }

    /// The horizontal standard deviation in metres, from GST's latitude and longitude errors.
    public var horizontalError: Double? {
        guard let latitudeError, let longitudeError else { return nil }
        return (latitudeError * latitudeError + longitudeError * longitudeError).squareRoot()
    }

    /// For example `49.130889° N 122.719957° W, 516.7 m, 0.54 m/s course 323.1°, 2d fix (gps), 3 satellites used of
    /// 3 in view, HDOP 9.97 at 2006-08-10T03:08:58.000Z`, or `no fix, 3 satellites in view`.
    public var description: String {
        guard mode.hasFix, let latitude, let longitude else {
            if mode == .waiting { return "no fix yet: nothing decoded from \(receiver)" }
            return "no fix, \(satellitesInView ?? 0) satellites in view"
        }
        var parts = [
            UnitFormat.fixed(abs(latitude), 6) + "° " + (latitude < 0 ? "S" : "N") + " "
                + UnitFormat.fixed(abs(longitude), 6)
                + "° " + (longitude < 0 ? "W" : "E")
        ]
        if let altitude { parts.append(UnitFormat.fixed(altitude, 1) + " m") }
        if let speed {
            parts.append(
                UnitFormat.fixed(speed, 2) + " m/s" + (course.map { " course " + UnitFormat.fixed($0, 1) + "°" } ?? ""))
        }
        parts.append("\(mode) fix" + (quality.map { " (\($0))" } ?? ""))
        if let satellitesUsed {
            parts.append("\(satellitesUsed) satellites used" + (satellitesInView.map { " of \($0) in view" } ?? ""))
        }
        if let hdop { parts.append("HDOP " + UnitFormat.fixed(hdop, 2)) }
        if let horizontalError { parts.append("±" + UnitFormat.fixed(horizontalError, 1) + " m") }
        return parts.joined(separator: ", ") + (time.map { " at \($0)" } ?? "")
    }

}
