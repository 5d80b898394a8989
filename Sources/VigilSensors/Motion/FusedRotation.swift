/// The device's rotation fused from an accelerometer and a magnetometer, with the field strength it was fused from.
public struct FusedRotation: Hashable, Sendable {
    /// The rotation from the device's frame to east, north (magnetic) and up.
    public let rotation: RotationMatrix
    /// The strength of the magnetic field in µT.
    public let fieldStrength: Double
    /// When the newer of the two samples was taken, in nanoseconds.
    public let timestamp: Int64

    /// The field strengths, in µT, that pass for the Earth's: about 25 to 65 µT at the surface, with room for a
    /// device's own magnets. A magnetometer outside them is uncalibrated (hard-iron offsets, a wrong `_scale`) or
    /// next to a magnet, and its north is not to be trusted.
    public static let plausibleFieldStrength = 15.0...100.0

    /// Creates a fused rotation.
    public init(rotation: RotationMatrix, fieldStrength: Double, timestamp: Int64) {
        self.rotation = rotation
        self.fieldStrength = fieldStrength
        self.timestamp = timestamp
    }

    /// Whether the field is far outside the Earth's range (``plausibleFieldStrength``).
    public var isUncalibrated: Bool {
        !Self.plausibleFieldStrength.contains(fieldStrength)
    }
}
