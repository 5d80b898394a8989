/// One kind of IIO sensor: which channels it reads and how a sample becomes its value.
///
/// ``IIOSensorMonitor`` does the reading (polled or buffered) and converts raw values to SI units; a kind names the
/// channel type and turns the SI values into its reading, keeping whatever state that needs (the starting altitude,
/// the proximity state for hysteresis).
public protocol IIOSensorKind: Sendable {
    /// The value the sensor reports.
    associatedtype Value: Sendable, Equatable, Encodable, CustomStringConvertible

    /// A short human name, for example "Accelerometer".
    static var displayName: String { get }

    /// The IIO channel type: `accel`, `anglvel`, `magn`, `illuminance`, `proximity`, `pressure`.
    static var channelType: String { get }

    /// Whether the sensor reads the `x`, `y` and `z` channels as one vector (with the mount matrix applied) rather
    /// than one scalar channel; the default ``IIOSensorKind/channelSelection`` follows it.
    static var isVector: Bool { get }

    /// Which channels of ``channelType`` the sensor reads: by default ``IIOChannelSelection/vector`` when
    /// ``isVector``, else ``IIOChannelSelection/scalar``; a kind that reads particular modified channels (a heading,
    /// a quaternion) says which.
    static var channelSelection: IIOChannelSelection { get }

    /// Creates the kind with its default settings.
    init()

    /// Prepares for a new run on `device`: forgets state from an earlier run and reads any attribute it needs.
    ///
    /// - Throws: ``SensorError`` when an attribute the kind needs cannot be read.
    mutating func prepare(device: IIODevice) throws(SensorError)

    /// Turns one sample into a value.
    ///
    /// - Parameter sample: The SI values, as many as ``IIOSensorKind/channelSelection`` reads (x, y, z in the device's frame for a
    ///   vector, one value for a scalar), and the timestamp.
    mutating func value(from sample: IIOSample) -> Value
}

/// One sample of an IIO sensor in SI units.
public struct IIOSample: Hashable, Sendable {
    /// The values in SI units: x, y, z for a vector (mount matrix applied), one value, or a repeated channel's values
    /// in the kernel's order.
    public let values: [Double]
    /// When the sample was taken, in nanoseconds: the scan's timestamp in buffered mode, `CLOCK_REALTIME` when
    /// polled (the IIO default timestamp clock).
    public let timestamp: Int64

    /// Creates a sample.
    public init(values: [Double], timestamp: Int64) {
        self.values = values
        self.timestamp = timestamp
    }

    /// The values as a vector (zeros for missing components).
    public var vector: Vector3 {
        Vector3(x: component(0), y: component(1), z: component(2))
    }

    /// The first value (0 when there is none).
    public var scalar: Double { component(0) }

    private func component(_ index: Int) -> Double {
        index < values.count ? values[index] : 0
    }
}

extension IIOSensorKind {
    /// The vector or the scalar, as ``isVector`` says.
    public static var channelSelection: IIOChannelSelection { isVector ? .vector : .scalar }

    /// Does nothing: a stateless kind needs no preparation.
    public mutating func prepare(device: IIODevice) throws(SensorError) {}
}
