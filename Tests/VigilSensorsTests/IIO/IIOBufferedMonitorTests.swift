import Glibc
import Synchronization
import Testing
import Vigil
import VigilSensors
import VigilTestSupport

@Suite(.timeLimit(.minutes(10))) struct IIOBufferedMonitorTests {
    static let device = "bus/iio/devices/iio:device0"

    /// A gyroscope with three `le:s16/16` channels, a timestamp and an unrelated `temp` element left enabled.
    static func gyroscopeTree() -> FakeIIOTree {
        let tree = FakeIIOTree()
        tree.addDevice(
            0, name: "bmg160",
            files: [
                "in_anglvel_x_raw": "0\n", "in_anglvel_y_raw": "0\n", "in_anglvel_z_raw": "0\n",
                "in_anglvel_scale": "0.001\n", "in_temp_raw": "0\n",
            ])
        tree.addBuffer(
            0,
            elements: [
                ("anglvel_x", 0, "le:s16/16>>0"), ("anglvel_y", 1, "le:s16/16>>0"), ("anglvel_z", 2, "le:s16/16>>0"),
                ("temp", 3, "le:s8/8>>0"), ("timestamp", 4, "le:s64/64>>0"),
            ])
        tree.write("\(device)/scan_elements/in_temp_en", "1\n")
        tree.makeFIFO("dev/iio:device0")
        return tree
    }

    /// One gyroscope scan: x, y, z, then padding to the 8-byte timestamp.
    static func gyroscopeScan(_ x: Int16, _ y: Int16, _ z: Int16, timestamp: Int64) -> [UInt8] {
        var bytes: [UInt8] = []
        for value in [x, y, z] { bytes += [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)] }
        bytes += [0, 0]
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: timestamp >> shift)) }
        return bytes
    }

    @Test func decodesScansFromTheDeviceNodeAndRestoresTheDevice() throws {
        let tree = Self.gyroscopeTree()
        let monitor = GyroscopeMonitor(root: tree.root, mode: .buffered(length: 32))
        let recorder = IIOReadingRecorder(monitor.readings)
        try monitor.startMonitoring()
        #expect(tree.read("\(Self.device)/buffer/enable") == "1")
        #expect(tree.read("\(Self.device)/buffer/length") == "32")
        #expect(tree.read("\(Self.device)/scan_elements/in_anglvel_x_en") == "1")
        #expect(tree.read("\(Self.device)/scan_elements/in_timestamp_en") == "1")
        #expect(tree.read("\(Self.device)/scan_elements/in_temp_en") == "0")
        let writer = tree.writeToFIFO(
            "dev/iio:device0",
            Self.gyroscopeScan(1000, -2000, 3, timestamp: 1_000_000_007)
                + Self.gyroscopeScan(-1, 0, 32767, timestamp: 2_000_000_000),
            closing: false)
        defer { close(writer) }
        #expect(recorder.wait { $0.compactMap(\.value).count == 2 })
        let values = recorder.values.compactMap(\.value)
        #expect(values.map(\.timestamp) == [1_000_000_007, 2_000_000_000])
        #expect(values.first?.rotationRate.isClose(to: Vector3(x: 1, y: -2, z: 0.003)) == true)
        #expect(values.last?.rotationRate.isClose(to: Vector3(x: -0.001, y: 0, z: 32.767)) == true)
        monitor.stopMonitoring()
        #expect(!monitor.isMonitoring)
        #expect(tree.read("\(Self.device)/buffer/enable") == "0")
        #expect(tree.read("\(Self.device)/scan_elements/in_anglvel_x_en") == "0")
        #expect(tree.read("\(Self.device)/scan_elements/in_temp_en") == "1")
    }

    @Test func joinsAScanSplitAcrossReads() async throws {
        let tree = Self.gyroscopeTree()
        let monitor = GyroscopeMonitor(root: tree.root, mode: .buffered())
        let recorder = IIOReadingRecorder(monitor.readings)
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        let scan = Self.gyroscopeScan(5, 6, 7, timestamp: 42)
        let writer = tree.writeToFIFO("dev/iio:device0", Array(scan[0..<5]), closing: false)
        defer { close(writer) }
        try await EventLoop.shared.barrier()  // the FIFO was readable: its handler has read the partial scan
        #expect(recorder.values.map(\.status) == [.pending])
        let rest = Array(scan[5...])
        #expect(rest.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) } == rest.count)
        #expect(recorder.first { $0.value != nil }?.value?.timestamp == 42)
    }

    @Test func truncatedScanAtEndOfFileIsAClearErrorAndDisablesTheBuffer() throws {
        let tree = Self.gyroscopeTree()
        let monitor = GyroscopeMonitor(root: tree.root, mode: .buffered())
        let recorder = IIOReadingRecorder(monitor.readings)
        try monitor.startMonitoring()
        _ = tree.writeToFIFO("dev/iio:device0", Self.gyroscopeScan(1, 2, 3, timestamp: 9) + [1, 2, 3])
        let failure = recorder.first { if case .unavailable = $0.status { return true } else { return false } }
        #expect(failure?.description.contains("truncated scan") == true)
        #expect(recorder.values.compactMap(\.value).count == 1)
        #expect(recorder.wait { _ in !monitor.isMonitoring })
        #expect(tree.read("\(Self.device)/buffer/enable") == "0")
        #expect(tree.read("\(Self.device)/scan_elements/in_temp_en") == "1")
    }

    @Test func closedDeviceNodeReportsTheDeviceGone() throws {
        let tree = Self.gyroscopeTree()
        let monitor = GyroscopeMonitor(root: tree.root, mode: .buffered())
        let recorder = IIOReadingRecorder(monitor.readings)
        try monitor.startMonitoring()
        _ = tree.writeToFIFO("dev/iio:device0", [])
        #expect(recorder.first { $0.description.contains("went away") } != nil)
        #expect(recorder.wait { _ in !monitor.isMonitoring })
        #expect(tree.read("\(Self.device)/buffer/enable") == "0")
    }

    @Test func unparsableScanTypeFailsToStartAndLeavesTheDeviceAsItWas() throws {
        let tree = Self.gyroscopeTree()
        tree.write("\(Self.device)/scan_elements/in_anglvel_y_type", "le:s16/12>>0\n")
        let monitor = GyroscopeMonitor(root: tree.root, mode: .buffered())
        #expect {
            try monitor.startMonitoring()
        } throws: { error in
            guard case .malformedValue(let path, _, _) = error as? SensorError else { return false }
            return path.hasSuffix("in_anglvel_y_type")
        }
        #expect(!monitor.isMonitoring)
        #expect(tree.read("\(Self.device)/buffer/enable") == "0")
        #expect(tree.read("\(Self.device)/scan_elements/in_anglvel_x_en") == "0")
        #expect(tree.read("\(Self.device)/scan_elements/in_temp_en") == "1")
    }

    @Test func missingDeviceNodeFailsToStartAndDisablesTheBuffer() {
        let tree = Self.gyroscopeTree()
        tree.remove("dev/iio:device0")
        let monitor = GyroscopeMonitor(root: tree.root, mode: .buffered())
        #expect(throws: SensorError.notFound(path: tree.nodePath(0))) { try monitor.startMonitoring() }
        #expect(tree.read("\(Self.device)/buffer/enable") == "0")
    }

    @Test func selectsTheDevicesOwnTriggerWhenNoneIsSet() throws {
        let tree = FakeIIOTree()
        tree.addCaptureAccelerometer()
        tree.write("\(Self.device)/trigger/current_trigger", "\n")
        tree.write("bus/iio/devices/trigger0/name", "hrtimer0\n")
        tree.write("bus/iio/devices/trigger1/name", "accel_3d-dev0\n")
        let monitor = AccelerometerMonitor(root: tree.root, mode: .buffered())
        try monitor.startMonitoring()
        #expect(tree.read("\(Self.device)/trigger/current_trigger") == "accel_3d-dev0")
        monitor.stopMonitoring()
        #expect(tree.read("\(Self.device)/trigger/current_trigger") == "", "the trigger it selected is cleared")
        tree.write("\(Self.device)/trigger/current_trigger", "hrtimer0\n")
        try monitor.startMonitoring()
        monitor.stopMonitoring()
        #expect(tree.read("\(Self.device)/trigger/current_trigger") == "hrtimer0", "a trigger set before stays")
        tree.write("\(Self.device)/trigger/current_trigger", "\n")
        tree.remove("bus/iio/devices/trigger0/name")
        tree.remove("bus/iio/devices/trigger1/name")
        #expect(throws: SensorError.self) { try monitor.startMonitoring() }
        #expect(tree.read("\(Self.device)/buffer/enable") == "0")
    }

    @Test func bufferedModeNeedsABuffer() {
        let tree = FakeIIOTree()
        tree.addDevice(
            0, name: "gyro", files: ["in_anglvel_x_raw": "0\n", "in_anglvel_y_raw": "0\n", "in_anglvel_z_raw": "0\n"])
        let monitor = GyroscopeMonitor(root: tree.root, mode: .buffered())
        #expect(!monitor.availability.isAvailable)
        #expect(monitor.availability.description.contains("has no buffer"))
        #expect(throws: SensorError.self) { try monitor.startMonitoring() }
    }
}

extension IIOBufferedMonitorTests {
    @Test func aChannelWithoutAScanElementFailsToStart() throws {
        let tree = Self.gyroscopeTree()
        tree.remove("\(Self.device)/scan_elements/in_anglvel_z_en")
        let monitor = GyroscopeMonitor(root: tree.root, mode: .buffered())
        #expect {
            try monitor.startMonitoring()
        } throws: { error in
            guard case .unsupported(_, let reason) = error as? SensorError else { return false }
            return reason.contains("anglvel_z")
        }
        #expect(tree.read("\(Self.device)/buffer/enable") == "0")
    }
}

extension IIOBufferedMonitorTests {
    /// Stops racing starts never leave a registration or an open device node behind. The sampler used to publish
    /// its open node before registering it: a stop in between closed the node, and the registration that followed
    /// was never cancelled (the loop then watched a closed descriptor, or whatever reused its number).
    @Test func stopsRacingStartsLeaveNoRegistrationAndNoOpenNode() {
        let tree = Self.gyroscopeTree()
        let loop = EventLoop()
        defer { loop.shutdown() }
        let monitor = GyroscopeMonitor(root: tree.root, mode: .buffered(length: 32), eventLoop: loop)
        let node = tree.root + "/dev/iio:device0"
        var leaked = 0
        for _ in 0..<300 {
            let started = Atomic<Bool>(false)
            concurrently(2) { index in
                if index == 0 {
                    try? monitor.startMonitoring()
                    started.store(true, ordering: .releasing)
                } else {
                    // Stops all through the start, so that one lands inside each of its steps.
                    while !started.load(ordering: .acquiring) { monitor.stopMonitoring() }
                }
            }
            monitor.stopMonitoring()
            if loop.registrationCount != 0 { leaked += 1 }
        }
        #expect(leaked == 0, "\(leaked) of 300 rounds left a registration behind")
        #expect(loop.registrationCount == 0)
        #expect(ProcessProbe.openDescriptorCount(linkingTo: node) == 0)
        #expect(tree.read("\(Self.device)/buffer/enable") == "0")
    }
}
