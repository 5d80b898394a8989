/// A gyroscope: rotation rate in rad/s about the device's axes (`anglvel` channels, mount matrix applied).
public struct Gyroscope: IIOSensorKind {
    /// One gyroscope reading.
    public struct Value: Hashable, Sendable, Encodable, CustomStringConvertible {
        /// The rotation rate in rad/s.
        public let rotationRate: Vector3
        /// When the sample was taken, in nanoseconds.
        public let timestamp: Int64

        /// Creates a reading.
        public init(rotationRate: Vector3, timestamp: Int64) {
            self.rotationRate = rotationRate
            self.timestamp = timestamp
        }

        public var description: String { "\(rotationRate) rad/s" }
    }

    public static let displayName = "Gyroscope"
    public static let channelType = "anglvel"
    public static let isVector = true

    /// Creates the kind.
    public init() {}

    public mutating func value(from sample: IIOSample) -> Value {
        Value(rotationRate: sample.vector, timestamp: sample.timestamp)
    }
}
