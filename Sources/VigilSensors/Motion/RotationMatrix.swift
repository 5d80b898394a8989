/// A rotation as a 3×3 matrix that turns a vector in the device's frame into the world's frame: east, north, up.
///
/// The device's frame is the IIO one: `x` to the right of the screen, `y` to its top edge, `z` out of the screen
/// towards the user (mount matrices applied). Each row is one world axis in the device's frame, so a vector `v` in
/// the device's frame is `(east · v, north · v, up · v)` in the world's; the columns are the device's axes in the
/// world's frame. This is the matrix of Android's `SensorManager.getRotationMatrix`, whose rows it calls H, M and A.
/// The device lying flat, screen up, top edge to the north, is the identity.
///
/// In JSON the matrix is its three rows, each an array of three numbers.
public struct RotationMatrix: Hashable, Sendable, Encodable, CustomStringConvertible {
    /// The world's east axis in the device's frame (the first row).
    public let east: Vector3
    /// The world's north axis in the device's frame (the second row); magnetic north unless corrected.
    public let north: Vector3
    /// The world's up axis in the device's frame (the third row): the direction opposite gravity.
    public let up: Vector3

    /// The device's frame is the world's.
    public static let identity = RotationMatrix(
        east: Vector3(x: 1, y: 0, z: 0), north: Vector3(x: 0, y: 1, z: 0), up: Vector3(x: 0, y: 0, z: 1))

    /// Creates a matrix from its rows; they must be orthonormal and right-handed for it to be a rotation.
    public init(east: Vector3, north: Vector3, up: Vector3) {
        self.east = east
        self.north = north
        self.up = up
    }

    /// The rows, top to bottom, each left to right.
    public var rows: [[Double]] {
        [east, north, up].map { [$0.x, $0.y, $0.z] }
    }

    /// The device's vector `vector` in the world's frame: east, north and up components.
    public func apply(_ vector: Vector3) -> Vector3 {
        Vector3(x: east.dot(vector), y: north.dot(vector), z: up.dot(vector))
    }

    /// The world's vector `vector` (east, north, up) in the device's frame: the inverse rotation.
    public func inverseApply(_ vector: Vector3) -> Vector3 {
        east.scaled(by: vector.x) + north.scaled(by: vector.y) + up.scaled(by: vector.z)
    }

    /// Whether every entry is a finite number.
    var isFinite: Bool {
        rows.joined().allSatisfy(\.isFinite)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rows)
    }

    public var description: String {
        rows.map { row in row.map { Vector3.format($0) }.joined(separator: " ") }.joined(separator: "; ")
    }
}
