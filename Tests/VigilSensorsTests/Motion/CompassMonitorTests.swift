import Testing
import Vigil
import VigilSensors
import VigilTestSupport

/// The compass: a device's own heading channel (scale, offset, which channel), the declination, and the fused
/// heading's unavailable and uncalibrated readings.
@Suite(.timeLimit(.minutes(10))) struct CompassMonitorTests {
    static let headingFile = "bus/iio/devices/iio:device0/in_rot_from_north_magnetic_tilt_comp_raw"

    /// `(raw + offset) × scale` in degrees, brought into 0 ≤ h < 360, from the tilt-compensated channel.
    @Test func readsTheDevicesOwnHeading() async throws {
        let tree = FakeIIOTree()
        tree.addHeadingChannel(0, raw: "1234")
        // An accelerometer and a magnetometer beside it are not used: the device's channel comes first.
        tree.addMotionSensors(1, at: DevicePose(yaw: 0, pitch: 0, roll: 0))
        let rig = MotionTestRig(tree)
        try rig.start()
        #expect(rig.compass.method == .device)
        #expect(rig.compass.accelerometer.isMonitoring == false && rig.compass.deviceSensor.isMonitoring)
        await rig.advance()
        let heading = try #require(rig.heading)
        #expect(abs(heading.magneticHeading - 123.4) < 1e-9)
        #expect(heading.method == .device && heading.isTiltCompensated && heading.fieldStrength == nil)
        #expect(heading.description == "123.4° ESE magnetic (device channel)")
        for (raw, expected) in [("-900", 270.0), ("3600", 0), ("3599", 359.9), ("-3599", 0.1), ("-3600", 0)] {
            tree.write(Self.headingFile, raw + "\n")
            await rig.advance()
            #expect(
                abs((rig.heading?.magneticHeading ?? -1) - expected) < 1e-9, "\(raw): \(rig.compass.readings.value)")
        }
    }

    /// Buffered, the heading is its own scan element beside the field's (left disabled): 16 bits in a 32-bit slot
    /// whose upper bits hold junk.
    @Test func readsTheDevicesHeadingBuffered() throws {
        let tree = FakeIIOTree()
        tree.addHeadingChannel(0, raw: "0")
        tree.addHeadingBuffer(0)
        let compass = CompassMonitor(root: tree.root, mode: .buffered())
        let recorder = IIOReadingRecorder(compass.readings)
        try compass.startMonitoring()
        defer { compass.stopMonitoring() }
        let elements = "bus/iio/devices/iio:device0/scan_elements"
        #expect(tree.read("\(elements)/in_rot_from_north_magnetic_tilt_comp_en") == "1")
        #expect(tree.read("\(elements)/in_magn_x_en") == "0")
        let scans = [1234, -900, 3599].enumerated().flatMap { index, raw in
            FakeIIOTree.rotationScan([Int64(raw)], timestamp: 7_000 + Int64(index))
        }
        _ = tree.writeToFIFO("dev/iio:device0", scans)
        #expect(recorder.wait { $0.compactMap(\.value).count == 3 }, "\(recorder.values)")
        let headings = recorder.values.compactMap(\.value)
        for (heading, expected) in zip(headings, [123.4, 270, 359.9]) {
            #expect(abs(heading.magneticHeading - expected) < 1e-9 && heading.method == .device, "\(heading)")
        }
        #expect(headings.map(\.timestamp) == [7_000, 7_001, 7_002])
    }

    /// A hub that reports tenths of a degree with `in_rot_scale` 1 (the driver does not apply its unit) reads beyond
    /// a full turn: unavailable with the reason, not a heading taken modulo 360.
    @Test func aHeadingBeyondAFullTurnIsUnavailable() async throws {
        let tree = FakeIIOTree()
        tree.addHeadingChannel(0, raw: "1020", scale: "1")
        let rig = try await MotionTestRig.started(tree)
        #expect(
            rig.compassProblem?.hasSuffix(
                "heading 1020° is beyond a full turn: the device's in_rot_scale does not give degrees") == true,
            "\(rig.compass.readings.value)")
        tree.write("bus/iio/devices/iio:device0/in_rot_from_north_magnetic_tilt_comp_raw", "102\n")
        await rig.advance()
        #expect(rig.heading?.magneticHeading == 102)
    }

    /// The offset is added before the scale, as the IIO ABI says.
    @Test func appliesTheOffsetBeforeTheScale() async throws {
        let tree = FakeIIOTree()
        tree.addHeadingChannel(0, raw: "-900", scale: "0.01")
        tree.write("bus/iio/devices/iio:device0/in_rot_offset", "9900\n")
        let rig = try await MotionTestRig.started(tree)
        #expect(abs((rig.heading?.magneticHeading ?? -1) - 90) < 1e-9, "\(rig.compass.readings.value)")
    }

    /// Without the tilt-compensated channel, the plain one is read and the reading says so.
    @Test func fallsBackToTheChannelWithoutTiltCompensation() async throws {
        let tree = FakeIIOTree()
        tree.addHeadingChannel(0, raw: "900", scale: "0.1", tiltCompensated: false)
        let rig = try await MotionTestRig.started(tree)
        let heading = try #require(rig.heading)
        #expect(heading.magneticHeading == 90 && !heading.isTiltCompensated)
        #expect(heading.description == "90.0° E magnetic (device channel, not tilt-compensated)")
    }

    /// The true heading adds the declination (east positive), for a device channel and a fused heading alike.
    @Test func aDeclinationGivesTheTrueHeading() async throws {
        let tree = FakeIIOTree()
        tree.addHeadingChannel(0, raw: "1234")
        let rig = try await MotionTestRig.started(tree, compass: try Compass(declination: -130))
        let heading = try #require(rig.heading)
        #expect(abs((heading.trueHeading ?? 0) - 353.4) < 1e-9 && heading.declination == -130)
        #expect(heading.description == "123.4° ESE magnetic, 353.4° N true (device channel)")
        let fusedTree = FakeIIOTree()
        let pose = DevicePose(yaw: -100, pitch: 10, roll: 20)
        fusedTree.addMotionSensors(0, at: pose)
        let fused = try await MotionTestRig.started(fusedTree, compass: try Compass(declination: 12.5))
        let trueHeading = try #require(fused.heading?.trueHeading)
        #expect(MotionExpectations.difference(trueHeading, pose.heading + 12.5) < MotionExpectations.tolerance)
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity, 180.5, -181, 1e300])
    func anImpossibleDeclinationIsRefused(declination: Double) {
        #expect(throws: SensorError.self) { _ = try Compass(declination: declination) }
        var options = SourceCatalog.Options(sysfsRoot: "/nonexistent-vigil-root")
        options.declination = declination
        #expect(throws: SensorError.self) { _ = try SourceCatalog.entry(id: "compass")?.make(options) }
    }

    /// Free fall and a vertical field make the heading unavailable with the reason, said once however often it is
    /// read, and the next good reading brings it back.
    @Test func freeFallAndAVerticalFieldAreUnavailableWithTheirReason() async throws {
        let tree = FakeIIOTree()
        let pose = DevicePose(yaw: 30, pitch: 0, roll: 0)
        tree.addMotionSensors(0, at: pose)
        let rig = try await MotionTestRig.started(tree)
        #expect(rig.heading != nil)
        tree.setAcceleration(0, Vector3(x: 0.1, y: -0.2, z: 0.3))
        await rig.advance()
        #expect(
            rig.compassProblem?.hasPrefix("free fall: the acceleration is 0.37 m/s²") == true,
            "\(rig.compassProblem ?? "")")
        #expect(rig.attitudeProblem?.hasPrefix("free fall") == true)
        // Falling on, the acceleration changes every poll: still the same reason, published once.
        for step in 1...5 {
            tree.setAcceleration(0, Vector3(x: 0.1, y: -0.2, z: 0.3 + Double(step) / 100_000))
            await rig.advance()
        }
        #expect(rig.compassReadings.values.filter { "\($0)".contains("free fall") }.count == 1)
        tree.setAcceleration(0, pose.acceleration)
        await rig.advance()
        #expect(MotionExpectations.difference(rig.heading?.magneticHeading ?? -1, pose.heading) < 0.1)
        tree.setField(1, Vector3(x: 0, y: 0, z: -55))
        await rig.advance()
        #expect(rig.compassProblem?.contains("from the vertical") == true, "\(rig.compass.readings.value)")
        tree.setField(1, pose.magneticField)
        await rig.advance()
        #expect(rig.heading != nil)
    }

    /// A field far outside the Earth's 25–65 µT is still a heading, flagged uncalibrated.
    @Test(arguments: [(5.0, true), (20, false), (48, false), (90, false), (500, true)])
    func aFieldFarOutsideTheEarthsIsFlaggedUncalibrated(strength: Double, uncalibrated: Bool) async throws {
        let tree = FakeIIOTree()
        let pose = DevicePose(yaw: 75, pitch: -20, roll: 40)
        tree.addMotionSensors(0, at: pose)
        tree.setField(1, pose.magneticField.scaled(by: strength / 48))
        let rig = try await MotionTestRig.started(tree)
        let heading = try #require(rig.heading)
        #expect(heading.isUncalibrated == uncalibrated, "\(heading)")
        #expect(abs((heading.fieldStrength ?? 0) - strength) < 0.01)
        #expect(MotionExpectations.difference(heading.magneticHeading, pose.heading) < 0.1)
        #expect(rig.currentAttitude?.isUncalibrated == uncalibrated)
        #expect(heading.description.hasSuffix(uncalibrated ? ", uncalibrated)" : " µT)"), "\(heading)")
    }

    /// An input that cannot be read makes the heading unavailable with the input's name and reason; one bad
    /// attribute (a garbled heading, a file that never ends) is said once and the next good read recovers.
    @Test func unreadableInputsAreUnavailableWithTheirReason() async throws {
        let tree = FakeIIOTree()
        tree.addMotionSensors(0, at: DevicePose(yaw: 0, pitch: 0, roll: 0))
        let rig = try await MotionTestRig.started(tree)
        tree.write("bus/iio/devices/iio:device1/in_magn_y_raw", "garbage\n")
        await rig.advance()
        #expect(rig.compassProblem?.hasPrefix("magnetometer: ") == true, "\(rig.compass.readings.value)")
        #expect(rig.compassProblem?.contains("in_magn_y_raw") == true)
        tree.setField(1, DevicePose.field)
        await rig.advance()
        #expect(rig.heading != nil)

        let headingTree = FakeIIOTree()
        headingTree.addHeadingChannel(0, raw: "10")
        let device = try await MotionTestRig.started(headingTree)
        headingTree.write(Self.headingFile, String(repeating: "9", count: 100_000) + "\n")
        await device.advance()
        #expect(device.compassProblem?.hasPrefix("heading: ") == true, "\(device.compass.readings.value)")
        #expect(device.compassProblem?.contains("more than 65536 bytes") == true, "\(device.compass.readings.value)")
        headingTree.write(Self.headingFile, "20\n")
        await device.advance()
        #expect(device.heading?.magneticHeading == 2)
    }

    @Test func unavailableWithoutADeviceChannelOrBothInputs() throws {
        let tree = FakeIIOTree()
        let none = CompassMonitor(root: tree.root)
        #expect(none.availability.description.contains("no IIO device"), "\(none.availability)")
        #expect(throws: SensorError.self) { try none.startMonitoring() }
        #expect(!none.isMonitoring)
        tree.addAccelerometer(0, reading: DevicePose.field)
        let accelerometerOnly = CompassMonitor(root: tree.root)
        guard case .unavailable(let reason, let detail) = accelerometerOnly.availability else {
            Issue.record("an accelerometer alone made the compass available")
            return
        }
        #expect(reason == .missingDevice)
        #expect(detail.contains("in_magn_x, _y and _z"), "\(detail)")
        #expect(detail.contains("in_rot_from_north_magnetic_tilt_comp or in_rot_from_north_magnetic"), "\(detail)")
    }
}
