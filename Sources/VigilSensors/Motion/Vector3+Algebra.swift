extension Vector3 {
    /// The dot product with `other`.
    public func dot(_ other: Vector3) -> Double {
        x * other.x + y * other.y + z * other.z
    }

    /// The cross product `self × other`, perpendicular to both by the right-hand rule.
    public func cross(_ other: Vector3) -> Vector3 {
        Vector3(x: y * other.z - z * other.y, y: z * other.x - x * other.z, z: x * other.y - y * other.x)
    }

    /// The vector scaled to length 1; nil when its length is zero or not finite.
    public var normalized: Vector3? {
        let length = magnitude
        guard length > 0, length.isFinite else { return nil }
        return scaled(by: 1 / length)
    }

    /// The vector pointing the other way.
    public static prefix func - (vector: Vector3) -> Vector3 {
        vector.scaled(by: -1)
    }

    /// The sum of two vectors.
    public static func + (left: Vector3, right: Vector3) -> Vector3 {
        Vector3(x: left.x + right.x, y: left.y + right.y, z: left.z + right.z)
    }
}
