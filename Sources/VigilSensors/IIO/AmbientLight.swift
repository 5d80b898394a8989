/// An ambient light sensor: illuminance in lux (the `illuminance` channel).
public struct AmbientLight: IIOSensorKind {
    /// One ambient light reading.
    public struct Value: Hashable, Sendable, Encodable, CustomStringConvertible {
        /// The illuminance in lux.
        public let lux: Double
        /// When the sample was taken, in nanoseconds.
        public let timestamp: Int64

        /// Creates a reading.
        public init(lux: Double, timestamp: Int64) {
            self.lux = lux
            self.timestamp = timestamp
        }

        public var description: String { "\(Vector3.format(lux)) lx" }
    }

    public static let displayName = "Ambient light"
    public static let channelType = "illuminance"
    public static let isVector = false

    /// Creates the kind.
    public init() {}

    public mutating func value(from sample: IIOSample) -> Value {
        Value(lux: sample.scalar, timestamp: sample.timestamp)
    }
}
