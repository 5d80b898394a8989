import Testing
import VigilSensors
import VigilTestSupport

/// The poses the golden tests turn the device through, and the checks of a reading against a pose.
enum MotionExpectations {
    /// Known yaws, pitches and rolls: flat, turned, tilted every way, near upright, upside down, and the pose of the
    /// real capture (`orientation-normal.bin`).
    static let poses = [
        DevicePose(yaw: 0, pitch: 0, roll: 0), DevicePose(yaw: -30, pitch: 0, roll: 0),
        DevicePose(yaw: 135, pitch: 20, roll: -10), DevicePose(yaw: -90, pitch: 45, roll: 30),
        DevicePose(yaw: 160, pitch: -30, roll: 170), DevicePose(yaw: 10, pitch: 80, roll: 5),
        DevicePose(yaw: -60, pitch: -70, roll: -100), DevicePose(yaw: -123.4, pitch: 66.55, roll: 14.98),
        DevicePose(yaw: 45, pitch: 10, roll: -175),
    ]

    /// The largest error the golden tests accept, in degrees.
    static let tolerance = 0.1

    /// How far apart two angles are, in degrees, 0 to 180, across the wrap at 360.
    static func difference(_ a: Double, _ b: Double) -> Double {
        let turned = abs(a - b).truncatingRemainder(dividingBy: 360)
        return min(turned, 360 - turned)
    }

    /// The angle between the reading's quaternion and the pose's, in degrees.
    static func difference(_ quaternion: Quaternion, _ pose: DevicePose) -> Double {
        let expected = pose.quaternion
        return quaternion.angle(to: Quaternion(w: expected.w, x: expected.x, y: expected.y, z: expected.z))
    }

    /// Expects `attitude` to be `pose` within ``tolerance``: quaternion, yaw, pitch and roll.
    static func expect(
        _ attitude: Attitude, is pose: DevicePose, _ comment: String = "",
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let context = "\(pose) \(comment): \(attitude)"
        #expect(difference(attitude.quaternion, pose) < tolerance, "\(context)", sourceLocation: sourceLocation)
        #expect(difference(attitude.yaw, pose.yaw) < tolerance, "\(context)", sourceLocation: sourceLocation)
        #expect(abs(attitude.pitch - pose.pitch) < tolerance, "\(context)", sourceLocation: sourceLocation)
        #expect(difference(attitude.roll, pose.roll) < tolerance, "\(context)", sourceLocation: sourceLocation)
    }
}
