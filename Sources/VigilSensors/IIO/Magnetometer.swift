/// A magnetometer: the magnetic field along the device's axes (`magn` channels, mount matrix applied).
///
/// IIO reports the field in Gauss; the reading gives it in Gauss and in microtesla (1 G = 100 µT).
public struct Magnetometer: IIOSensorKind {
    /// One magnetometer reading.
    public struct Value: Hashable, Sendable, Encodable, CustomStringConvertible {
        /// The field in Gauss.
        public let gauss: Vector3
        /// The field in microtesla.
        public let microtesla: Vector3
        /// When the sample was taken, in nanoseconds.
        public let timestamp: Int64

        /// Creates a reading from the field in Gauss.
        public init(gauss: Vector3, timestamp: Int64) {
            self.gauss = gauss
            self.microtesla = gauss.scaled(by: 100)
            self.timestamp = timestamp
        }

        public var description: String { "\(microtesla) µT" }
    }

    public static let displayName = "Magnetometer"
    public static let channelType = "magn"
    public static let isVector = true

    /// Creates the kind.
    public init() {}

    public mutating func value(from sample: IIOSample) -> Value {
        Value(gauss: sample.vector, timestamp: sample.timestamp)
    }
}
