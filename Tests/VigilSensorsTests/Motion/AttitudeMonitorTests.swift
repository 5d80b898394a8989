import Testing
import Vigil
import VigilSensors
import VigilTestSupport

/// The attitude from a device's quaternion: its scale and normalization, and the quaternions and lines that are no
/// rotation.
@Suite(.timeLimit(.minutes(10))) struct AttitudeMonitorTests {
    static let quaternionFile = "bus/iio/devices/iio:device0/in_rot_quaternion_raw"

    /// A quaternion of any length is normalized, with `w ≥ 0`: the scale may be off (or absent) and the rotation
    /// still right.
    @Test func normalizesTheDevicesQuaternion() async throws {
        let tree = FakeIIOTree()
        tree.addDevice(0, name: "dev_rotation", files: ["in_rot_quaternion_raw": "0 0 -3 -3\n"])
        let rig = try await MotionTestRig.started(tree)
        let attitude = try #require(rig.currentAttitude, "\(rig.attitude.readings.value)")
        #expect(
            abs(attitude.quaternion.w - 0.5.squareRoot()) < 1e-12
                && abs(attitude.quaternion.z - 0.5.squareRoot()) < 1e-12)
        // A quarter turn counter-clockwise: the top edge points west.
        #expect(abs(attitude.yaw - 90) < 1e-9 && abs(attitude.pitch) < 1e-9 && abs(attitude.roll) < 1e-9)
        #expect(abs(attitude.rotationMatrix.heading - 270) < 1e-9)
        #expect(attitude.description.hasPrefix("yaw 90.0° pitch 0.0° roll 0.0°"), "\(attitude)")
    }

    /// A zero quaternion (a hub before its first fusion), a line of three numbers, one of garbage, and a file that
    /// never ends (80 KB, past the 64 KiB an attribute is read up to) are each unavailable with what is wrong; a good
    /// line recovers.
    @Test(arguments: [
        ("0 0 0 0", "is zero or cannot be normalized"), ("1 2 3", "4 numbers on one line"),
        ("1 2 3 4 5", "4 numbers on one line"), ("1 2 x 4", "4 numbers on one line"),
        ("1 2 3 4 on four lines", "4 numbers on one line"), ("1e308 1e308 1e308 1e308", "cannot be normalized"),
        ("80 KB of numbers", "more than 65536 bytes"),
    ])
    func aQuaternionThatIsNoRotationIsUnavailable(case name: String, problem: String) async throws {
        let lines = ["1 2 3 4 on four lines": "1\n2\n3\n4", "80 KB of numbers": String(repeating: "1 ", count: 40_000)]
        let line = lines[name] ?? name
        let tree = FakeIIOTree()
        tree.addQuaternionChannel(0, raw: "0 0 0 1", scale: "1")
        let rig = try await MotionTestRig.started(tree)
        #expect(rig.currentAttitude?.quaternion == .identity)
        tree.write(Self.quaternionFile, line + "\n")
        await rig.advance()
        let reason = try #require(rig.attitudeProblem, "\(rig.attitude.readings.value)")
        #expect(reason.hasPrefix("rotation: ") && reason.contains(problem), "\(reason)")
        tree.write(Self.quaternionFile, "0 0 1 0\n")
        await rig.advance()
        #expect(rig.currentAttitude?.quaternion == Quaternion(w: 0, x: 0, y: 0, z: 1), "\(rig.attitude.readings.value)")
    }

    /// A scan element that is not repeated four times gives no quaternion, and says so for each scan.
    @Test func aQuaternionElementWithoutFourValuesIsUnavailable() throws {
        let tree = FakeIIOTree()
        tree.addQuaternionChannel(0, raw: "0 0 0 1", scale: "1")
        tree.addQuaternionBuffer(0, type: "le:s32/32>>0")
        let monitor = AttitudeMonitor(root: tree.root, mode: .buffered())
        let recorder = IIOReadingRecorder(monitor.readings)
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        var scan: [UInt8] = [1, 0, 0, 0, 0, 0, 0, 0]
        for shift in stride(from: 0, to: 64, by: 8) { scan.append(UInt8(truncatingIfNeeded: 5 >> shift)) }
        _ = tree.writeToFIFO("dev/iio:device0", scan, closing: false)
        let problem = recorder.first { "\($0)".contains("rot_quaternion holds") }
        #expect(
            problem?.description.contains("the scan element rot_quaternion holds 1 value, not 4") == true,
            "\(recorder.values)")
    }
}
