import Glibc
import Testing
import Vigil
import VigilSensors
import VigilTestSupport

/// The real accelerometer capture of `shared/testdata/iio/`, decoded through a fake device node and fused with a
/// magnetometer: the check that the accelerometer's sign is right. The device stood upright in iio-sensor-proxy's
/// `normal` orientation and read x = 103, y = −919, z = −385: its top edge points up, so the pitch is +66.55°
/// (asin(919 / |a|)), not −66.55°, and its right edge is down, a roll of +14.98° (atan2(103, 385)).
@Suite(.timeLimit(.minutes(10))) struct MotionCaptureTests {
    static let magnitude = (103.0 * 103 + 919 * 919 + 385 * 385).squareRoot()
    static let pitch = asin(919 / magnitude) * 180 / Double.pi
    static let roll = atan2(103.0, 385) * 180 / Double.pi

    @Test(.enabled(if: FakeIIOTree.captures != nil, "shared/testdata/iio is not beside the checkout"))
    func theNormalCaptureIsUprightWithAPositivePitch() throws {
        let tree = FakeIIOTree()
        tree.addCaptureAccelerometer(0)
        tree.addMagnetometer(1, reading: Vector3(x: 20, y: -30, z: 25))
        let root = tree.root
        let attitude = AttitudeMonitor(
            kind: DeviceAttitude(), deviceSensor: IIOSensorMonitor<RotationSensor>(root: root),
            accelerometer: AccelerometerMonitor(root: root, mode: .buffered()),
            magnetometer: MagnetometerMonitor(root: root, updateInterval: .milliseconds(5)))
        let attitudes = IIOReadingRecorder(attitude.readings)
        let fields = IIOReadingRecorder(attitude.magnetometer.readings)
        try attitude.startMonitoring()
        defer { attitude.stopMonitoring() }
        #expect(attitude.method == .fused)
        try #require(fields.first { $0.value != nil } != nil, "the magnetometer read nothing")
        _ = tree.writeToFIFO("dev/iio:device0", try FakeIIOTree.readCapture("orientation-normal.bin"))
        let fused = try #require(attitudes.first { $0.value != nil }?.value, "\(attitudes.values)")
        #expect(abs(fused.pitch - Self.pitch) < 0.01, "\(fused)")
        #expect(abs(fused.pitch - 66.55) < 0.01)
        #expect(abs(fused.roll - Self.roll) < 0.01, "\(fused)")
        #expect(fused.method == .fused && !fused.isUncalibrated)
        // The heading is the negated yaw, the top edge's direction seen from above.
        #expect(MotionExpectations.difference(fused.rotationMatrix.heading, -fused.yaw) < 1e-9)
    }
}
