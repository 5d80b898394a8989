import Testing
import Vigil
import VigilSensors
import VigilTestSupport

@Suite(.timeLimit(.minutes(10))) struct OrientationMonitorTests {
    @Test func followsAPolledAccelerometerThroughTheRule() throws {
        let tree = FakeIIOTree()
        let device = "bus/iio/devices/iio:device0"
        tree.addDevice(
            0, name: "accel",
            files: [
                "in_accel_x_raw": "0\n", "in_accel_y_raw": "0\n", "in_accel_z_raw": "1000\n",
                "in_accel_scale": "0.0098\n",
            ])
        let monitor = OrientationMonitor(root: tree.root, updateInterval: .milliseconds(5))
        #expect(monitor.availability == .available)
        #expect(monitor.readings.value.status == .pending, "nothing is known before the first acceleration")
        let recorder = IIOReadingRecorder(monitor.readings)
        let accelerations = IIOReadingRecorder(monitor.accelerometer.readings)
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        #expect(accelerations.first { abs(($0.value?.acceleration.z ?? 0) - 9.8) < 1e-9 } != nil)
        #expect(recorder.wait { $0.last?.value == .undefined }, "a device lying flat decides `undefined`")
        let steps: [(x: Int, y: Int, z: Int, expected: ScreenOrientation)] = [
            (0, -1000, 0, .normal), (0, -500, 800, .normal), (1000, 0, 100, .leftUp), (0, 1000, 0, .bottomUp),
            (0, 0, 1000, .bottomUp), (-1000, 0, 0, .rightUp),
        ]
        var previous = ScreenOrientation.undefined
        for step in steps {
            let before = ContinuousClock.now
            tree.write("\(device)/in_accel_x_raw", "\(step.x)\n")
            tree.write("\(device)/in_accel_y_raw", "\(step.y)\n")
            tree.write("\(device)/in_accel_z_raw", "\(step.z)\n")
            let target = Vector3(x: Double(step.x), y: Double(step.y), z: Double(step.z)).scaled(by: 0.0098)
            #expect(accelerations.first { $0.value?.acceleration.isClose(to: target) == true } != nil)
            #expect(recorder.wait { $0.last?.value == step.expected }, "\(step)")
            if step.expected != previous, let decided = recorder.values.last {
                // Stamped with the accelerometer reading that decided it.
                #expect(before <= decided.time.monotonic && decided.time.monotonic <= ContinuousClock.now)
            }
            previous = step.expected
        }
        #expect(recorder.values.first?.status == .pending)
        #expect(recorder.values.dropFirst().first?.value == .undefined)
        let published = Array(recorder.values.dropFirst())
        #expect(zip(published, published.dropFirst()).allSatisfy { $0.time < $1.time })
        monitor.stopMonitoring()
        #expect(!monitor.isMonitoring && !monitor.accelerometer.isMonitoring)
    }

    @Test func unavailableWithoutAnAccelerometer() {
        let monitor = OrientationMonitor(root: "/nonexistent-vigil-root")
        #expect(!monitor.availability.isAvailable)
        #expect(throws: SensorError.self) { try monitor.startMonitoring() }
        #expect(!monitor.isMonitoring)
    }
}

extension OrientationMonitorTests {
    /// An accelerometer that cannot be read makes the orientation unavailable with its reason (it used to keep the
    /// last orientation, so a consumer never learned why nothing came), and the next acceleration decides it again.
    @Test func anUnreadableAccelerometerMakesTheOrientationUnavailableWithItsReason() throws {
        let tree = FakeIIOTree()
        let device = "bus/iio/devices/iio:device0"
        tree.addDevice(
            0, name: "accel",
            files: [
                "in_accel_x_raw": "0\n", "in_accel_y_raw": "-1000\n", "in_accel_z_raw": "0\n",
                "in_accel_scale": "0.0098\n",
            ])
        let monitor = OrientationMonitor(root: tree.root, updateInterval: .milliseconds(5))
        let recorder = IIOReadingRecorder(monitor.readings)
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        #expect(recorder.wait { $0.last?.value == .normal })
        tree.write("\(device)/in_accel_x_raw", "garbage\n")
        #expect(recorder.wait { $0.last.map(Self.isUnavailable) == true }, "\(recorder.values)")
        if case .unavailable(let reason) = recorder.values.last?.status {
            #expect(reason.hasPrefix("accelerometer: "))
            #expect(reason.contains("in_accel_x_raw"))
        }
        tree.write("\(device)/in_accel_x_raw", "0\n")
        #expect(recorder.wait { $0.last?.value == .normal }, "\(recorder.values)")
    }

    private static func isUnavailable(_ reading: SensorReading<ScreenOrientation>) -> Bool {
        if case .unavailable = reading.status { return true }
        return false
    }
}
