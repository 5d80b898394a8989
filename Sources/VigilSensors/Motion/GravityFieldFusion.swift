import Glibc

/// The device's rotation from gravity and the magnetic field: Android's `SensorManager.getRotationMatrix`.
///
/// With `A` the direction up and `E` the field, both in the device's frame, east is `H = E × A` and north is
/// `M = A × H`, each normalized: `(H, M, A)` are the rows of the ``RotationMatrix``. Up is the acceleration negated:
/// a Linux IIO accelerometer at rest reads −g along the axis that points up (the device upright in iio-sensor-proxy's
/// `normal` orientation reads about −9.8 m/s² on `y`), where Android's accelerometer reads +g; the screen orientation
/// reads it the same way.
package enum GravityFieldFusion {
    /// Below this acceleration (0.1 g, Android's bound) the device is in free fall: gravity's direction is unknown.
    package static let freeFallLimit = 0.1 * 9.80665
    /// Within this angle of gravity (or of its opposite) the field gives no horizontal direction to call north.
    package static let parallelLimit = 1.0

    /// The rotation from an acceleration (m/s², mount matrix applied) and a field (any unit).
    ///
    /// - Throws: ``GravityFieldProblem`` when the acceleration is too small (free fall), the field is zero, the
    ///   field is (nearly) parallel to gravity, or the numbers are too large to compute with.
    package static func rotation(acceleration: Vector3, field: Vector3) throws(GravityFieldProblem) -> RotationMatrix {
        let gravity = acceleration.magnitude
        guard gravity.isFinite, field.magnitude.isFinite else { throw .tooLarge }
        guard gravity >= freeFallLimit else { throw .freeFall(acceleration: gravity) }
        guard let up = (-acceleration).normalized else { throw .freeFall(acceleration: gravity) }
        guard let direction = field.normalized else { throw .noField }
        // Both are unit vectors, so the cross product's length is the sine of the angle between them.
        let east = direction.cross(up)
        let sine = east.magnitude
        guard sine >= sin(parallelLimit * Double.pi / 180), let unitEast = east.normalized else {
            throw .fieldAlongGravity(degrees: asin(min(1, sine)) * 180 / Double.pi)
        }
        let matrix = RotationMatrix(east: unitEast, north: up.cross(unitEast), up: up)
        guard matrix.isFinite else { throw .tooLarge }
        return matrix
    }
}

/// Why gravity and the field give no rotation, in words a user can act on.
package enum GravityFieldProblem: Error, Hashable, Sendable, CustomStringConvertible {
    /// The acceleration (m/s²) is below ``GravityFieldFusion/freeFallLimit``.
    case freeFall(acceleration: Double)
    /// The field reads zero.
    case noField
    /// The field is within ``GravityFieldFusion/parallelLimit`` of gravity's direction (the angle between the two
    /// lines, in degrees).
    case fieldAlongGravity(degrees: Double)
    /// A value is too large to compute with.
    case tooLarge

    package var description: String {
        switch self {
        case .freeFall(let acceleration):
            return "free fall: the acceleration is \(Vector3.format((acceleration * 100).rounded() / 100)) m/s², below "
                + "\(Vector3.format(GravityFieldFusion.freeFallLimit)) m/s², so the direction of gravity is unknown"
        case .noField:
            return "the magnetometer reads no field (0 µT)"
        case .fieldAlongGravity(let degrees):
            return
                "the magnetic field is \(Vector3.format((degrees * 100).rounded() / 100))° from the vertical, within "
                + "\(Vector3.format(GravityFieldFusion.parallelLimit))°: it gives no horizontal direction to north"
        case .tooLarge:
            return "the acceleration or the magnetic field is too large to compute with"
        }
    }
}
