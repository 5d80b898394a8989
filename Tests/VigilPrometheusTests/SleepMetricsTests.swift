import Testing
import Vigil
import VigilPrometheus
import VigilSensors
import VigilTestSupport

/// The `sleep` source's metrics from a fake machine's suspend statistics and injected clocks: exact samples.
@Suite(.timeLimit(.minutes(10))) struct SleepMetricsTests {
    @Test func theSleepSourceExportsTheTimeSuspendedAndTheKernelsCounters() throws {
        let machine = FakeMachine.empty()
        defer { withExtendedLifetime(machine) {} }
        machine.addSuspendStatistics()
        machine.sys.write("power/suspend_stats/total_hw_sleep", "7200500000\n")
        let loop = EventLoop()
        defer { loop.shutdown() }
        let pair = FutexMutex(ClockPair(boottime: .seconds(9000), monotonic: .milliseconds(7_199_750)))
        loop.wakeWatch.useClockPairs { pair.withLock { $0 } }
        var options = machine.options
        options.eventLoop = loop
        let source = try #require(SourceCatalog.entry(id: "sleep")).make(options)
        let exporter = MetricsExporter()
        exporter.add(source)
        try source.startMonitoring()
        defer { source.stopMonitoring() }
        pair.withLock { $0.boottime += .seconds(600) }
        source.refresh()
        let text = exporter.render()
        for line in [
            #"vigil_source_up{source="sleep"} 1"#,
            "vigil_suspend_slept_seconds_total 2400.25", "vigil_suspend_wakes_total 1",
            "vigil_suspend_last_sleep_seconds 600", "vigil_suspend_success_total 12", "vigil_suspend_fail_total 1",
            #"vigil_suspend_failed_steps_total{step="freeze"} 1"#,
            #"vigil_suspend_failed_steps_total{step="resume_noirq"} 0"#,
            #"vigil_suspend_last_failure_info{device="alarm",errno="EBUSY",step="freeze"} 1"#,
            "vigil_suspend_hardware_sleep_seconds_total 7200.5",
            "# TYPE vigil_suspend_slept_seconds_total counter",
        ] {
            #expect(text.contains(line + "\n"), "no “\(line)” in:\n\(text)")
        }
        #expect(!text.contains("vigil_suspend_last_hardware_sleep_seconds"), "absent in the tree, absent here")
    }
}
