import VigilSensors

extension CPUUsage: ReadingMetrics {
    func addMetrics(to builder: inout MetricFamilyBuilder) {
        builder.gauge("vigil_cpu_busy_ratio", "Fraction of CPU time not idle over the last interval, all CPUs.", total)
        for core in cores {
            builder.gauge(
                "vigil_cpu_core_busy_ratio", "Fraction of one CPU's time not idle over the last interval.", core.busy,
                ["cpu": String(core.core)])
        }
        for core in times {
            for (mode, seconds) in zip(CPUTimes.modes, core.seconds) {
                builder.counter(
                    "vigil_cpu_seconds_total", "Seconds each CPU spent in each mode since boot.", seconds,
                    ["cpu": String(core.core), "mode": mode])
            }
        }
        if let loadAverage {
            builder.gauge("vigil_load1", "1-minute load average.", loadAverage.one)
            builder.gauge("vigil_load5", "5-minute load average.", loadAverage.five)
            builder.gauge("vigil_load15", "15-minute load average.", loadAverage.fifteen)
        }
    }
}

extension MemoryUsage: ReadingMetrics {
    func addMetrics(to builder: inout MetricFamilyBuilder) {
        builder.gauge("vigil_memory_total_bytes", "Usable RAM (MemTotal), in bytes.", Double(totalBytes))
        builder.gauge(
            "vigil_memory_available_bytes", "Memory available for new work (MemAvailable), in bytes.",
            Double(availableBytes))
        builder.gauge("vigil_memory_free_bytes", "Unused memory (MemFree), in bytes.", Double(freeBytes))
        builder.gauge(
            "vigil_memory_cache_bytes", "Page cache and buffers (Cached + Buffers), in bytes.", Double(cacheBytes))
        builder.gauge("vigil_memory_swap_total_bytes", "Swap space (SwapTotal), in bytes.", Double(swapTotalBytes))
        builder.gauge("vigil_memory_swap_free_bytes", "Unused swap (SwapFree), in bytes.", Double(swapFreeBytes))
        builder.gauge("vigil_memory_used_ratio", "Fraction of memory not available, 0 to 1.", usedFraction)
    }
}

extension StorageReading: ReadingMetrics {
    func addMetrics(to builder: inout MetricFamilyBuilder) {
        for volume in volumes {
            // Labelled by the mount point holding the path (as node_exporter labels file systems), and by the path
            // asked, so two paths on one file system stay two series. A label value must be UTF-8 text, so a path
            // that is not UTF-8 is written lossily here, with U+FFFD for the bytes it cannot hold (the JSON output
            // keeps them exact).
            let mountedOn = volume.mountedOn ?? volume.mountPoint
            let labels = ["mountpoint": mountedOn.lossyString, "path": volume.mountPoint.lossyString]
            builder.gauge(
                "vigil_filesystem_size_bytes", "File system size, in bytes.", Double(volume.totalBytes), labels)
            builder.gauge(
                "vigil_filesystem_free_bytes", "Free bytes, root's reserve included.", Double(volume.freeBytes), labels)
            builder.gauge(
                "vigil_filesystem_avail_bytes", "Bytes available to unprivileged users.", Double(volume.availableBytes),
                labels)
            builder.gauge(
                "vigil_filesystem_used_ratio", "Fraction of the file system in use, 0 to 1.", volume.usedFraction,
                labels)
        }
    }
}

extension PressureStall: ReadingMetrics {
    func addMetrics(to builder: inout MetricFamilyBuilder) {
        builder.counter(
            "vigil_pressure_memory_waiting_seconds_total",
            "Time some task was stalled waiting for memory (PSI some total), in seconds.",
            Double(some.totalMicroseconds) / 1_000_000)
        builder.counter(
            "vigil_pressure_memory_stalled_seconds_total",
            "Time all non-idle tasks were stalled on memory (PSI full total), in seconds.",
            full.map { Double($0.totalMicroseconds) / 1_000_000 })
        for (kind, averages) in [("some", some), ("full", full)] {
            guard let averages else { continue }
            for (window, value) in [("10s", averages.avg10), ("60s", averages.avg60), ("300s", averages.avg300)] {
                builder.gauge(
                    "vigil_pressure_memory_stall_ratio",
                    "Share of time stalled on memory over a window (PSI average / 100), 0 to 1.", value / 100,
                    ["kind": kind, "window": window])
            }
        }
        for candidate in [Level.normal, .warning, .critical] {
            builder.gauge(
                "vigil_pressure_memory_level", "Memory pressure level: 1 for the current one, 0 for the others.",
                candidate == level, ["level": candidate.rawValue])
        }
    }
}
