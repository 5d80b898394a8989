import Glibc
import Testing
import VigilSensors
import VigilTestSupport

/// The fusion of gravity and the field (Android's `getRotationMatrix` on Linux's accelerometer sign) and the angles of
/// its rotation, on known poses, without any device.
@Suite(.timeLimit(.minutes(5))) struct GravityFieldFusionTests {
    @Test(arguments: MotionExpectations.poses) func recoversThePose(pose: DevicePose) throws {
        let rotation = try GravityFieldFusion.rotation(acceleration: pose.acceleration, field: pose.magneticField)
        MotionExpectations.expect(Attitude(rotationMatrix: rotation, method: .fused, timestamp: 0), is: pose)
        #expect(MotionExpectations.difference(rotation.heading, pose.heading) < MotionExpectations.tolerance)
        let expected = pose.matrix
        for (row, expectedRow) in zip(rotation.rows, expected) {
            for (value, expectedValue) in zip(row, expectedRow) { #expect(abs(value - expectedValue) < 1e-9) }
        }
    }

    /// CoreMotion's convention: flat screen up is pitch 0 and roll 0; upright facing the user is pitch +90°; the
    /// right edge down is a positive roll; the top edge to the east is a heading of 90° (yaw −90°).
    @Test func followsCoreMotionsConvention() throws {
        let g = DevicePose.gravity
        let north = DevicePose.field
        let flat = try GravityFieldFusion.rotation(acceleration: Vector3(x: 0, y: 0, z: -g), field: north)
        #expect(flat == .identity)
        #expect(flat.yawPitchRoll == (yaw: 0, pitch: 0, roll: 0))
        // Upright, screen to the south: the top edge up reads −g on y, the field comes from behind the screen.
        let upright = try GravityFieldFusion.rotation(
            acceleration: Vector3(x: 0, y: -g, z: 0), field: Vector3(x: 0, y: north.z, z: -north.y))
        #expect(abs(upright.yawPitchRoll.pitch - 90) < 1e-9)
        #expect(abs(upright.heading) < 1e-9, "the back faces north: \(upright.heading)")
        let rightEdgeDown = try GravityFieldFusion.rotation(
            acceleration: DevicePose(yaw: 0, pitch: 0, roll: 30).acceleration, field: north)
        #expect(rightEdgeDown.up.x < 0)
        #expect(abs(rightEdgeDown.yawPitchRoll.roll - 30) < 1e-9)
        // Flat, north to the left: the top edge points east.
        let east = try GravityFieldFusion.rotation(
            acceleration: Vector3(x: 0, y: 0, z: -g), field: Vector3(x: -north.y, y: 0, z: north.z))
        #expect(abs(east.heading - 90) < 1e-9)
        #expect(abs(east.yawPitchRoll.yaw + 90) < 1e-9)
    }

    @Test(arguments: [Vector3(x: 0, y: 0, z: 0), Vector3(x: 0.3, y: -0.4, z: 0.5), Vector3(x: 0, y: 0, z: -0.97)])
    func freeFallIsNoRotation(acceleration: Vector3) {
        #expect(throws: GravityFieldProblem.freeFall(acceleration: acceleration.magnitude)) {
            _ = try GravityFieldFusion.rotation(acceleration: acceleration, field: DevicePose.field)
        }
    }

    /// At the magnetic poles the field is vertical: within 1° of gravity (either way) it has no north.
    @Test(arguments: [Vector3(x: 0, y: 0, z: -50), Vector3(x: 0, y: 0, z: 50), Vector3(x: 0.8, y: 0, z: -50)])
    func aFieldAlongGravityIsNoRotation(field: Vector3) throws {
        do {
            _ = try GravityFieldFusion.rotation(acceleration: Vector3(x: 0, y: 0, z: -9.8), field: field)
            Issue.record("a field \(field) along gravity gave a rotation")
        } catch {
            guard case .fieldAlongGravity(let degrees) = error else { throw error }
            #expect(degrees < 1)
            #expect(error.description.contains("no horizontal direction"), "\(error)")
        }
        // 1.1° off the vertical is enough.
        let tilted = Vector3(x: 50 * sin(1.1 * Double.pi / 180), y: 0, z: -50 * cos(1.1 * Double.pi / 180))
        #expect(throws: Never.self) {
            _ = try GravityFieldFusion.rotation(acceleration: Vector3(x: 0, y: 0, z: -9.8), field: tilted)
        }
    }

    @Test func noFieldAndHugeValuesAreNoRotation() {
        let g = Vector3(x: 0, y: 0, z: -9.8)
        #expect(throws: GravityFieldProblem.noField) {
            _ = try GravityFieldFusion.rotation(acceleration: g, field: Vector3(x: 0, y: 0, z: 0))
        }
        #expect(throws: GravityFieldProblem.tooLarge) {
            _ = try GravityFieldFusion.rotation(
                acceleration: Vector3(x: 1e200, y: 1e200, z: 0), field: DevicePose.field)
        }
        #expect(throws: GravityFieldProblem.tooLarge) {
            _ = try GravityFieldFusion.rotation(
                acceleration: g, field: Vector3(x: .greatestFiniteMagnitude, y: 1, z: 1))
        }
    }

    /// Heading and yaw agree at every pose, and a pose turned by a yaw turns the heading by as much the other way.
    @Test func headingIsTheNegatedYaw() throws {
        for yaw in stride(from: -179.0, through: 180, by: 7) {
            let pose = DevicePose(yaw: yaw, pitch: 25, roll: -40)
            let rotation = try GravityFieldFusion.rotation(acceleration: pose.acceleration, field: pose.magneticField)
            #expect(MotionExpectations.difference(rotation.heading, -yaw) < 1e-6, "\(pose)")
            #expect(rotation.heading >= 0 && rotation.heading < 360)
        }
    }
}
