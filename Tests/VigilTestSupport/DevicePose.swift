import Glibc
import VigilSensors

/// A device held at a known yaw, pitch and roll, and what its sensors read there: the oracle of the motion tests,
/// computed here from first principles (rotation products, axis-angle quaternions), not by the code under test.
///
/// The angles are CoreMotion's: the device frame turns into east, north, up by `Rz(yaw) · Rx(pitch) · Ry(roll)`.
/// A Linux IIO accelerometer reads −g along the axis pointing up (a device upright in iio-sensor-proxy's `normal`
/// orientation reads about −9.8 m/s² on `y`), so at rest it reads gravity's own direction, `(0, 0, −g)` in the world.
package struct DevicePose: Sendable, CustomStringConvertible {
    package let yaw: Double
    package let pitch: Double
    package let roll: Double

    /// Standard gravity, m/s².
    package static let gravity = 9.80665

    /// The Earth's field where the tests stand: 48 µT, dipping 60° below the horizon towards magnetic north.
    package static let field = Vector3(x: 0, y: 48 * cos(60 * Double.pi / 180), z: -48 * sin(60 * Double.pi / 180))

    package init(yaw: Double, pitch: Double, roll: Double) {
        self.yaw = yaw
        self.pitch = pitch
        self.roll = roll
    }

    /// The rotation from the device's frame to the world's, rows east, north, up.
    package var matrix: [[Double]] {
        let (yawRadians, pitchRadians, rollRadians) = (radians(yaw), radians(pitch), radians(roll))
        let aboutZ = [
            [cos(yawRadians), -sin(yawRadians), 0], [sin(yawRadians), cos(yawRadians), 0], [0, 0, 1],
        ]
        let aboutX = [
            [1, 0, 0], [0, cos(pitchRadians), -sin(pitchRadians)], [0, sin(pitchRadians), cos(pitchRadians)],
        ]
        let aboutY = [
            [cos(rollRadians), 0, sin(rollRadians)], [0, 1, 0], [-sin(rollRadians), 0, cos(rollRadians)],
        ]
        return Self.product(Self.product(aboutZ, aboutX), aboutY)
    }

    /// The rotation as a unit quaternion `(w, x, y, z)`: the product of the three axis-angle quaternions.
    package var quaternion: (w: Double, x: Double, y: Double, z: Double) {
        let aboutZ = (w: cos(radians(yaw) / 2), x: 0.0, y: 0.0, z: sin(radians(yaw) / 2))
        let aboutX = (w: cos(radians(pitch) / 2), x: sin(radians(pitch) / 2), y: 0.0, z: 0.0)
        let aboutY = (w: cos(radians(roll) / 2), x: 0.0, y: sin(radians(roll) / 2), z: 0.0)
        return Self.product(Self.product(aboutZ, aboutX), aboutY)
    }

    /// The compass heading of the top edge, clockwise from north: the negated yaw, 0 ≤ heading < 360.
    package var heading: Double {
        let heading = (-yaw).truncatingRemainder(dividingBy: 360)
        return heading < 0 ? heading + 360 : heading
    }

    /// A world vector (east, north, up) in the device's frame.
    package func inDeviceFrame(_ world: Vector3) -> Vector3 {
        let rows = matrix
        let vector = [world.x, world.y, world.z]
        // The inverse of a rotation is its transpose: column i of the matrix dotted with the world vector.
        func component(_ column: Int) -> Double { (0..<3).reduce(0) { $0 + rows[$1][column] * vector[$1] } }
        return Vector3(x: component(0), y: component(1), z: component(2))
    }

    /// What an IIO accelerometer at rest reads in the device's frame, m/s².
    package var acceleration: Vector3 { inDeviceFrame(Vector3(x: 0, y: 0, z: -Self.gravity)) }

    /// What a magnetometer reads of ``field`` in the device's frame, µT.
    package var magneticField: Vector3 { inDeviceFrame(Self.field) }

    package var description: String { "yaw \(yaw)° pitch \(pitch)° roll \(roll)°" }

    private func radians(_ degrees: Double) -> Double { degrees * Double.pi / 180 }

    static func product(_ left: [[Double]], _ right: [[Double]]) -> [[Double]] {
        (0..<3).map { row in (0..<3).map { column in (0..<3).reduce(0) { $0 + left[row][$1] * right[$1][column] } } }
    }

    static func product(
        _ a: (w: Double, x: Double, y: Double, z: Double), _ b: (w: Double, x: Double, y: Double, z: Double)
    ) -> (w: Double, x: Double, y: Double, z: Double) {
        (
            w: a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z, x: a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
            y: a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x, z: a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w
        )
    }
}

/// Mount matrices that are rotations, as the kernel writes them, and what each does to a device-frame vector to give
/// the sensor's reading (its transpose).
package enum MountMatrices {
    /// The identity, the one in the tests' trees beside a 90° turn about `z` (`IIOPolledMonitorTests`), and a chip
    /// mounted upside down on the other side of the board, turned: every rotation a board's layout gives.
    package static let all = [
        "1, 0, 0; 0, 1, 0; 0, 0, 1", "0, 1, 0; -1, 0, 0; 0, 0, 1", "1, 0, 0; 0, -1, 0; 0, 0, -1",
        "0, -1, 0; -1, 0, 0; 0, 0, -1",
    ]

    /// The rows of `text`.
    package static func rows(_ text: String) -> [[Double]] {
        text.split(separator: ";").map { row in row.split(separator: ",").map { Double($0.filter { $0 != " " })! } }
    }

    /// What a sensor mounted with `text` reads of `vector` in the device's frame: `Mᵀ · vector`, since the kernel's
    /// mount matrix takes the reading back to the device's frame.
    package static func sensorReading(of vector: Vector3, mount text: String) -> Vector3 {
        let rows = rows(text)
        let values = [vector.x, vector.y, vector.z]
        func component(_ column: Int) -> Double { (0..<3).reduce(0) { $0 + rows[$1][column] * values[$1] } }
        return Vector3(x: component(0), y: component(1), z: component(2))
    }
}
