import Glibc

/// A barometer: pressure in kPa with the altitude it implies (`pressure` channel).
///
/// The altitude comes from the international barometric formula for the standard atmosphere,
/// `h = 44330.77 m × (1 − (p / p₀)^0.190263)`, where `p₀` is the reference pressure at sea level (101.325 kPa
/// unless configured, for example with the local QNH). The relative altitude is the change since the first sample
/// after the monitor started, like a phone's altimeter.
public struct Barometer: IIOSensorKind {
    /// One barometer reading.
    public struct Value: Hashable, Sendable, Encodable, CustomStringConvertible {
        /// The pressure in kPa.
        public let kilopascals: Double
        /// The altitude in metres above the reference pressure level.
        public let altitude: Double
        /// The change of altitude in metres since the monitor started.
        public let relativeAltitude: Double
        /// When the sample was taken, in nanoseconds.
        public let timestamp: Int64

        /// Creates a reading.
        public init(kilopascals: Double, altitude: Double, relativeAltitude: Double, timestamp: Int64) {
            self.kilopascals = kilopascals
            self.altitude = altitude
            self.relativeAltitude = relativeAltitude
            self.timestamp = timestamp
        }

        public var description: String {
            "\(Vector3.format(kilopascals)) kPa, altitude \(Vector3.format(altitude)) m "
                + "(\(Vector3.format(relativeAltitude)) m since start)"
        }
    }

    public static let displayName = "Pressure"
    public static let channelType = "pressure"
    public static let isVector = false

    /// The standard sea-level pressure, 101.325 kPa.
    public static let standardPressure = 101.325

    /// The sea-level reference pressure in kPa.
    public let referencePressure: Double
    private var startAltitude: Double?

    /// Creates the kind with the standard sea-level pressure as reference.
    public init() {
        self.init(referencePressure: Barometer.standardPressure)
    }

    /// Creates the kind.
    ///
    /// - Parameter referencePressure: The sea-level pressure in kPa; a value that is not positive and finite is
    ///   replaced by the standard pressure.
    public init(referencePressure: Double) {
        self.referencePressure =
            referencePressure.isFinite && referencePressure > 0 ? referencePressure : Self.standardPressure
    }

    /// The altitude in metres at `pressure` kPa for a sea-level pressure of `reference` kPa.
    public static func altitude(pressure: Double, reference: Double = standardPressure) -> Double {
        44_330.77 * (1 - pow(pressure / reference, 0.190263))
    }

    public mutating func prepare(device: IIODevice) throws(SensorError) {
        startAltitude = nil
    }

    public mutating func value(from sample: IIOSample) -> Value {
        let altitude = Self.altitude(pressure: sample.scalar, reference: referencePressure)
        let start = startAltitude ?? altitude
        if altitude.isFinite { startAltitude = start }
        return Value(
            kilopascals: sample.scalar, altitude: altitude, relativeAltitude: altitude - start,
            timestamp: sample.timestamp)
    }
}
