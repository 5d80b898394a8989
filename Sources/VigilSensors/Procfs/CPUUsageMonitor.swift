import Vigil

/// CPU use from `<root>/stat` deltas, total and per core, as fractions 0...1; polled (default every 1 s).
///
/// The first reading arrives one interval after each start (a usage needs two samples of the same run).
public typealias CPUUsageMonitor = PolledMonitor<CPUUsage>

extension PolledMonitor where Value == CPUUsage {
    /// Creates a CPU monitor; nothing is read until it starts.
    ///
    /// - Parameters:
    ///   - root: The procfs root, `/proc` unless reading a fake or captured tree.
    ///   - updateInterval: The sampling interval (default 1 s).
    ///   - eventLoop: The loop that runs the timer.
    public convenience init(
        root: String = "/proc", updateInterval: Duration = .seconds(1), eventLoop: EventLoop = .shared
    ) {
        let path = root + "/stat"
        let loadPath = root + "/loadavg"
        let previous = FutexMutex<[CPUTimes]?>(nil)
        self.init(
            name: "CPU", updateInterval: updateInterval, eventLoop: eventLoop,
            availability: { Availability.procfs(path, what: "CPU statistics") },
            onStart: { previous.withLock { $0 = nil } },  // a restart measures from its own first sample
            read: { () throws(SensorError) in
                let times = try CPUTimes.parse(try SysfsFile.readProcfsText(path), path: path)
                let earlier = previous.withLock { previous in
                    defer { previous = times }
                    return previous
                }
                guard let earlier else { return nil }
                // The load average is a bonus: a tree without the file (or a kernel refusing it) still reads CPU.
                let load = (try? SysfsFile.readProcfsText(loadPath)).flatMap(CPUUsage.LoadAverage.init(parsing:))
                return CPUUsage(from: earlier, to: times, loadAverage: load)
            })
    }
}
