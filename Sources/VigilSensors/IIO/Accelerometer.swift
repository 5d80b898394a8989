/// An accelerometer: acceleration in m/s² along the device's axes (`accel` channels, mount matrix applied).
public struct Accelerometer: IIOSensorKind {
    /// One accelerometer reading.
    public struct Value: Hashable, Sendable, Encodable, CustomStringConvertible {
        /// The acceleration in m/s², gravity included.
        public let acceleration: Vector3
        /// When the sample was taken, in nanoseconds.
        public let timestamp: Int64

        /// Creates a reading.
        public init(acceleration: Vector3, timestamp: Int64) {
            self.acceleration = acceleration
            self.timestamp = timestamp
        }

        public var description: String { "\(acceleration) m/s²" }
    }

    public static let displayName = "Accelerometer"
    public static let channelType = "accel"
    public static let isVector = true

    /// Creates the kind.
    public init() {}

    public mutating func value(from sample: IIOSample) -> Value {
        Value(acceleration: sample.vector, timestamp: sample.timestamp)
    }
}
