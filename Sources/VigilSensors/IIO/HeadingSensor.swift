/// A device's own compass heading: the `rot` channel `from_north_magnetic_tilt_comp`, else `from_north_magnetic`,
/// which HID sensor hubs (`magn_3d`) compute in their firmware.
///
/// The value after `_scale` and `_offset` is taken in degrees: the IIO ABI says radians, but `hid-sensor-magn-3d`, the
/// driver that has the channel, passes the hub's degrees on and iio-sensor-proxy reads them so. A value beyond a full
/// turn either way is no heading in degrees (a hub reporting tenths of a degree whose unit the driver's `in_rot_scale`
/// of 1 does not convert): such a sample is `unavailable` with that reason rather than a wrong heading.
public struct HeadingSensor: IIOSensorKind {
    /// One heading reading.
    public struct Value: Hashable, Sendable, Encodable, CustomStringConvertible {
        /// The heading from magnetic north in degrees, 0 ≤ heading < 360.
        public let degrees: Double
        /// Whether the channel is the tilt-compensated one.
        public let isTiltCompensated: Bool
        /// When the sample was taken, in nanoseconds.
        public let timestamp: Int64

        /// Creates a reading; `degrees` is brought into 0 ≤ degrees < 360.
        public init(degrees: Double, isTiltCompensated: Bool, timestamp: Int64) {
            self.degrees = RotationMatrix.normalizedDegrees(degrees)
            self.isTiltCompensated = isTiltCompensated
            self.timestamp = timestamp
        }

        public var description: String {
            CompassHeading.degrees(degrees) + (isTiltCompensated ? " (tilt-compensated)" : "")
        }
    }

    /// The channel modifiers read, the tilt-compensated one first.
    public static let modifiers = ["from_north_magnetic_tilt_comp", "from_north_magnetic"]

    public static let displayName = "Heading"
    public static let channelType = "rot"
    public static let isVector = false
    public static let channelSelection = IIOChannelSelection.firstOf(modifiers)

    private var isTiltCompensated = true

    /// Creates the kind.
    public init() {}

    /// Notes whether the device's channel is the tilt-compensated one.
    public mutating func prepare(device: IIODevice) throws(SensorError) {
        isTiltCompensated = device.channels(ofType: Self.channelType).contains { $0.modifier == Self.modifiers[0] }
    }

    public mutating func value(from sample: IIOSample) -> Value {
        Value(degrees: sample.scalar, isTiltCompensated: isTiltCompensated, timestamp: sample.timestamp)
    }
}

extension HeadingSensor: IIOSampleRequirements {
    /// A heading beyond 360° either way is not in degrees: the device's scale is off.
    static func problem(with sample: IIOSample) -> String? {
        guard abs(sample.scalar) > 360 else { return nil }
        return "heading \(Vector3.format(sample.scalar))° is beyond a full turn: the device's in_rot_scale does not "
            + "give degrees"
    }
}
