/// The compass: the heading of the device's top edge from magnetic north, and from true north given the local
/// magnetic declination.
///
/// A device channel's heading is taken as is (``HeadingSensor``); a fused one is the heading of the rotation from
/// gravity and the field (``RotationMatrix/heading``), tilt-compensated, with the field's strength.
public struct Compass: MotionKind {
    /// A device's own channel for the kind.
    public typealias DeviceKind = HeadingSensor

    public static let displayName = "Compass"

    /// The largest declination accepted, east or west, in degrees.
    public static let declinationLimit = 180.0

    /// The magnetic declination added to the magnetic heading for the true heading, in degrees, east positive; nil
    /// for the magnetic heading alone.
    public let declination: Double?

    /// Creates a compass of magnetic headings alone.
    public init() {
        declination = nil
    }

    /// Creates a compass that also gives true headings.
    ///
    /// - Parameter declination: The local magnetic declination in degrees, east positive (the angle from true north
    ///   to magnetic north, as a chart or NOAA's calculator gives it), or nil for magnetic headings alone.
    /// - Throws: ``SensorError/invalidArgument(name:value:reason:)`` for a declination that is not a finite number
    ///   from −180 to 180.
    public init(declination: Double?) throws(SensorError) {
        if let declination, !(declination.isFinite && abs(declination) <= Self.declinationLimit) {
            throw .invalidArgument(
                name: "declination", value: String(declination),
                reason: "a declination is a number of degrees from -180 (west) to 180 (east)")
        }
        self.declination = declination
    }

    /// The device's heading, with the true heading when a declination is set.
    public func value(from device: HeadingSensor.Value) -> CompassHeading {
        CompassHeading(
            magneticHeading: device.degrees, declination: declination, method: .device,
            isTiltCompensated: device.isTiltCompensated, fieldStrength: nil, isUncalibrated: false,
            timestamp: device.timestamp)
    }

    /// The fused rotation's heading, with the true heading when a declination is set.
    public func value(from fused: FusedRotation) -> CompassHeading {
        CompassHeading(
            magneticHeading: fused.rotation.heading, declination: declination, method: .fused, isTiltCompensated: true,
            fieldStrength: fused.fieldStrength, isUncalibrated: fused.isUncalibrated, timestamp: fused.timestamp)
    }
}
