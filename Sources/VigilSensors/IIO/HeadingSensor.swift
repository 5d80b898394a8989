/// A device's own compass heading: the `rot` channel `from_north_magnetic_tilt_comp`, else `from_north_magnetic`,
/// which HID sensor hubs (`magn_3d`) compute in their firmware.
///
/// The value after `_scale` and `_offset` is taken in degrees, as iio-sensor-proxy reads it and as the only driver
/// that has the channel (`hid-sensor-magn-3d`) reports it. (The IIO ABI says radians, which no driver delivers.)
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
