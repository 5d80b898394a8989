import Glibc
import Testing
import Vigil
import VigilSensors
import VigilTestSupport

@Suite(.timeLimit(.minutes(10))) struct ProcfsMonitorTests {
    @Test func cpuUsageFromTheRealProcStat() throws {
        let monitor = CPUUsageMonitor(updateInterval: .milliseconds(100))
        #expect(monitor.availability == .available)
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        #expect(monitor.readings.value.status == .pending)  // a usage needs two samples
        let reading = try #require(firstReading(of: monitor.readings) { $0.value != nil })
        let usage = try #require(reading.value)
        #expect((0...1).contains(usage.total))
        #expect(usage.cores.count == sysconf(Int32(_SC_NPROCESSORS_ONLN)))
    }

    @Test func memoryUsageFromTheRealMeminfo() throws {
        let monitor = MemoryUsageMonitor()
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        let memory = try #require(monitor.readings.value.value)
        #expect(memory.totalBytes > 0)
        #expect(memory.availableBytes <= memory.totalBytes)
    }

    @Test func storageOfTheRealRootAndAMissingMountPoint() throws {
        let monitor = StorageMonitor(mountPoints: ["/", "/tmp"])
        #expect(monitor.availability == .available)
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        // The first statvfs runs on the event loop, after start returned.
        let read = firstReading(of: monitor.readings) { $0.status != .pending }
        #expect(read?.value?.volumes.map(\.mountPoint) == ["/", "/tmp"])
        let missing = StorageMonitor(mountPoints: ["/no/such/mount"])
        #expect(!missing.availability.isAvailable)
        try missing.startMonitoring()
        defer { missing.stopMonitoring() }
        let failed = firstReading(of: missing.readings) { $0.status != .pending }
        #expect(failed?.status == .unavailable(reason: "/no/such/mount: no such file or directory"))
    }

    @Test func fakeProcRootIsRead() throws {
        let tree = FakeSysfsTree()
        tree.write("meminfo", "MemTotal: 1000 kB\nMemFree: 250 kB\nMemAvailable: 500 kB\n")
        let monitor = MemoryUsageMonitor(root: tree.root, updateInterval: .seconds(3600))
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        #expect(monitor.readings.value.value?.usedFraction == 0.5)
        tree.write("meminfo", "MemTotal: 1000 kB\nMemFree: 250 kB\nMemAvailable: 250 kB\n")
        monitor.refresh()
        #expect(monitor.readings.value.value?.usedFraction == 0.75)
        #expect(!CPUUsageMonitor(root: tree.root).availability.isAvailable)
    }
}

extension ProcfsMonitorTests {
    @Test func cpuUsageIsMeasuredWithinOneRun() throws {
        let tree = FakeSysfsTree()
        let monitor = CPUUsageMonitor(root: tree.root, updateInterval: .seconds(3600))
        tree.write("stat", "cpu  0 0 0 100 0\ncpu0 0 0 0 100 0\n")
        try monitor.startMonitoring()
        #expect(monitor.readings.value.status == .pending)
        tree.write("stat", "cpu  50 0 0 150 0\ncpu0 50 0 0 150 0\n")
        monitor.refresh()
        #expect(monitor.readings.value.value?.total == 0.5)
        monitor.stopMonitoring()
        tree.write("stat", "cpu  50 0 0 1150 0\ncpu0 50 0 0 1150 0\n")
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        tree.write("stat", "cpu  150 0 0 1150 0\ncpu0 150 0 0 1150 0\n")
        monitor.refresh()
        // Busy 100 of 100 ticks since this run's first sample; across the stop it would be 100 of 1100.
        #expect(monitor.readings.value.value?.total == 1.0)
    }
}
