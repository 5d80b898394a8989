/// Memory use from `<root>/meminfo`, in bytes; polled (default every 2 s).
public typealias MemoryUsageMonitor = PolledMonitor<MemoryUsage>

extension PolledMonitor where Value == MemoryUsage {
    /// Creates a memory monitor; nothing is read until it starts.
    ///
    /// - Parameters:
    ///   - root: The procfs root, `/proc` unless reading a fake or captured tree.
    ///   - updateInterval: How often `meminfo` is read (default 2 s).
    ///   - eventLoop: The loop that runs the timer.
    public convenience init(
        root: String = "/proc", updateInterval: Duration = .seconds(2), eventLoop: EventLoop = .shared
    ) {
        let path = root + "/meminfo"
        self.init(
            name: "Memory", updateInterval: updateInterval, eventLoop: eventLoop,
            availability: { Availability.procfs(path, what: "memory statistics") },
            read: { () throws(SensorError) in
                try MemoryUsage.parse(try SysfsFile.readProcfsText(path), path: path)
            })
    }
}
