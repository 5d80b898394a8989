import Glibc
import Testing
import Vigil

@testable import VigilSensors

/// Every source that runs on any Linux machine, started and stopped many times: no descriptor, thread or object may
/// be left behind. Counts are process-wide and other suites run in parallel, so a leak is judged by growth that
/// scales with the cycles (one per cycle would add 100), not by exact equality. The file-system and clock monitors'
/// runs are in their own suites, serialized with the tests that count those monitors' kernel objects exactly.
@Suite(.serialized, .timeLimit(.minutes(1))) struct SourceLifecycleLeakTests {
    static let cycles = 100

    /// A fresh monitor of each kind, by name.
    static let makers: [(String, @Sendable (String) -> any Monitor)] = [
        ("cpu", { _ in CPUUsageMonitor(interval: .milliseconds(20)) }),
        ("memory", { _ in MemoryUsageMonitor(interval: .milliseconds(20)) }),
        ("pressure", { _ in MemoryPressureMonitor(pollInterval: .milliseconds(20)) }),
        ("storage", { _ in StorageMonitor(interval: .milliseconds(20)) }),
        ("network", { _ in NetworkMonitor() }),
        ("devices", { _ in DeviceMonitor() }),
        (
            "light with hot-plug",
            { directory in
                let tree = FakeIIOTree(at: directory)
                if !SysfsFile.exists(tree.devicePath(0)) {
                    tree.addDevice(0, name: "als", files: ["in_illuminance_input": "3\n"])
                }
                return AmbientLightMonitor(
                    root: directory, mode: .polled(rate: 100), changes: PublishSubject<DeviceEvent>())
            }
        ),
        (
            "buffered accelerometer",
            { directory in
                let tree = FakeIIOTree(at: directory)
                if !SysfsFile.exists(tree.devicePath(0)) { tree.addCaptureAccelerometer() }
                return AccelerometerMonitor(root: directory, mode: .buffered())
            }
        ),
    ]

    @Test(arguments: makers.map(\.0))
    func startStopCyclesLeakNoDescriptorThreadOrObject(name: String) throws {
        try Self.checkStartStopCycles(name: name, make: Self.makers.first { $0.0 == name }!.1)
    }

    static func checkStartStopCycles(name: String, make: (String) -> any Monitor) throws {
        let directory = TemporaryDirectory("vigil-lifecycle")
        defer { directory.remove() }
        // Warm up: the shared event loop and lazily created runtime threads exist before the first count.
        let warmUp = make(directory.path)
        try warmUp.startMonitoring()
        warmUp.stopMonitoring()
        let descriptorsBefore = ProcessProbe.openDescriptorCount()
        let threadsBefore = threadCount()
        weak var lastMonitor: AnyObject?
        for _ in 0..<cycles {
            let monitor = make(directory.path)
            lastMonitor = monitor
            try monitor.startMonitoring()
            try monitor.startMonitoring()  // starting twice is harmless
            monitor.stopMonitoring()
            monitor.stopMonitoring()
        }
        #expect(lastMonitor == nil, "\(name): the monitor outlived its last reference")
        let descriptorGrowth = ProcessProbe.openDescriptorCount() - descriptorsBefore
        let threadGrowth = threadCount() - threadsBefore
        #expect(descriptorGrowth < cycles / 4, "\(name): \(descriptorGrowth) descriptors left open")
        #expect(threadGrowth < 8, "\(name): \(threadGrowth) more threads")
    }

    static func threadCount() -> Int {
        ((try? SysfsFile.listDirectory("/proc/self/task")) ?? []).count
    }
}
