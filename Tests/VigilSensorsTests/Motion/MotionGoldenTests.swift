import Glibc
import Testing
import Vigil
import VigilSensors
import VigilTestSupport

/// The compass and the attitude of a fake device turned through known yaws, pitches and rolls: fused from an
/// accelerometer and a magnetometer mounted every way a board mounts them, or read from the device's quaternion,
/// polled and buffered; each within 0.1° of the pose.
@Suite(.timeLimit(.minutes(10))) struct MotionGoldenTests {
    @Test(arguments: MountMatrices.all) func fusedReadingsMatchThePoses(mount: String) async throws {
        let tree = FakeIIOTree()
        let first = MotionExpectations.poses[0]
        tree.addMotionSensors(0, at: first, mount: mount)
        let rig = MotionTestRig(tree)
        try rig.start()
        #expect(rig.compass.method == .fused && rig.attitude.method == .fused)
        for pose in MotionExpectations.poses {
            tree.setAcceleration(0, pose.acceleration, mount: mount)
            tree.setField(1, pose.magneticField, mount: mount)
            await rig.advance()
            let heading = try #require(rig.heading, "\(pose): \(rig.compass.readings.value)")
            #expect(
                MotionExpectations.difference(heading.magneticHeading, pose.heading) < MotionExpectations.tolerance,
                "\(pose) mounted \(mount): \(heading)")
            #expect(heading.method == .fused && heading.isTiltCompensated && heading.trueHeading == nil)
            #expect(abs((heading.fieldStrength ?? 0) - 48) < 0.01 && !heading.isUncalibrated, "\(heading)")
            let attitude = try #require(rig.currentAttitude, "\(pose): \(rig.attitude.readings.value)")
            MotionExpectations.expect(attitude, is: pose, "mounted \(mount)")
            #expect(attitude.method == .fused)
        }
    }

    @Test func deviceQuaternionMatchesThePoses() async throws {
        let tree = FakeIIOTree()
        tree.addQuaternionChannel(0, raw: "0 0 0 10000000", scale: "0.0000001")
        let rig = MotionTestRig(tree)
        try rig.start()
        #expect(rig.attitude.method == .device)
        for pose in MotionExpectations.poses {
            let q = pose.quaternion
            let raw = [q.x, q.y, q.z, q.w].map { String(Int64(($0 * 1e7).rounded())) }.joined(separator: " ")
            tree.write("bus/iio/devices/iio:device0/in_rot_quaternion_raw", raw + "\n")
            await rig.advance()
            let attitude = try #require(rig.currentAttitude, "\(pose): \(rig.attitude.readings.value)")
            MotionExpectations.expect(attitude, is: pose, "from \(raw)")
            #expect(attitude.method == .device && attitude.fieldStrength == nil)
        }
    }

    /// Buffered, the quaternion is one scan element repeated four times: 16 bits in 32-bit slots whose upper bits
    /// hold junk (as HID hubs send them), or 32 bits in 32.
    @Test(arguments: [("le:s16/32X4>>0", 16, 1.0 / 16384), ("le:s32/32X4>>0", 32, 1e-7)])
    func bufferedQuaternionMatchesThePoses(type: String, bits: Int, scale: Double) throws {
        let tree = FakeIIOTree()
        tree.addQuaternionChannel(0, raw: "0 0 0 1", scale: "\(scale)")
        tree.addQuaternionBuffer(0, type: type)
        let monitor = AttitudeMonitor(root: tree.root, mode: .buffered())
        let recorder = IIOReadingRecorder(monitor.readings)
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        #expect(tree.read("bus/iio/devices/iio:device0/scan_elements/in_rot_quaternion_en") == "1")
        var scans: [UInt8] = []
        for (index, pose) in MotionExpectations.poses.enumerated() {
            let q = pose.quaternion
            let raw = [q.x, q.y, q.z, q.w].map { Int64(($0 / scale).rounded()) }
            scans += FakeIIOTree.rotationScan(raw, bits: bits, timestamp: Int64(index) + 1_000)
        }
        _ = tree.writeToFIFO("dev/iio:device0", scans)
        let count = MotionExpectations.poses.count
        #expect(recorder.wait { $0.compactMap(\.value).count == count }, "\(recorder.values)")
        let attitudes = recorder.values.compactMap(\.value)
        for (attitude, pose) in zip(attitudes, MotionExpectations.poses) {
            MotionExpectations.expect(attitude, is: pose, type)
        }
        #expect(attitudes.map(\.timestamp) == (0..<Int64(count)).map { $0 + 1_000 })
    }

    /// The quaternion's order is `x y z w` and it turns the device's frame into east, north, up: readings of an
    /// ITE8350 HID sensor hub (published with a Waydroid sensor daemon's write-up), whose own accelerometer read
    /// (0.108, −8.581, −4.629) m/s² and whose own heading channel read 103.0° at the same moment.
    @Test func aSensorHubsQuaternionAgreesWithItsAccelerometerAndHeading() async throws {
        let tree = FakeIIOTree()
        tree.addQuaternionChannel(0, raw: "3203000 -3984000 -6719000 5352000", scale: "0.0000001")
        let rig = try await MotionTestRig.started(tree)
        let attitude = try #require(rig.currentAttitude)
        let up = attitude.rotationMatrix.up
        let accelerometerUp = try #require((-Vector3(x: 0.108, y: -8.581, z: -4.629)).normalized)
        let degreesApart = acos(min(1, up.dot(accelerometerUp))) * 180 / Double.pi
        #expect(degreesApart < 2, "the quaternion's up is \(degreesApart)° from the accelerometer's")
        #expect(abs(attitude.pitch - 61.5) < 0.1, "\(attitude)")
        #expect(MotionExpectations.difference(attitude.rotationMatrix.heading, 103.0) < 0.3, "\(attitude)")
    }
}
