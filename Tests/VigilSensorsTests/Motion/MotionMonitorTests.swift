import Testing
import Vigil
import VigilSensors
import VigilTestSupport

/// What a motion monitor runs, and when: the choice of method at each start, the monitors it starts and stops, its
/// update interval, and readings left from an earlier run.
@Suite(.timeLimit(.minutes(10))) struct MotionMonitorTests {
    @Test func startsOnlyTheMonitorsOfItsMethodAndStopsThem() throws {
        let tree = FakeIIOTree()
        tree.addMotionSensors(0, at: DevicePose(yaw: 10, pitch: 0, roll: 0))
        let rig = MotionTestRig(tree)
        #expect(rig.compass.method == nil)
        try rig.start()
        #expect(rig.compass.method == .fused)
        #expect(rig.compass.accelerometer.isMonitoring && rig.compass.magnetometer.isMonitoring)
        #expect(!rig.compass.deviceSensor.isMonitoring)
        rig.compass.stopMonitoring()
        #expect(!rig.compass.isMonitoring && rig.compass.method == nil)
        #expect(!rig.compass.accelerometer.isMonitoring && !rig.compass.magnetometer.isMonitoring)
        // A heading channel added since: the next start takes it.
        tree.addHeadingChannel(5, raw: "450")
        try rig.compass.startMonitoring()
        #expect(rig.compass.method == .device && rig.compass.deviceSensor.isMonitoring)
        #expect(!rig.compass.accelerometer.isMonitoring)
    }

    /// A restarted monitor does not republish what its inputs' subjects still hold from the earlier run.
    @Test func aRestartIgnoresReadingsLeftFromTheEarlierRun() async throws {
        let tree = FakeIIOTree()
        tree.addHeadingChannel(0, raw: "100")
        let rig = try await MotionTestRig.started(tree)
        #expect(rig.heading?.magneticHeading == 10)
        rig.compass.stopMonitoring()
        let published = rig.compassReadings.values.count
        try rig.compass.startMonitoring()
        #expect(rig.compassReadings.values.count == published, "\(rig.compassReadings.values)")
        tree.write("bus/iio/devices/iio:device0/in_rot_from_north_magnetic_tilt_comp_raw", "200\n")
        await rig.advance()
        #expect(rig.heading?.magneticHeading == 20)
    }

    @Test func theUpdateIntervalIsEveryPolledMonitors() throws {
        let tree = FakeIIOTree()
        tree.addMotionSensors(0, at: DevicePose(yaw: 0, pitch: 0, roll: 0))
        let compass = CompassMonitor(root: tree.root, updateInterval: .milliseconds(50))
        #expect(compass.updateInterval == .milliseconds(50))
        try compass.setUpdateInterval(.seconds(2))
        for monitor in [compass.deviceSensor.updateInterval, compass.accelerometer.updateInterval] {
            #expect(monitor == .seconds(2))
        }
        #expect(compass.magnetometer.updateInterval == .seconds(2))
        #expect(throws: SensorError.self) { try compass.setUpdateInterval(.zero) }
        #expect(compass.updateInterval == .seconds(2))
        try compass.setPublishesEveryRead(true)
        let buffered = CompassMonitor(root: tree.root, mode: .buffered())
        #expect(buffered.updateInterval == nil)
        #expect(throws: SensorError.self) { try buffered.setUpdateInterval(.seconds(1)) }
        #expect(throws: SensorError.self) { try buffered.setPublishesEveryRead(true) }
    }

    /// `refresh()` reads the inputs of the run now, on the calling thread.
    @Test func refreshReadsNow() async throws {
        let tree = FakeIIOTree()
        let pose = DevicePose(yaw: -45, pitch: 5, roll: 5)
        tree.addMotionSensors(0, at: DevicePose(yaw: 0, pitch: 0, roll: 0))
        let rig = try await MotionTestRig.started(tree)
        tree.setAcceleration(0, pose.acceleration)
        tree.setField(1, pose.magneticField)
        rig.compass.refresh()
        #expect(
            MotionExpectations.difference(rig.heading?.magneticHeading ?? -1, 45) < 0.1, "\(rig.compass.readings.value)"
        )
    }
}
