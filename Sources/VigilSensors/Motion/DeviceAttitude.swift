/// The device's attitude: its rotation relative to east, north and up (see ``Attitude``).
///
/// A device's own quaternion is taken as is (``RotationSensor``); a fused attitude is the rotation from gravity and
/// the field, with the field's strength.
public struct DeviceAttitude: MotionKind {
    /// A device's own channel for the kind.
    public typealias DeviceKind = RotationSensor

    public static let displayName = "Attitude"

    /// Creates the kind.
    public init() {}

    /// The attitude of the device's quaternion.
    public func value(from device: RotationSensor.Value) -> Attitude {
        Attitude(quaternion: device.quaternion, method: .device, timestamp: device.timestamp)
    }

    /// The attitude of the fused rotation.
    public func value(from fused: FusedRotation) -> Attitude {
        Attitude(
            rotationMatrix: fused.rotation, method: .fused, fieldStrength: fused.fieldStrength,
            isUncalibrated: fused.isUncalibrated, timestamp: fused.timestamp)
    }
}
