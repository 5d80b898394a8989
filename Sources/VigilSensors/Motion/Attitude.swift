/// One attitude reading: the device's rotation from its own frame to the world's (east, north, up), as a quaternion,
/// a rotation matrix, and yaw, pitch and roll.
///
/// The angles follow CoreMotion's convention (see ``RotationMatrix/yawPitchRoll``): lying flat screen up is pitch 0,
/// roll 0; held upright facing the user is pitch +90°; yaw is 0 with the top edge to the north and grows
/// counter-clockwise. North is magnetic north when fused, and whatever the device's firmware calls north for a device
/// quaternion. In JSON: `quaternion` (`w`, `x`, `y`, `z`), `rotationMatrix` (three rows), `yaw`, `pitch`, `roll` (degrees),
/// `method`, `fieldStrength` and `uncalibrated` (fused), and `timestamp`.
public struct Attitude: Hashable, Sendable, Encodable, CustomStringConvertible {
    /// The rotation as a unit quaternion with `w ≥ 0`.
    public let quaternion: Quaternion
    /// The rotation as a matrix whose rows are east, north and up in the device's frame.
    public let rotationMatrix: RotationMatrix
    /// The turn about the vertical in degrees, −180 to 180, counter-clockwise from north.
    public let yaw: Double
    /// How far the top edge points up in degrees, −90 to 90.
    public let pitch: Double
    /// The tilt about the device's long edge in degrees, −180 to 180, positive with the right edge down.
    public let roll: Double
    /// Whether the device's own quaternion or the fusion of accelerometer and magnetometer gave the rotation.
    public let method: MotionMethod
    /// The strength of the magnetic field in µT, when fused.
    public let fieldStrength: Double?
    /// Whether the field is far outside the Earth's range (see ``FusedRotation/plausibleFieldStrength``), so yaw is
    /// not to be trusted; false when the strength is unknown.
    public let isUncalibrated: Bool
    /// When the sample was taken, in nanoseconds (the newer of the two, when fused).
    public let timestamp: Int64

    /// Creates a reading from a rotation; the quaternion and the angles are computed from it.
    ///
    /// - Parameters:
    ///   - rotationMatrix: The rotation from the device's frame to east, north and up.
    ///   - method: What gave the rotation.
    ///   - fieldStrength: The field's strength in µT, when known.
    ///   - isUncalibrated: Whether the field is far outside the Earth's range.
    ///   - timestamp: When the sample was taken, in nanoseconds.
    public init(
        rotationMatrix: RotationMatrix, method: MotionMethod, fieldStrength: Double? = nil,
        isUncalibrated: Bool = false, timestamp: Int64
    ) {
        self.init(
            quaternion: Quaternion(rotationMatrix), rotationMatrix: rotationMatrix, method: method,
            fieldStrength: fieldStrength, isUncalibrated: isUncalibrated, timestamp: timestamp)
    }

    /// Creates a reading from a unit quaternion; the matrix and the angles are computed from it.
    ///
    /// - Parameters:
    ///   - quaternion: The rotation, normalized with `w ≥ 0`.
    ///   - method: What gave the rotation.
    ///   - timestamp: When the sample was taken, in nanoseconds.
    public init(quaternion: Quaternion, method: MotionMethod, timestamp: Int64) {
        self.init(
            quaternion: quaternion, rotationMatrix: quaternion.rotationMatrix, method: method, fieldStrength: nil,
            isUncalibrated: false, timestamp: timestamp)
    }

    private init(
        quaternion: Quaternion, rotationMatrix: RotationMatrix, method: MotionMethod, fieldStrength: Double?,
        isUncalibrated: Bool, timestamp: Int64
    ) {
        self.quaternion = quaternion
        self.rotationMatrix = rotationMatrix
        (yaw, pitch, roll) = rotationMatrix.yawPitchRoll
        self.method = method
        self.fieldStrength = fieldStrength
        self.isUncalibrated = isUncalibrated
        self.timestamp = timestamp
    }

    private enum CodingKeys: String, CodingKey {
        case quaternion, rotationMatrix, yaw, pitch, roll, method, fieldStrength
        case isUncalibrated = "uncalibrated"
        case timestamp
    }

    public var description: String {
        var text =
            "yaw \(CompassHeading.degrees(yaw)) pitch \(CompassHeading.degrees(pitch)) "
            + "roll \(CompassHeading.degrees(roll)), quaternion \(quaternion) (\(method)"
        if isUncalibrated { text += ", uncalibrated" }
        return text + ")"
    }
}
