/// A device's own rotation: the `rot` channel `quaternion`, four values `x y z w`, which HID sensor hubs
/// (`dev_rotation`) and IMUs with on-chip fusion (`bno055`) compute in their firmware.
///
/// Polled, `in_rot_quaternion_raw` holds the four integers on one line; buffered, the scan element repeats four
/// times (`le:s16/32X4>>0`). Each is scaled by `in_rot_quaternion_scale` (or `in_rot_scale`) and the quaternion is
/// normalized; one that is zero (a hub before its first fusion) is no rotation, and the reading says so. The
/// quaternion turns the device's frame into the world's (east, north, up), as Android's rotation vector does.
public struct RotationSensor: IIOSensorKind {
    /// One rotation reading.
    public struct Value: Hashable, Sendable, Encodable, CustomStringConvertible {
        /// The rotation, normalized with `w ≥ 0`.
        public let quaternion: Quaternion
        /// When the sample was taken, in nanoseconds.
        public let timestamp: Int64

        /// Creates a reading.
        public init(quaternion: Quaternion, timestamp: Int64) {
            self.quaternion = quaternion
            self.timestamp = timestamp
        }

        public var description: String { quaternion.description }
    }

    public static let displayName = "Rotation"
    public static let channelType = "rot"
    public static let isVector = false
    public static let channelSelection = IIOChannelSelection.repeated("quaternion", count: 4)

    /// Creates the kind.
    public init() {}

    public mutating func value(from sample: IIOSample) -> Value {
        Value(quaternion: Self.quaternion(from: sample.values)?.normalized ?? .identity, timestamp: sample.timestamp)
    }

    /// The quaternion of the channel's values in the kernel's order, `x y z w`; nil without four values.
    static func quaternion(from values: [Double]) -> Quaternion? {
        guard values.count == 4 else { return nil }
        return Quaternion(w: values[3], x: values[0], y: values[1], z: values[2])
    }
}

extension RotationSensor: IIOSampleRequirements {
    /// A quaternion that is zero (or too small or large to normalize) is no rotation.
    static func problem(with sample: IIOSample) -> String? {
        guard let quaternion = quaternion(from: sample.values) else {
            return "the quaternion has \(sample.values.count) values, not 4"
        }
        guard quaternion.normalized == nil else { return nil }
        return "the quaternion (\(quaternion)) is zero or cannot be normalized: no rotation"
    }
}
