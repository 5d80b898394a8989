import Glibc

/// A rotation as a unit quaternion `w + xi + yj + zk`: the same rotation as a ``RotationMatrix``, from the device's
/// frame to the world's (east, north, up).
///
/// The rotation by an angle θ about a unit axis `a` is `w = cos(θ/2)`, `(x, y, z) = sin(θ/2) · a`. A quaternion and its
/// negation are the same rotation; ``normalized`` picks the one with `w ≥ 0`. The kernel's `in_rot_quaternion`
/// channel lists the components as `x y z w`; in JSON they are `{"w": …, "x": …, "y": …, "z": …}`.
public struct Quaternion: Hashable, Sendable, Encodable, CustomStringConvertible {
    /// The real part: the cosine of half the rotation angle.
    public let w: Double
    /// The first imaginary part.
    public let x: Double
    /// The second imaginary part.
    public let y: Double
    /// The third imaginary part.
    public let z: Double

    /// No rotation.
    public static let identity = Quaternion(w: 1, x: 0, y: 0, z: 0)

    /// Creates a quaternion from its components, as given (not normalized).
    public init(w: Double, x: Double, y: Double, z: Double) {
        self.w = w
        self.x = x
        self.y = y
        self.z = z
    }

    /// The quaternion of `matrix`, normalized with `w ≥ 0`.
    ///
    /// Shepperd's method: the largest of `w`, `x`, `y`, `z` is found from the diagonal and taken from it, the others
    /// from the off-diagonal sums, so no component is computed by dividing by a small one.
    public init(_ matrix: RotationMatrix) {
        let m = matrix.rows
        let trace = m[0][0] + m[1][1] + m[2][2]
        let candidate: Quaternion
        if trace >= m[0][0], trace >= m[1][1], trace >= m[2][2] {
            let s = 2 * (1 + trace).squareRoot()
            candidate = Quaternion(
                w: s / 4, x: (m[2][1] - m[1][2]) / s, y: (m[0][2] - m[2][0]) / s, z: (m[1][0] - m[0][1]) / s)
        } else if m[0][0] >= m[1][1], m[0][0] >= m[2][2] {
            let s = 2 * (1 + m[0][0] - m[1][1] - m[2][2]).squareRoot()
            candidate = Quaternion(
                w: (m[2][1] - m[1][2]) / s, x: s / 4, y: (m[0][1] + m[1][0]) / s, z: (m[0][2] + m[2][0]) / s)
        } else if m[1][1] >= m[2][2] {
            let s = 2 * (1 + m[1][1] - m[0][0] - m[2][2]).squareRoot()
            candidate = Quaternion(
                w: (m[0][2] - m[2][0]) / s, x: (m[0][1] + m[1][0]) / s, y: s / 4, z: (m[1][2] + m[2][1]) / s)
        } else {
            let s = 2 * (1 + m[2][2] - m[0][0] - m[1][1]).squareRoot()
            candidate = Quaternion(
                w: (m[1][0] - m[0][1]) / s, x: (m[0][2] + m[2][0]) / s, y: (m[1][2] + m[2][1]) / s, z: s / 4)
        }
        self = candidate.normalized ?? .identity
    }

    /// The length `√(w² + x² + y² + z²)`; 1 for a rotation.
    public var norm: Double {
        (w * w + x * x + y * y + z * z).squareRoot()
    }

    /// The quaternion scaled to norm 1, with `w ≥ 0`; nil when it is zero, so small that its norm underflows, or not
    /// finite: such a quaternion is no rotation.
    public var normalized: Quaternion? {
        let length = norm
        guard length.isNormal else { return nil }
        let sign: Double = w < 0 ? -1 : 1
        return Quaternion(w: sign * w / length, x: sign * x / length, y: sign * y / length, z: sign * z / length)
    }

    /// The rotation as a matrix; exact for a unit quaternion.
    public var rotationMatrix: RotationMatrix {
        RotationMatrix(
            east: Vector3(x: 1 - 2 * (y * y + z * z), y: 2 * (x * y - w * z), z: 2 * (x * z + w * y)),
            north: Vector3(x: 2 * (x * y + w * z), y: 1 - 2 * (x * x + z * z), z: 2 * (y * z - w * x)),
            up: Vector3(x: 2 * (x * z - w * y), y: 2 * (y * z + w * x), z: 1 - 2 * (x * x + y * y)))
    }

    /// The angle in degrees of the rotation that takes this rotation to `other`, 0 to 180; both must be unit
    /// quaternions.
    public func angle(to other: Quaternion) -> Double {
        let cosine = min(1, abs(w * other.w + x * other.x + y * other.y + z * other.z))
        return 2 * acos(cosine) * 180 / Double.pi
    }

    public var description: String {
        "w \(Vector3.format(w)) x \(Vector3.format(x)) y \(Vector3.format(y)) z \(Vector3.format(z))"
    }
}
