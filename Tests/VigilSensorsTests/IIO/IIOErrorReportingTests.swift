import Glibc
import Testing
import Vigil
import VigilSensors
import VigilTestSupport
import VigilTesting

/// IIO errors are published once per change and name what is wrong (issue 14, defects 7 and 8).
@Suite(.timeLimit(.minutes(10))) struct IIOErrorReportingTests {
    @Test func repeatedIdenticalReadErrorIsPublishedOnce() async throws {
        let tree = FakeIIOTree()
        let raw = "bus/iio/devices/iio:device0/in_proximity_raw"
        tree.addDevice(0, name: "prox", files: ["in_proximity_raw": "7\n"])
        let clock = ManualClock()
        let loop = EventLoop(clock: clock)
        defer { loop.shutdown() }
        let monitor = ProximityMonitor(root: tree.root, updateInterval: .milliseconds(5), eventLoop: loop)
        let recorder = IIOReadingRecorder(monitor.readings)
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        await clock.advance(by: .milliseconds(5))
        #expect(recorder.values.last?.value?.level == 7)
        tree.write(raw, "not a number\n")
        // At 200 Hz, 0.3 s is 60 polls failing the same way: the failure is said once.
        let polls = await clock.advance(by: .milliseconds(300))
        #expect(polls == 60)
        let failures = recorder.values.filter { if case .unavailable = $0.status { true } else { false } }
        #expect(failures.count == 1, "published \(failures.count) identical errors")
        // A different failure is news, and so is the value coming back.
        tree.remove(raw)
        await clock.advance(by: .milliseconds(5))
        #expect(recorder.values.last?.description.contains("no such file") == true)
        tree.write(raw, "8\n")
        await clock.advance(by: .milliseconds(5))
        #expect(recorder.values.last?.value?.level == 8)
        tree.write(raw, "garbled\n")
        await clock.advance(by: .milliseconds(50))
        #expect(recorder.values.filter { $0.description.contains("garbled") }.count == 1)
    }

    @Test func deviceNodeThatIsARegularFileIsNamedAsSuch() throws {
        let tree = FakeIIOTree()
        tree.addCaptureAccelerometer()
        tree.remove("dev/iio:device0")
        tree.write("dev/iio:device0", "")
        let monitor = AccelerometerMonitor(root: tree.root, mode: .buffered())
        let node = tree.nodePath(0)
        #expect(
            throws: SensorError.wrongFileType(path: node, found: "regular file", expected: "an IIO character device")
        ) {
            try monitor.startMonitoring()
        }
        #expect(!monitor.isMonitoring)
        #expect(tree.read("bus/iio/devices/iio:device0/buffer/enable") == "0")
    }

    @Test func pressureThatIsNotPositiveIsUnavailableNotNaN() throws {
        let tree = FakeIIOTree()
        tree.addDevice(0, name: "bmp280", files: ["in_pressure_input": "-5\n"])
        let monitor = BarometerMonitor(root: tree.root, updateInterval: .milliseconds(5))
        let recorder = IIOReadingRecorder(monitor.readings)
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        let first = recorder.first { $0.status != .pending }
        #expect(first?.description == "unavailable: iio:device0 (bmp280): pressure -5.0 kPa is not positive")
        tree.write("bus/iio/devices/iio:device0/in_pressure_input", "101.325\n")
        #expect(recorder.first { $0.value?.kilopascals == 101.325 }?.value?.altitude == 0)
    }

    @Test func valuesThatOverflowInTheMountMatrixAreUnavailable() throws {
        let tree = FakeIIOTree()
        tree.addDevice(
            0, name: "ak8975",
            files: [
                "in_magn_x_raw": "1e308\n", "in_magn_y_raw": "1e308\n", "in_magn_z_raw": "0\n",
                "in_magn_mount_matrix": "1, 1, 0; 0, 1, 0; 0, 0, 1\n",
            ])
        let monitor = MagnetometerMonitor(root: tree.root, updateInterval: .milliseconds(5))
        let recorder = IIOReadingRecorder(monitor.readings)
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        let first = recorder.first { $0.status != .pending }
        #expect(
            first?.description.contains("is not finite after the mount matrix") == true, "\(String(describing: first))")
        #expect(first?.value == nil)
    }
}
