import Testing
import Vigil
import VigilSensors
import VigilTestSupport

@Suite(.timeLimit(.minutes(10))) struct MemoryPressureMonitorTests {
    static let calm =
        "some avg10=0.00 avg60=0.00 avg300=0.00 total=100\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=50\n"
    static let thrashing =
        "some avg10=55.00 avg60=20.00 avg300=5.00 total=9000000\nfull avg10=12.00 avg60=4.00 avg300=1.00 total=3000000\n"

    @Test func fakeTreeIsPolledAndSaysWhy() throws {
        let tree = FakeSysfsTree()
        tree.write("pressure/memory", Self.calm)
        let monitor = MemoryPressureMonitor(root: tree.root, updateInterval: .milliseconds(50))
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        let calm = try #require(monitor.readings.value.value)
        #expect(calm.level == .normal)
        guard case .polling(let reason) = calm.mode else {
            Issue.record("expected polling, got \(calm.mode)")
            return
        }
        #expect(reason.contains("not on procfs"))
        // The fake file was not written to: no trigger on a non-procfs file.
        #expect(ProcessProbe.readFile(tree.root + "/pressure/memory") == String(Self.calm.dropLast()))
        tree.write("pressure/memory", Self.thrashing)
        let critical = firstReading(of: monitor.readings) { $0.value?.level == .critical }
        #expect(critical?.value?.some.avg10 == 55.0)
    }

    @Test func realPressureFileUsesATriggerOrSaysWhyNot() throws {
        let monitor = MemoryPressureMonitor()
        try #require(monitor.availability == .available, "no PSI on this kernel")
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        let reading = try #require(monitor.readings.value.value)
        switch reading.mode {
        case .trigger:
            break
        case .polling(let reason):
            // This CI machine answers EINVAL to a trigger written as root: the refusal must be detected and named.
            #expect(reason.contains("refused") || reason.contains("cannot be watched"))
        case .snapshot:
            Issue.record("a running monitor must say trigger or polling")
        }
        #expect((0...100).contains(reading.some.avg10))
    }

    @Test func pollOnlyWhenNoTriggerIsRequested() throws {
        let monitor = MemoryPressureMonitor(trigger: nil, updateInterval: .seconds(3600))
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        #expect(monitor.readings.value.value?.mode == .polling(reason: "no trigger requested"))
    }

    @Test func missingPsiIsUnavailable() throws {
        let tree = FakeSysfsTree()
        let monitor = MemoryPressureMonitor(root: tree.root, updateInterval: .seconds(3600))
        guard case .unavailable(.kernelLacksInterface, let detail) = monitor.availability else {
            Issue.record("expected kernelLacksInterface, got \(monitor.availability)")
            return
        }
        #expect(detail.contains("pressure stall information"))
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        let missing = tree.root + "/pressure/memory: no such file or directory"
        #expect(monitor.readings.value.status == .unavailable(reason: missing))
    }
}
