import Glibc

/// Which edge of the screen points up, derived from an accelerometer.
///
/// The names follow iio-sensor-proxy: `normal` is the usual landscape position (the screen's top edge up),
/// `bottomUp` is upside down, `leftUp` and `rightUp` are the portrait positions with that edge up, and `undefined`
/// means no orientation has been decided yet (the device lies flat, or no reading has arrived).
public enum ScreenOrientation: String, Hashable, Sendable, Encodable, CustomStringConvertible {
    /// No orientation decided yet.
    case undefined
    /// The top edge is up.
    case normal
    /// The bottom edge is up: upside down.
    case bottomUp = "bottom-up"
    /// The left edge is up.
    case leftUp = "left-up"
    /// The right edge is up.
    case rightUp = "right-up"

    /// The tilt, in whole degrees, past which an orientation is taken.
    public static let threshold = 35

    /// The orientation for an acceleration, given the previous orientation.
    ///
    /// This is iio-sensor-proxy's rule (`orientation_calc` in `src/orientation.c`):
    ///
    /// 1. Scale the acceleration to g (any common unit gives the same angles; only the direction counts).
    /// 2. Compute the portrait tilt `atan2(x, √(y² + z²))` and the landscape tilt `atan2(y, √(x² + z²))` in degrees,
    ///    rounded to whole degrees.
    /// 3. If both tilts are beyond ±35°, the device is on the border between two orientations: keep the previous one.
    /// 4. Else if the portrait tilt is beyond ±35°: `leftUp` when positive, `rightUp` when negative.
    /// 5. Else if the landscape tilt is beyond ±35°: `bottomUp` when positive, `normal` when negative.
    /// 6. Otherwise (flat, or tilted less than 35° either way) keep the previous orientation — from `undefined` the
    ///    result stays `undefined`.
    ///
    /// "Beyond" is strict: a tilt of exactly 35° keeps the previous orientation. Keeping the previous orientation in
    /// the dead zone is the hysteresis: a device held near 35° does not flicker.
    ///
    /// - Parameters:
    ///   - acceleration: The acceleration in the device's frame (mount matrix applied), in m/s² or any unit.
    ///   - previous: The orientation decided before this reading.
    public static func from(
        acceleration: (x: Double, y: Double, z: Double), previous: ScreenOrientation
    ) -> ScreenOrientation {
        let gravity = 9.80665
        let x = acceleration.x / gravity
        let y = acceleration.y / gravity
        let z = acceleration.z / gravity
        guard x.isFinite, y.isFinite, z.isFinite, x != 0 || y != 0 || z != 0 else { return previous }
        let portrait = degrees(atan2(x, (y * y + z * z).squareRoot()))
        let landscape = degrees(atan2(y, (x * x + z * z).squareRoot()))
        let portraitTilted = abs(portrait) > threshold
        let landscapeTilted = abs(landscape) > threshold
        if portraitTilted && landscapeTilted { return previous }
        if portraitTilted { return portrait > 0 ? .leftUp : .rightUp }
        if landscapeTilted { return landscape > 0 ? .bottomUp : .normal }
        return previous
    }

    public var description: String { rawValue }

    private static func degrees(_ radians: Double) -> Int {
        Int((radians * 180 / Double.pi).rounded())
    }
}
