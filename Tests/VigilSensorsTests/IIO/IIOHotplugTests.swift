import Dispatch
import Glibc
import Testing
import Vigil
import VigilSensors
import VigilTestSupport
import VigilTesting

/// IIO monitors that follow devices coming and going through `iio` uevents (as a `DeviceMonitor` delivers them).
///
/// The uevents are published by the test on its own thread, so each one has been handled when `publish` returns.
@Suite(.timeLimit(.minutes(10))) struct IIOHotplugTests {
    static let fast = Duration.milliseconds(5)

    /// A kernel uevent for `iio:deviceN`, as a ``DeviceMonitor`` publishes it.
    static func uevent(_ action: Uevent.Action, _ id: String, subsystem: String = "iio") -> DeviceEvent {
        .uevent(
            Uevent(
                action: action, devpath: BytePath("/devices/platform/sensors/\(id)"), subsystem: BytePath(subsystem),
                devtype: "iio_device", devname: BytePath(id)))
    }

    static func addLight(_ tree: FakeIIOTree, _ number: Int, lux: String) {
        tree.addDevice(number, name: "als\(number)", files: ["in_illuminance_input": lux + "\n"])
    }

    static func isUnavailable<Value>(_ reading: SensorReading<Value>) -> Bool {
        if case .unavailable = reading.status { return true } else { return false }
    }

    @Test func followsItsDeviceOutAndBackIn() throws {
        let light = try HotplugLight(["42.5"])
        let (tree, changes, monitor, recorder) = (light.tree, light.changes, light.monitor, light.recorder)
        defer { monitor.stopMonitoring() }
        #expect(recorder.first { $0.value?.lux == 42.5 } != nil)

        changes.publish(Self.uevent(.remove, "iio:device0"))
        tree.removeDevice(0)
        #expect(monitor.isMonitoring)
        #expect(monitor.device == nil)
        let removed = try #require(recorder.values.last)
        #expect(removed.description.contains("iio:device0 (als0) was removed"))
        #expect(removed.description.contains("waiting for a device to be added"))

        Self.addLight(tree, 0, lux: "7")
        changes.publish(Self.uevent(.add, "iio:device0"))
        #expect(monitor.device?.id == "iio:device0")
        #expect(recorder.first { $0.value?.lux == 7 } != nil)
    }

    @Test func startsWithoutADeviceAndReadsTheFirstFittingOneAdded() throws {
        let light = try HotplugLight([])
        let (tree, changes, monitor, recorder) = (light.tree, light.changes, light.monitor, light.recorder)
        defer { monitor.stopMonitoring() }
        #expect(monitor.isMonitoring)
        #expect(monitor.device == nil)
        #expect(recorder.values.count == 2)
        #expect(recorder.values.last?.description.contains("no IIO device") == true)

        // A device of another kind changes why there is none; a second event for it says nothing new.
        tree.addDevice(0, name: "prox", files: ["in_proximity_raw": "3\n"])
        changes.publish(Self.uevent(.add, "iio:device0"))
        changes.publish(Self.uevent(.change, "iio:device0"))
        #expect(monitor.device == nil)
        #expect(recorder.values.count == 3)
        #expect(recorder.values.last?.description.contains("none of the 1 IIO devices") == true)
        #expect(recorder.values.allSatisfy { $0.value == nil })

        Self.addLight(tree, 1, lux: "300")
        changes.publish(Self.uevent(.add, "iio:device1"))
        #expect(monitor.device?.id == "iio:device1")
        #expect(recorder.first { $0.value?.lux == 300 } != nil)
    }

    @Test func movesToAnotherFittingDeviceWhenItsDeviceIsRemoved() throws {
        let light = try HotplugLight(["1", "2"])
        let (tree, changes, monitor, recorder) = (light.tree, light.changes, light.monitor, light.recorder)
        defer { monitor.stopMonitoring() }
        #expect(monitor.device?.id == "iio:device0")
        // The kernel sends the remove uevent before it deletes the sysfs directory.
        changes.publish(Self.uevent(.remove, "iio:device0"))
        tree.removeDevice(0)
        #expect(monitor.device?.id == "iio:device1")
        #expect(recorder.first { $0.value?.lux == 2 } != nil)
    }

    @Test func ignoresOtherDevicesTriggersAndSubsystems() throws {
        let light = try HotplugLight(["5"])
        let (tree, changes, monitor) = (light.tree, light.changes, light.monitor)
        defer { monitor.stopMonitoring() }
        changes.publish(Self.uevent(.remove, "iio:device1"))
        changes.publish(Self.uevent(.remove, "trigger0"))
        changes.publish(Self.uevent(.remove, "iio:device0", subsystem: "net"))
        changes.publish(
            .uevent(Uevent(action: .remove, devpath: "/devices/platform/sensors/iio:device0", subsystem: "input")))
        changes.publish(
            .uevent(Uevent(action: .move, devpath: "/devices/platform/sensors/iio:device0", subsystem: "iio")))
        #expect(monitor.device?.id == "iio:device0")
        // DEVPATH alone names the device when DEVNAME is missing.
        tree.removeDevice(0)
        changes.publish(
            .uevent(Uevent(action: .remove, devpath: "/devices/platform/sensors/iio:device0", subsystem: "iio")))
        #expect(monitor.device == nil)
        #expect(monitor.isMonitoring)
    }

    @Test func overflowChecksWhetherTheDeviceIsStillThere() throws {
        let light = try HotplugLight(["5"])
        let (tree, changes, monitor, recorder) = (light.tree, light.changes, light.monitor, light.recorder)
        defer { monitor.stopMonitoring() }
        changes.publish(.overflow)
        #expect(monitor.device?.id == "iio:device0")
        tree.removeDevice(0)
        changes.publish(.overflow)
        #expect(monitor.device == nil)
        #expect(recorder.first { $0.description.contains("was removed") } != nil)
        Self.addLight(tree, 3, lux: "6")
        changes.publish(.overflow)
        #expect(monitor.device?.id == "iio:device3")
    }

    @Test func stopEndsHotplugAndWithoutItAMissingDeviceIsAnError() throws {
        let tree = FakeIIOTree()
        let changes = PublishSubject<DeviceEvent>()
        let monitor = AmbientLightMonitor(root: tree.root, updateInterval: Self.fast, changes: changes)
        try monitor.startMonitoring()
        monitor.stopMonitoring()
        #expect(!monitor.isMonitoring)
        let recorder = IIOReadingRecorder(monitor.readings)
        Self.addLight(tree, 0, lux: "9")
        changes.publish(Self.uevent(.add, "iio:device0"))
        #expect(monitor.device == nil)
        #expect(recorder.values.count == 1)

        let plain = AmbientLightMonitor(root: FakeIIOTree().root, updateInterval: Self.fast)
        #expect(throws: SensorError.self) { try plain.startMonitoring() }
        #expect(!plain.isMonitoring)
    }

    @Test func aFailedDeviceNodeWaitsForTheDeviceToComeBack() throws {
        let tree = FakeIIOTree()
        tree.addCaptureAccelerometer()
        let changes = PublishSubject<DeviceEvent>()
        let monitor = AccelerometerMonitor(root: tree.root, mode: .buffered(), changes: changes)
        let recorder = IIOReadingRecorder(monitor.readings)
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        let enable = "bus/iio/devices/iio:device0/buffer/enable"
        _ = tree.writeToFIFO("dev/iio:device0", [])
        let gone = recorder.first { $0.description.contains("waiting for the device to be added again") }
        #expect(gone?.description.contains("went away") == true)
        #expect(monitor.isMonitoring)
        #expect(monitor.device == nil)
        #expect(recorder.wait { _ in tree.read(enable) == "0" })

        changes.publish(Self.uevent(.add, "iio:device0"))
        #expect(monitor.device?.id == "iio:device0")
        #expect(tree.read(enable) == "1")
        let scan: [UInt8] = [0, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0] + [9, 0, 0, 0, 0, 0, 0, 0]
        let writer = tree.writeToFIFO("dev/iio:device0", scan, closing: false)
        defer { close(writer) }
        #expect(recorder.first { $0.value?.timestamp == 9 } != nil)
        #expect(recorder.values.filter(Self.isUnavailable).count == 1)
    }

    @Test func uneventsRacingStartAndStopLeaveNothingRunning() async throws {
        let tree = FakeIIOTree()
        Self.addLight(tree, 0, lux: "1")
        Self.addLight(tree, 1, lux: "2")
        let changes = PublishSubject<DeviceEvent>()
        let clock = ManualClock()
        let loop = EventLoop(clock: clock)
        defer { loop.shutdown() }
        let monitor = AmbientLightMonitor(
            root: tree.root, updateInterval: Self.fast, changes: changes, eventLoop: loop)
        concurrently(3) { worker in
            for round in 0..<200 {
                switch worker {
                case 0:
                    try? monitor.startMonitoring()
                    monitor.stopMonitoring()
                case 1:
                    changes.publish(Self.uevent(round.isMultiple(of: 2) ? .remove : .add, "iio:device\(round % 2)"))
                default:
                    changes.publish(.overflow)
                }
            }
        }
        monitor.stopMonitoring()
        #expect(!monitor.isMonitoring)
        #expect(monitor.device == nil)
        let recorder = IIOReadingRecorder(monitor.readings)
        changes.publish(Self.uevent(.add, "iio:device0"))
        let polls = await clock.advance(by: .milliseconds(100))  // twenty periods
        #expect(polls == 0, "a timer outlived the last stop")
        #expect(recorder.values.count == 1, "nothing is read after the last stop")
    }
}

/// An ambient-light monitor with hot-plug, started on a fake tree with one light device per given lux value
/// (`iio:device0`, `iio:device1`, …); the test stops it.
final class HotplugLight {
    let tree = FakeIIOTree()
    let changes = PublishSubject<DeviceEvent>()
    let monitor: AmbientLightMonitor
    let recorder: IIOReadingRecorder<SensorReading<AmbientLight.Value>>

    init(_ lights: [String]) throws {
        for (number, lux) in lights.enumerated() { IIOHotplugTests.addLight(tree, number, lux: lux) }
        monitor = AmbientLightMonitor(root: tree.root, updateInterval: IIOHotplugTests.fast, changes: changes)
        recorder = IIOReadingRecorder(monitor.readings)
        try monitor.startMonitoring()
    }
}
