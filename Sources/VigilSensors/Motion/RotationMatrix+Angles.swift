import Glibc

extension RotationMatrix {
    /// The rotation's yaw, pitch and roll in degrees, in CoreMotion's convention.
    ///
    /// The matrix is `Rz(yaw) · Rx(pitch) · Ry(roll)`: starting flat, screen up and top edge to the north, the device
    /// rolls about its `y` axis (its long edge), pitches about its `x` axis, then yaws about the world's vertical, each
    /// counter-clockwise seen from the axis's tip. So:
    ///
    /// - **pitch**, −90° to 90°, is how far the top edge points up: 0 lying flat, +90° held upright with the screen
    ///   facing the user, −90° upside down;
    /// - **roll**, −180° to 180°, is the tilt about the long edge: 0 lying flat screen up, positive when the right
    ///   edge goes down, ±180° screen down;
    /// - **yaw**, −180° to 180°, is the turn about the vertical, counter-clockwise from north: 0 with the top edge to
    ///   the north, +90° to the west; the compass heading is its negation.
    ///
    /// With the top edge straight up or down (pitch ±90°) yaw and roll turn about the same axis and cannot be told
    /// apart: roll is then 0 and yaw takes the whole turn, so the heading is where the back of the device faces (top up)
    /// or its screen faces (top down).
    public var yawPitchRoll: (yaw: Double, pitch: Double, roll: Double) {
        let pitch = asin(max(-1, min(1, up.y)))
        // cos(pitch) scales both terms of yaw and of roll: near ±90° they are rounding noise.
        guard (up.x * up.x + up.z * up.z).squareRoot() > Self.gimbalLockLimit else {
            return (Self.degrees(atan2(north.x, east.x)), Self.degrees(pitch), 0)
        }
        return (Self.degrees(atan2(-east.y, north.y)), Self.degrees(pitch), Self.degrees(atan2(-up.x, up.z)))
    }

    /// The compass heading of the device's top edge in degrees, 0 ≤ heading < 360, clockwise from the north of the
    /// world's frame: the direction the top edge points, seen from above (Android's azimuth), the negated yaw of
    /// ``yawPitchRoll``.
    public var heading: Double {
        Self.normalizedDegrees(-yawPitchRoll.yaw)
    }

    /// Below this cos(pitch) (within 10⁻⁷ degrees of ±90°) the pitch counts as ±90° exactly.
    private static let gimbalLockLimit = 1e-9

    static func degrees(_ radians: Double) -> Double {
        radians * 180 / Double.pi
    }

    /// An angle in degrees brought into 0 ≤ angle < 360.
    static func normalizedDegrees(_ angle: Double) -> Double {
        let turned = angle.truncatingRemainder(dividingBy: 360)
        let positive = turned < 0 ? turned + 360 : turned
        // −1e-17 + 360 rounds to 360, which is 0.
        return positive >= 360 ? 0 : positive
    }
}
