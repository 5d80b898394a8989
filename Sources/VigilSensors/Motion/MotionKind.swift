/// One kind of motion source: what a ``MotionMonitor`` makes of a device's own channel, or of gravity and the
/// magnetic field fused, when the device has no such channel.
///
/// ``Compass`` makes headings of a `from_north_magnetic` channel, ``DeviceAttitude`` attitudes of a `quaternion`.
public protocol MotionKind: Sendable {
    /// The value the source reports.
    associatedtype Value: Sendable, Equatable, Encodable, CustomStringConvertible
    /// The IIO sensor that gives the value directly, when a device has its channel.
    associatedtype DeviceKind: IIOSensorKind

    /// A short human name, for example "Compass".
    static var displayName: String { get }

    /// Creates the kind with its default settings.
    init()

    /// The value of one reading of the device's own channel.
    ///
    /// - Parameter device: The reading.
    func value(from device: DeviceKind.Value) -> Value

    /// The value of a rotation fused from gravity and the magnetic field.
    ///
    /// - Parameter fused: The rotation and the field strength.
    func value(from fused: FusedRotation) -> Value
}
