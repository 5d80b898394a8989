/// How a compass heading or an attitude was produced.
public enum MotionMethod: String, Hashable, Sendable, Encodable, CustomStringConvertible {
    /// Read from the device's own channel: `in_rot_from_north_magnetic[_tilt_comp]` or `in_rot_quaternion`, which a
    /// sensor hub computes in its firmware.
    case device
    /// Computed here from an accelerometer and a magnetometer, as Android's `getRotationMatrix` does (see
    /// ``FusedRotation``).
    case fused

    public var description: String {
        switch self {
        case .device: return "device channel"
        case .fused: return "fused from accelerometer and magnetometer"
        }
    }
}
