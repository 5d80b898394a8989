import VigilSensors

extension SleepState: ReadingMetrics {
    /// The time suspended since boot and the wakes seen, then the kernel's suspend statistics as counters named after
    /// their files (`vigil_suspend_success_total` for `success`, …), each left out where the kernel shows none.
    func addMetrics(to builder: inout MetricFamilyBuilder) {
        builder.counter(
            "vigil_suspend_slept_seconds_total",
            "Time spent suspended since boot (CLOCK_BOOTTIME - CLOCK_MONOTONIC), in seconds.",
            Self.seconds(suspendedSinceBoot))
        builder.counter(
            "vigil_suspend_wakes_total", "Wakes from a suspend this source noticed while it ran.", Double(wakes))
        builder.gauge(
            "vigil_suspend_last_sleep_seconds", "How long the machine slept before the last wake noticed, in seconds.",
            lastWake.map { Self.seconds($0.slept) })
        guard let statistics else { return }
        builder.counter(
            "vigil_suspend_success_total", "Times entering a sleep state succeeded since boot (suspend_stats/success).",
            statistics.successes.map(Double.init))
        builder.counter(
            "vigil_suspend_fail_total", "Times entering a sleep state failed since boot (suspend_stats/fail).",
            statistics.failures.map(Double.init))
        for failed in statistics.failedSteps {
            builder.counter(
                "vigil_suspend_failed_steps_total",
                "Failed suspend or resume steps since boot (suspend_stats/failed_*).",
                Double(failed.count), ["step": failed.step.rawValue])
        }
        if let last = statistics.lastFailure {
            builder.gauge(
                "vigil_suspend_last_failure_info",
                "The last failed suspend's step, device and error (suspend_stats/last_failed_*), in labels; always 1.",
                1,
                [
                    "step": last.step?.rawValue ?? "", "device": last.device ?? "",
                    "errno": last.errno.map { $0.name ?? String($0.rawValue) } ?? "",
                ])
        }
        builder.counter(
            "vigil_suspend_hardware_sleep_seconds_total",
            "Time in a hardware sleep state since boot (suspend_stats/total_hw_sleep), in seconds.",
            statistics.totalHardwareSleep.map(Self.seconds))
        builder.gauge(
            "vigil_suspend_last_hardware_sleep_seconds",
            "Time in a hardware sleep state in the last cycle (suspend_stats/last_hw_sleep), in seconds.",
            statistics.lastHardwareSleep.map(Self.seconds))
    }

    private static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
