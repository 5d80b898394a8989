import Glibc
import Testing
import Vigil
import VigilSensors
import VigilTestSupport

/// The real accelerometer captures in `shared/testdata/iio/`, decoded end to end through a fake device node.
@Suite(.timeLimit(.minutes(10))) struct IIOCaptureTests {
    /// Runs a buffered orientation monitor over `capture` and returns the accelerometer values and the last
    /// orientation decided (the capture's end then makes the orientation unavailable: the device went away).
    static func replay(_ capture: String) throws -> (values: [Accelerometer.Value], orientation: ScreenOrientation) {
        let bytes = try FakeIIOTree.readCapture(capture)
        let tree = FakeIIOTree()
        tree.addCaptureAccelerometer()
        let monitor = OrientationMonitor(root: tree.root, mode: .buffered())
        let accelerations = IIOReadingRecorder(monitor.accelerometer.readings)
        let orientations = IIOReadingRecorder(monitor.readings)
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        _ = tree.writeToFIFO("dev/iio:device0", bytes)
        let ended = accelerations.wait { readings in
            if case .unavailable = readings.last?.status { return true } else { return false }
        }
        try #require(ended, "the device node's end of file was not reported")
        #expect(accelerations.values.last?.description.contains("went away") == true)
        #expect(tree.read("bus/iio/devices/iio:device0/buffer/enable") == "0")
        // The device that went away makes the orientation unavailable too, with the accelerometer's reason.
        let forwarded = orientations.wait { readings in
            if case .unavailable(let reason) = readings.last?.status { reason.contains("went away") } else { false }
        }
        #expect(forwarded, "\(orientations.values)")
        return (accelerations.values.compactMap(\.value), orientations.values.compactMap(\.value).last ?? .undefined)
    }

    @Test(.enabled(if: FakeIIOTree.captures != nil, "shared/testdata/iio is not beside the checkout"))
    func normalCaptureYieldsNormal() throws {
        let result = try Self.replay("orientation-normal.bin")
        #expect(result.values.map(\.acceleration) == [Vector3(x: 103, y: -919, z: -385)])
        #expect(result.values.first?.timestamp == 0x165B_FC09_4574_81CE)
        #expect(result.orientation == .normal)
    }

    @Test(.enabled(if: FakeIIOTree.captures != nil, "shared/testdata/iio is not beside the checkout"))
    func leftUpCaptureEndsLeftUp() throws {
        let result = try Self.replay("orientation-left-up.bin")
        #expect(result.values.count == 15)
        #expect(result.values.first?.acceleration == Vector3(x: 173, y: -829, z: -581))
        #expect(result.values.last?.acceleration == Vector3(x: 840, y: -238, z: -201))
        #expect(result.orientation == .leftUp)
    }
}
