/// Three components along the device's x, y and z axes, in the unit of the reading that holds them.
public struct Vector3: Hashable, Sendable, Encodable, CustomStringConvertible {
    /// The x component.
    public var x: Double
    /// The y component.
    public var y: Double
    /// The z component.
    public var z: Double

    /// Creates a vector.
    public init(x: Double, y: Double, z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    /// The length of the vector.
    public var magnitude: Double {
        (x * x + y * y + z * z).squareRoot()
    }

    /// The vector multiplied by `factor`.
    public func scaled(by factor: Double) -> Vector3 {
        Vector3(x: x * factor, y: y * factor, z: z * factor)
    }

    public var description: String {
        "x \(Self.format(x)) y \(Self.format(y)) z \(Self.format(z))"
    }

    /// A number with up to four decimals, for human output.
    ///
    /// A magnitude of 1e15 or more is printed as Swift prints it (`1e+308`): scaling it to round would overflow to
    /// infinity, and only a real infinity prints `inf`.
    static func format(_ value: Double) -> String {
        guard value.isFinite, abs(value) < 1e15 else { return String(value) }
        let scaled = (value * 10_000).rounded() / 10_000
        return scaled == scaled.rounded() ? String(Int64(scaled)) : String(scaled)
    }
}

extension MountMatrix {
    /// Rotates a vector from the sensor's frame into the device's frame.
    public func apply(_ vector: Vector3) -> Vector3 {
        let rotated = apply((x: vector.x, y: vector.y, z: vector.z))
        return Vector3(x: rotated.x, y: rotated.y, z: rotated.z)
    }
}
