import Glibc
import Testing
import VigilSensors
import VigilTestSupport

@Suite(.timeLimit(.minutes(10))) struct CPUUsageTests {
    static let earlier = """
        cpu  100 0 50 800 50 0 0 0 0 0
        cpu0 60 0 20 400 20 0 0 0 0 0
        cpu1 40 0 30 400 30 0 0 0 0 0
        intr 12345 0 0
        ctxt 6789
        """
    static let later = """
        cpu  200 0 100 1600 100 0 0 0 0 0
        cpu0 160 0 40 700 100 0 0 0 0 0
        cpu1 40 0 60 900 0 0 0 0 0 0
        """

    @Test func usageIsBusyTicksOverAllTicks() throws {
        let usage = CPUUsage(from: try CPUTimes.parse(Self.earlier), to: try CPUTimes.parse(Self.later))
        #expect(usage.total == 0.15)  // busy 150 − 0 of 1000 ticks
        #expect(usage.cores.map(\.core) == [0, 1])
        #expect(usage.cores[0].busy == 120.0 / 500.0)
        #expect(usage.cores[1].busy == 30.0 / 500.0)
        #expect(usage.description == "CPU 15.0 % (cpu0 24.0 %, cpu1 6.0 %)")
    }

    /// Each core's cumulative seconds per mode, from the later sample in `USER_HZ`, for a counter to rate; the load
    /// average beside them, shown in the line; neither changes the ratios.
    @Test func countersAreTheLaterSamplesSecondsAndLoadIsShown() throws {
        let later = "cpu  200 0 100 1600 100 3 4 5\ncpu0 160 1 40 700 100 2 3 4\ncpu1 40 0 60 900 0 1 1 1 9 9"
        let load = try #require(CPUUsage.LoadAverage(parsing: "0.52 0.58 1.59 1/123 4567\n"))
        let usage = CPUUsage(
            from: try CPUTimes.parse(Self.earlier), to: try CPUTimes.parse(later), loadAverage: load,
            ticksPerSecond: 100)
        #expect(usage.times.map(\.core) == [0, 1])
        #expect(usage.times[0].seconds == [1.6, 0.01, 0.4, 7, 1, 0.02, 0.03, 0.04])
        #expect(usage.times[1].seconds == [0.4, 0, 0.6, 9, 0, 0.01, 0.01, 0.01])
        #expect(CPUTimes.modes.count == 8)
        #expect([load.one, load.five, load.fifteen] == [0.52, 0.58, 1.59])
        #expect(usage.description.hasSuffix(", load 0.52 0.58 1.59"), "\(usage.description)")
        for bad in ["", "0.1 0.2", "nan 0.1 0.2 1/1 1", "-1 0 0 1/1 1", "a b c"] {
            #expect(CPUUsage.LoadAverage(parsing: bad) == nil, "\(bad)")
        }
    }

    @Test func coreThatAppearedOrWentBackwardsIsLeftOut() throws {
        let later = "cpu  200 0 100 1600 100\ncpu0 10 0 0 10 0\ncpu2 1 1 1 1 1"
        let usage = CPUUsage(from: try CPUTimes.parse(Self.earlier), to: try CPUTimes.parse(later))
        #expect(usage.cores.isEmpty)
        #expect(usage.total == 0.15)
    }

    @Test(arguments: ["", "intr 1 2 3", "cpu  1 2 3", "cpu  a b c d", "cpuX 1 2 3 4\ncpu 1 2 3 4", "cpu0 1 2 3 4"])
    func malformedStatIsAnError(text: String) {
        #expect(throws: SensorError.self) { try CPUTimes.parse(text) }
    }

    @Test func realProcStatHasTotalAndEveryOnlineCore() throws {
        let text = try readProcFile("/proc/stat")
        let times = try CPUTimes.parse(text)
        #expect(times.first?.core == nil)
        #expect(times.count - 1 == sysconf(Int32(_SC_NPROCESSORS_ONLN)))
    }
}

/// Reads a small procfs file whole.
func readProcFile(_ path: String) throws -> String {
    try #require(ProcessProbe.readFile(path), "cannot read \(path)")
}

extension CPUUsageTests {
    @Test func totalAgreesWithTheCoresNotTheAggregateLine() throws {
        // The aggregate line moved 102 busy of 201 ticks (50.7 %) while its two cores moved 0 of 100 and 100 of 100.
        let earlier = "cpu  1000 0 0 1000 0 0 0 0 0 0\ncpu0 500 0 0 500 0 0 0 0 0 0\ncpu1 500 0 0 500 0 0 0 0 0 0"
        let later = "cpu  1102 0 0 1099 0 0 0 0 0 0\ncpu0 500 0 0 600 0 0 0 0 0 0\ncpu1 600 0 0 500 0 0 0 0 0 0"
        let usage = CPUUsage(from: try CPUTimes.parse(earlier), to: try CPUTimes.parse(later))
        #expect(usage.cores.map(\.busy) == [0, 1])
        #expect(usage.total == 0.5)
        #expect(usage.description == "CPU 50.0 % (cpu0 0.0 %, cpu1 100.0 %)")
    }

    @Test func totalComesFromTheAggregateLineWhenThereAreNoCoreLines() throws {
        let usage = CPUUsage(
            from: try CPUTimes.parse("cpu  100 0 0 100 0"), to: try CPUTimes.parse("cpu  175 0 0 125 0"))
        #expect(usage.cores.isEmpty)
        #expect(usage.total == 0.75)
    }
}

extension CPUUsageTests {
    /// cpu1's idle counter went back 5 ticks (the kernel documents that it can) while its busy counter moved 95.
    static let idleBackwards = (
        earlier: "cpu  1000 0 0 2000 0\ncpu0 500 0 0 1000 0\ncpu1 500 0 0 1000 0",
        later: "cpu  1095 0 0 2095 0\ncpu0 500 0 0 1100 0\ncpu1 595 0 0 995 0"
    )

    @Test func totalAgreesWithTheCoresWhenACoreIdleCounterGoesBackwards() throws {
        let usage = CPUUsage(
            from: try CPUTimes.parse(Self.idleBackwards.earlier), to: try CPUTimes.parse(Self.idleBackwards.later))
        #expect(usage.cores.map(\.busy) == [0, 1])
        // Weighted by each core's own ticks (100 and 90) the total read 47.4 %.
        #expect(usage.total == 0.5)
        #expect(usage.description == "CPU 50.0 % (cpu0 0.0 %, cpu1 100.0 %)")
    }

    @Test func monitorTotalAgreesWithItsCoresWhenACoreIdleCounterGoesBackwards() throws {
        let tree = FakeSysfsTree()
        tree.write("stat", Self.idleBackwards.earlier + "\n")
        let monitor = CPUUsageMonitor(root: tree.root, updateInterval: .seconds(3600))
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        tree.write("stat", Self.idleBackwards.later + "\n")
        monitor.refresh()
        let usage = try #require(monitor.readings.value.value)
        #expect(usage.total == usage.cores.map(\.busy).reduce(0, +) / Double(usage.cores.count))
        #expect(usage.total == 0.5)
    }

    /// A `/proc/stat` of 64 cores and 12,000 interrupt counters: about 85 KB, past the 64 KiB attribute limit.
    static func largeStat(busy: Int) -> String {
        let line = { (label: String) in "\(label) \(busy) 0 0 1000 0 0 0 0 0 0" }
        let cores = (0..<64).map { line("cpu\($0)") }
        let interrupts = "intr 123456789 " + Array(repeating: "654321", count: 12_000).joined(separator: " ")
        return ([line("cpu ")] + cores + [interrupts, "ctxt 987654321", "btime 1700000000"]).joined(separator: "\n")
            + "\n"
    }

    @Test func procStatOverTheAttributeLimitIsAvailableAndRead() throws {
        let tree = FakeSysfsTree()
        tree.write("stat", Self.largeStat(busy: 0))
        #expect(Self.largeStat(busy: 0).utf8.count > 85_000)
        let monitor = CPUUsageMonitor(root: tree.root, updateInterval: .seconds(3600))
        #expect(monitor.availability == .available)
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        tree.write("stat", Self.largeStat(busy: 1000))
        monitor.refresh()
        let usage = try #require(monitor.readings.value.value)
        #expect(usage.cores.count == 64)
        #expect(usage.total == 1)
    }
}
