import Testing
import Vigil
import VigilSensors
import VigilTestSupport
import VigilTesting

@Suite(.timeLimit(.minutes(10))) struct IIOPolledMonitorTests {
    static let fast = Duration.milliseconds(5)

    @Test func accelerometerAppliesSharedScaleAndMountMatrix() throws {
        let tree = FakeIIOTree()
        tree.addDevice(0, name: "als")
        tree.addDevice(
            1, name: "bmi160",
            files: [
                "in_accel_x_raw": "100\n", "in_accel_y_raw": "-200\n", "in_accel_z_raw": "1000\n",
                "in_accel_scale": "0.01\n", "in_accel_mount_matrix": "0, 1, 0; -1, 0, 0; 0, 0, 1\n",
            ])
        let monitor = AccelerometerMonitor(root: tree.root, updateInterval: Self.fast)
        #expect(monitor.availability == .available)
        let recorder = IIOReadingRecorder(monitor.readings)
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        #expect(monitor.device?.id == "iio:device1")
        let value = try #require(recorder.first { $0.value != nil }?.value)
        #expect(value.acceleration.isClose(to: Vector3(x: -2, y: -1, z: 10)))
        #expect(value.timestamp > 0)
        #expect(recorder.values.first?.status == .pending)
    }

    @Test func gyroscopeUsesPerAxisScaleAndOffset() throws {
        let tree = FakeIIOTree()
        tree.addDevice(
            0, name: "gyro",
            files: [
                "in_anglvel_x_raw": "10\n", "in_anglvel_y_raw": "20\n", "in_anglvel_z_raw": "-40\n",
                "in_anglvel_x_scale": "0.5\n", "in_anglvel_y_scale": "0.25\n", "in_anglvel_z_scale": "0.125\n",
                "in_anglvel_offset": "2\n",
            ])
        let monitor = GyroscopeMonitor(root: tree.root, updateInterval: Self.fast)
        let recorder = IIOReadingRecorder(monitor.readings)
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        let value = try #require(recorder.first { $0.value != nil }?.value)
        #expect(value.rotationRate.isClose(to: Vector3(x: 6, y: 5.5, z: -4.75)))
    }

    @Test func magnetometerReportsGaussAndMicrotesla() throws {
        let tree = FakeIIOTree()
        tree.addDevice(
            0, name: "ak8975",
            files: [
                "in_magn_x_raw": "100\n", "in_magn_y_raw": "-50\n", "in_magn_z_raw": "0\n", "in_magn_scale": "0.003\n",
            ])
        let monitor = MagnetometerMonitor(root: tree.root, updateInterval: Self.fast)
        let recorder = IIOReadingRecorder(monitor.readings)
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        let value = try #require(recorder.first { $0.value != nil }?.value)
        #expect(abs(value.gauss.x - 0.3) < 1e-12 && abs(value.gauss.y + 0.15) < 1e-12 && value.gauss.z == 0)
        #expect(abs(value.microtesla.x - 30) < 1e-9 && abs(value.microtesla.y + 15) < 1e-9)
    }

    @Test func ambientLightReadsInputAsIs() throws {
        let tree = FakeIIOTree()
        tree.addDevice(0, name: "acpi-als", files: ["in_illuminance_input": "321.5\n", "in_illuminance_scale": "9\n"])
        let monitor = AmbientLightMonitor(root: tree.root, updateInterval: Self.fast)
        let recorder = IIOReadingRecorder(monitor.readings)
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        #expect(recorder.first { $0.value != nil }?.value?.lux == 321.5)
    }

    @Test func ambientLightConvertsIndexedRawWithOffsetAndScale() throws {
        let tree = FakeIIOTree()
        tree.addDevice(
            0, name: "tsl2563",
            files: ["in_illuminance0_raw": "120\n", "in_illuminance0_offset": "-20\n", "in_illuminance_scale": "2.5\n"])
        let monitor = AmbientLightMonitor(root: tree.root, updateInterval: Self.fast)
        let recorder = IIOReadingRecorder(monitor.readings)
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        #expect(recorder.first { $0.value != nil }?.value?.lux == 250)
    }

    @Test func proximityTurnsNearAtTheThresholdAndFarBelowTheHysteresis() throws {
        let tree = FakeIIOTree()
        tree.addDevice(0, name: "vcnl4000", files: ["in_proximity_raw": "10\n"])
        let monitor = ProximityMonitor(
            kind: ProximitySensor(threshold: 100, hysteresis: 20), root: tree.root, updateInterval: Self.fast)
        let recorder = IIOReadingRecorder(monitor.readings)
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        var states: [Bool?] = []
        for (level, expected) in [(10, false), (100, true), (85, true), (79, false), (95, false), (150, true)] {
            tree.write("bus/iio/devices/iio:device0/in_proximity_raw", "\(level)\n")
            let value = recorder.first(where: { $0.value?.level == Double(level) })?.value
            #expect(value?.isNear == expected, "level \(level)")
            states.append(value?.isNear)
        }
        #expect(states == [false, true, true, false, false, true])
    }

    @Test func proximityUsesTheDevicesNearLevelOrReportsNoThreshold() throws {
        let tree = FakeIIOTree()
        tree.addDevice(0, name: "prox", files: ["in_proximity0_raw": "300\n", "in_proximity_nearlevel": "250\n"])
        let withLevel = ProximityMonitor(root: tree.root, updateInterval: Self.fast)
        let recorder = IIOReadingRecorder(withLevel.readings)
        try withLevel.startMonitoring()
        #expect(recorder.first { $0.value != nil }?.value?.isNear == true)
        withLevel.stopMonitoring()
        tree.remove("bus/iio/devices/iio:device0/in_proximity_nearlevel")
        let without = ProximityMonitor(root: tree.root, updateInterval: Self.fast)
        let second = IIOReadingRecorder(without.readings)
        try without.startMonitoring()
        defer { without.stopMonitoring() }
        let value = second.first { $0.value != nil }?.value
        #expect(value?.level == 300 && value?.isNear == nil)
    }

    @Test func pressureGivesAltitudeAndRelativeAltitude() throws {
        let tree = FakeIIOTree()
        tree.addDevice(0, name: "bmp280", files: ["in_pressure_input": "101.325\n"])
        let monitor = BarometerMonitor(root: tree.root, updateInterval: Self.fast)
        let recorder = IIOReadingRecorder(monitor.readings)
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        let first = try #require(recorder.first { $0.value != nil }?.value)
        #expect(first.kilopascals == 101.325 && abs(first.altitude) < 1e-9 && first.relativeAltitude == 0)
        tree.write("bus/iio/devices/iio:device0/in_pressure_input", "89.874\n")
        let higher = try #require(recorder.first { $0.value?.kilopascals == 89.874 }?.value)
        #expect(abs(higher.altitude - 1000) < 1)
        #expect(abs(higher.relativeAltitude - higher.altitude) < 1e-9)
    }

    @Test func pressureUsesTheReferencePressureAndRawScale() throws {
        let tree = FakeIIOTree()
        tree.addDevice(0, name: "bmp280", files: ["in_pressure_raw": "25000\n", "in_pressure_scale": "0.004\n"])
        let monitor = BarometerMonitor(
            kind: Barometer(referencePressure: 100), root: tree.root, updateInterval: Self.fast)
        let recorder = IIOReadingRecorder(monitor.readings)
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        let value = try #require(recorder.first { $0.value != nil }?.value)
        #expect(value.kilopascals == 100 && abs(value.altitude) < 1e-9)
        #expect(abs(Barometer.altitude(pressure: 89.874) - 1000) < 1)
    }

    @Test func setsANonZeroSamplingFrequencyAndRestoresAWorkingOne() throws {
        let tree = FakeIIOTree()
        let device = "bus/iio/devices/iio:device0"
        tree.addDevice(
            0, name: "als",
            files: [
                "in_illuminance_input": "1\n", "sampling_frequency": "0\n",
                "sampling_frequency_available": "12.5 25 50\n",
            ])
        let monitor = AmbientLightMonitor(root: tree.root, updateInterval: .milliseconds(50))
        try monitor.startMonitoring()
        #expect(tree.read("\(device)/sampling_frequency") == "25")
        monitor.stopMonitoring()
        #expect(tree.read("\(device)/sampling_frequency") == "25")
        tree.write("\(device)/sampling_frequency", "12.5\n")
        let fast = AmbientLightMonitor(root: tree.root, updateInterval: .milliseconds(10))
        try fast.startMonitoring()
        #expect(tree.read("\(device)/sampling_frequency") == "50")
        fast.stopMonitoring()
        #expect(tree.read("\(device)/sampling_frequency") == "12.5")
    }

    @Test func aZeroIntervalIsRaisedAtConstructionAndRefusedWhenSet() throws {
        let tree = FakeIIOTree()
        tree.addDevice(0, name: "als", files: ["in_illuminance_input": "1\n", "sampling_frequency": "10\n"])
        let monitor = AmbientLightMonitor(root: tree.root, updateInterval: .zero)
        #expect(monitor.updateInterval == .milliseconds(1))
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        #expect(throws: SensorError.self) { try monitor.setUpdateInterval(.zero) }
        #expect(throws: SensorError.self) { try monitor.setUpdateInterval(.milliseconds(-5)) }
        #expect(monitor.updateInterval == .milliseconds(1))
    }

    @Test func aBufferedMonitorHasNoUpdateIntervalAndRefusesOne() {
        let monitor = AmbientLightMonitor(root: FakeIIOTree().root, mode: .buffered())
        #expect(monitor.updateInterval == nil)
        #expect(throws: SensorError.self) { try monitor.setUpdateInterval(.seconds(1)) }
    }

    @Test func theIntervalChangesWhileRunning() async throws {
        let tree = FakeIIOTree()
        tree.addDevice(0, name: "als", files: ["in_illuminance_input": "1\n"])
        let monitor = AmbientLightMonitor(root: tree.root, updateInterval: .seconds(3600))
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        monitor.refresh()  // the first tick is an hour away
        #expect(monitor.latest?.value?.lux == 1)
        try monitor.setUpdateInterval(.milliseconds(5))
        #expect(monitor.updateInterval == .milliseconds(5))
        tree.write("bus/iio/devices/iio:device0/in_illuminance_input", "2\n")
        #expect(await eventually(within: 5) { monitor.latest?.value?.lux == 2 }, "the hourly timer was not replaced")
    }

    @Test func zeroScaleFailsToStartWithAClearError() {
        let tree = FakeIIOTree()
        tree.addDevice(0, name: "als", files: ["in_illuminance_raw": "5\n", "in_illuminance_scale": "0.000\n"])
        let monitor = AmbientLightMonitor(root: tree.root, updateInterval: Self.fast)
        #expect {
            try monitor.startMonitoring()
        } throws: { error in
            guard case .valueOutOfRange(let path, _, let range) = error as? SensorError else { return false }
            return path.hasSuffix("in_illuminance_scale") && range.contains("non-zero")
        }
        #expect(!monitor.isMonitoring)
    }

    @Test func unreadableOrVanishedRawGivesAnUnavailableReadingThenRecovers() throws {
        let tree = FakeIIOTree()
        let raw = "bus/iio/devices/iio:device0/in_proximity_raw"
        tree.addDevice(0, name: "prox", files: ["in_proximity_raw": "7\n"])
        let monitor = ProximityMonitor(root: tree.root, updateInterval: Self.fast)
        let recorder = IIOReadingRecorder(monitor.readings)
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        #expect(recorder.first { $0.value?.level == 7 } != nil)
        tree.write(raw, "not a number\n")
        let garbled = recorder.first { if case .unavailable = $0.status { return true } else { return false } }
        #expect(garbled?.description.contains("in_proximity_raw") == true)
        tree.remove(raw)
        #expect(recorder.first { $0.description.contains("no such file") } != nil)
        tree.write(raw, "8\n")
        #expect(recorder.first { $0.value?.level == 8 } != nil)
        #expect(monitor.isMonitoring)
    }

    @Test func availabilitySaysPlainlyWhenThereIsNoDevice() {
        let monitor = AccelerometerMonitor(root: "/nonexistent-vigil-root")
        guard case .unavailable(let reason, let detail) = monitor.availability else {
            Issue.record("expected unavailable")
            return
        }
        #expect(reason == .missingDevice)
        #expect(detail.contains("no IIO device"))
        #expect(throws: SensorError.self) { try monitor.startMonitoring() }
        let tree = FakeIIOTree()
        tree.addDevice(0, name: "als", files: ["in_illuminance_input": "1\n"])
        let noAccelerometer = AccelerometerMonitor(root: tree.root).availability
        #expect(noAccelerometer.description.contains("none of the 1 IIO devices under"))
        #expect(noAccelerometer.description.contains("has in_accel_x, _y and _z channels"))
        let named = AccelerometerMonitor(root: tree.root, deviceID: "iio:device0").availability
        #expect(named.description.contains("iio:device0 under \(tree.root)/bus/iio/devices has no in_accel_x"))
        let missing = AmbientLightMonitor(root: tree.root, deviceID: "iio:device7").availability
        #expect(missing.description.contains("no iio:device7 under"))
        #expect(AmbientLightMonitor(root: tree.root).availability.isAvailable)
        #expect(!AmbientLightMonitor(root: tree.root, mode: .buffered()).availability.isAvailable)
    }

    @Test func readingsEncodeAndDescribe() throws {
        let value = Accelerometer.Value(acceleration: Vector3(x: 0, y: -9.81, z: 0.5), timestamp: 7)
        #expect(SensorReading.value(value).description == "x 0 y -9.81 z 0.5 m/s²")
        #expect(SensorReading<Accelerometer.Value>.pending.description.contains("waiting"))
        #expect(SensorReading<Accelerometer.Value>.unavailable(reason: "gone").description == "unavailable: gone")
        #expect(ScreenOrientation.leftUp.description == "left-up")
    }
}

extension Vector3 {
    /// Whether every component is within `tolerance` of `other`'s.
    func isClose(to other: Vector3, tolerance: Double = 1e-9) -> Bool {
        abs(x - other.x) <= tolerance && abs(y - other.y) <= tolerance && abs(z - other.z) <= tolerance
    }
}

extension IIOPolledMonitorTests {
    @Test func publishesOnlyWhenAPolledValueChanges() async throws {
        let tree = FakeIIOTree()
        tree.addDevice(0, name: "als", files: ["in_illuminance_input": "5\n"])
        let clock = ManualClock()
        let loop = EventLoop(clock: clock)
        defer { loop.shutdown() }
        let monitor = AmbientLightMonitor(root: tree.root, updateInterval: Self.fast, eventLoop: loop)
        let recorder = IIOReadingRecorder(monitor.readings)
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        await clock.advance(by: Self.fast)
        #expect(recorder.values.compactMap(\.value?.lux) == [5])
        // At 200 Hz, 0.2 s is 40 polls of the same value: none is published again.
        #expect(await clock.advance(by: .milliseconds(200)) == 40)
        #expect(recorder.values.compactMap(\.value).count == 1)
        tree.write("bus/iio/devices/iio:device0/in_illuminance_input", "6\n")
        await clock.advance(by: Self.fast)
        #expect(recorder.values.compactMap(\.value?.lux) == [5, 6])
    }
}
