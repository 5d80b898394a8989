import Glibc
import Testing
import Vigil
import VigilTestSupport

@testable import VigilSensors

/// Many threads start one source at once: the start is claimed once, and one stop stops everything it started.
@Suite(.timeLimit(.minutes(1))) struct ConcurrentStartTests {
    /// The start work of a polled source runs once (it used to run for every caller that saw it stopped).
    @Test func aPolledSourceRunsItsStartOnce() {
        let starts = FutexMutex(0)
        let monitor = PolledMonitor<Int>(
            name: "test", updateInterval: .seconds(3600), eventLoop: .shared, availability: { .available },
            onStart: {
                starts.withLock { $0 += 1 }
                usleep(5_000)  // a slow start: the other callers arrive while it runs
            }, read: { () throws(SensorError) -> Int? in 1 })
        concurrently(16) { _ in try? monitor.startMonitoring() }
        #expect(starts.withLock { $0 } == 1)
        #expect(monitor.isMonitoring)
        monitor.stopMonitoring()
        #expect(!monitor.isMonitoring)
    }

    /// Sources built from several parts (a trigger and a poll, an accelerometer and a subscription, a watch and a
    /// subscription) start once under concurrent starts and stop completely with one stop.
    @Test(arguments: ["pressure", "clock", "orientation", "backlight", "power"])
    func concurrentStartsThenOneStopLeaveNothingRunning(name: String) throws {
        let tree = FakeIIOTree()
        tree.addDevice(
            0, name: "accel",
            files: [
                "in_accel_x_raw": "0\n", "in_accel_y_raw": "0\n", "in_accel_z_raw": "1000\n", "in_accel_scale": "1\n",
            ])
        tree.write("class/backlight/panel/brightness", "5\n")
        tree.write("class/backlight/panel/max_brightness", "10\n")
        tree.write("class/backlight/panel/actual_brightness", "5\n")
        tree.write("class/power_supply/AC/type", "Mains\n")
        tree.write("class/power_supply/AC/online", "1\n")
        let changes = PublishSubject<DeviceEvent>()
        let orientation = OrientationMonitor(root: tree.root)
        let source: any Source =
            switch name {
            case "pressure": MemoryPressureMonitor()
            case "clock": ClockChangeMonitor()
            case "orientation": orientation
            case "backlight": BacklightMonitor(root: tree.root, changes: changes)
            default: PowerSupplyMonitor(root: tree.root, changes: changes)
            }
        concurrently(16) { _ in try? source.startMonitoring() }
        #expect(source.isMonitoring)
        source.stopMonitoring()
        #expect(!source.isMonitoring)
        #expect(!orientation.accelerometer.isMonitoring)
        #expect(changes.subscriberCount == 0, "a subscription to the hot-plug events outlived the stop")
    }
}

extension ConcurrentStartTests {
    /// An attribute watched for `POLLPRI` is opened and registered once under concurrent starts, and one stop
    /// unregisters it (each start used to register the attribute, and all registrations but the last leaked).
    @Test func aWatchedAttributeIsRegisteredOnceAndStopUnregistersIt() throws {
        let path = "/sys/class/net/lo/addr_len"
        let loop = EventLoop()
        defer { loop.shutdown() }
        let monitor = AttributeMonitor<Int>(
            name: "address length", path: path, strategy: .notifications, updateInterval: .seconds(3600),
            eventLoop: loop
        ) { (text) throws(SensorError) in Int(text) ?? 0 }
        concurrently(16) { _ in try? monitor.startMonitoring() }
        #expect(monitor.mode == .notifications)
        #expect(loop.registrationCount == 1, "registrations after concurrent starts")
        monitor.stopMonitoring()
        #expect(loop.registrationCount == 0, "registrations after stop")
        #expect(!monitor.isMonitoring)
    }

    /// The same for a PSI trigger when this kernel accepts one; where it refuses (as here, EINVAL), nothing is
    /// registered, and the reading's mode says so.
    @Test func aMemoryPressureTriggerIsRegisteredAtMostOnceAndStopUnregistersIt() throws {
        let loop = EventLoop()
        defer { loop.shutdown() }
        let monitor = MemoryPressureMonitor(updateInterval: .seconds(3600), eventLoop: loop)
        concurrently(16) { _ in try? monitor.startMonitoring() }
        #expect(monitor.isMonitoring)
        // One polling timer, and the trigger's registration when the kernel accepted it.
        let trigger = monitor.readings.value.value?.mode == .trigger ? 1 : 0
        #expect(loop.registrationCount == 1 + trigger)
        monitor.stopMonitoring()
        #expect(loop.registrationCount == 0)
    }
}

extension ConcurrentStartTests {
    /// The netlink driver claims a socket once under concurrent starts, and one stop unregisters and closes it.
    @Test func aDeviceMonitorOpensOneSocketAndStopReleasesIt() throws {
        let loop = EventLoop()
        defer { loop.shutdown() }
        let monitor = DeviceMonitor(eventLoop: loop)
        concurrently(16) { _ in try? monitor.startMonitoring() }
        #expect(monitor.isMonitoring)
        #expect(loop.registrationCount == 1)
        monitor.stopMonitoring()
        #expect(loop.registrationCount == 0)
        #expect(monitor.loopRegistrations.isEmpty)
    }
}
