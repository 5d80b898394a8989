import Glibc
import Testing
import Vigil
import VigilTestSupport

@testable import VigilSensors

/// Many threads start one source at once: the start is claimed once, and one stop stops everything it started.
@Suite(.timeLimit(.minutes(5))) struct ConcurrentStartTests {
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
    /// Rounds of concurrent starts and one stop: the window of a start that checks before claiming is a few
    /// microseconds, so one round rarely shows it (on the old `AttributeMonitor`, 2 rounds in 200 did).
    static let rounds = 200

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
        // A descriptor links to the attribute's real path (the class directory is a symlink).
        let target = try #require(realpath(path, nil))
        defer { free(target) }
        let opened = String(cString: target)
        let before = ProcessProbe.openDescriptorCount(linkingTo: opened)
        var failures: [String] = []
        for round in 0..<Self.rounds {
            concurrently(16) { _ in try? monitor.startMonitoring() }
            let (registered, open) = (loop.registrationCount, ProcessProbe.openDescriptorCount(linkingTo: opened))
            monitor.stopMonitoring()
            let (left, stillOpen) = (loop.registrationCount, ProcessProbe.openDescriptorCount(linkingTo: opened))
            if registered != 1 || open != before + 1 || left != 0 || stillOpen != before {
                failures.append(
                    "round \(round): \(registered) registered, \(open - before) open; after stop \(left), \(stillOpen - before)"
                )
            }
        }
        #expect(failures.isEmpty, "\(failures)")
        #expect(!monitor.isMonitoring)
    }

    /// The same for a PSI trigger (two concurrent starts used to arm two triggers and leak a registration). The
    /// window is 2 s, which the kernel takes even without `CAP_SYS_RESOURCE`. Counted on the monitor's own loop:
    /// other suites open the PSI file too.
    @Test func aMemoryPressureTriggerIsRegisteredOnceAndStopUnregistersIt() throws {
        if !MemoryPressureMonitorTests.kernelTakesATrigger() {
            try skip("this kernel takes no PSI trigger on /proc/pressure/memory", expectedUnderCI: false)
        }
        let loop = EventLoop()
        defer { loop.shutdown() }
        let monitor = MemoryPressureMonitor(
            trigger: .init(stallMicroseconds: 150_000, windowMicroseconds: 2_000_000), updateInterval: .seconds(3600),
            eventLoop: loop)
        var failures: [String] = []
        for round in 0..<Self.rounds {
            concurrently(16) { _ in try? monitor.startMonitoring() }
            let mode = monitor.readings.value.value?.mode
            // One polling timer and one trigger.
            let registered = loop.registrationCount
            monitor.stopMonitoring()
            let left = loop.registrationCount
            if mode != .trigger || registered != 2 || left != 0 {
                failures.append(
                    "round \(round): \(mode.map(String.init(describing:)) ?? "no reading"), \(registered) registered, \(left) after stop"
                )
            }
        }
        #expect(failures.isEmpty, "\(failures)")
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
