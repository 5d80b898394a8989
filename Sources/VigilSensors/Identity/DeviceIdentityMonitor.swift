import Vigil

/// This machine's identity and operating system (``DeviceIdentity``), re-read when the hostname changes.
///
/// When it starts, the monitor opens `<proc>/sys/kernel/hostname` and watches it for `POLLPRI`: the kernel wakes
/// every poller of that file when a hostname is set, in any UTS namespace, so on each wake-up the monitor re-reads
/// the hostname from offset 0 of the open file (which also re-arms the wake-up) and publishes only if it differs
/// from the one it holds: a container setting its own hostname publishes nothing here. Where the file is not on
/// procfs (a fake tree) or the event loop refuses it, the hostname is polled with the rest; ``mode`` says which.
///
/// Everything else (DMI, device tree, os-release, machine id) has no kernel notification and changes seldom (a
/// firmware or OS upgrade), so it is re-read every ``Source/updateInterval`` (default 5 minutes) and on
/// ``Source/refresh()``.
///
/// Readings are a `BehaviorSubject` holding the latest ``SensorReading`` of a ``DeviceIdentity``: `pending` until the
/// first read, then each identity that differs from the one before, or `unavailable` when the hostname cannot be read
/// (no procfs). They are published on the event-loop thread (the calling thread for ``Source/refresh()``), never under
/// a lock.
public final class DeviceIdentityMonitor: PollingSource {
    /// The hostname file watched.
    public var hostnamePath: String { paths.hostname }
    private let paths: IdentityPaths
    private let eventLoop: EventLoop
    let driver: PollingDriver<DeviceIdentity>
    private let open = SharedValue<OpenAttribute?>(nil)
    private let watchMode = SharedValue<UpdateMode?>(nil)
    let lifecycle = Lifecycle()
    private let wakeUps = FutexMutex(0)

    /// Creates a monitor; nothing is read until it starts.
    ///
    /// - Parameters:
    ///   - sysfsRoot: The sysfs root, `/sys` unless reading a fake or captured tree.
    ///   - procfsRoot: The procfs root, `/proc`.
    ///   - etcRoot: The configuration root, `/etc`; os-release falls back to `usr/lib/os-release` beside it.
    ///   - updateInterval: How often everything is re-read (default 5 minutes); below 1 ms it is raised to 1 ms.
    ///   - eventLoop: The loop that watches the hostname and runs the timer.
    public init(
        sysfsRoot: String = "/sys", procfsRoot: String = "/proc", etcRoot: String = "/etc",
        updateInterval: Duration = .seconds(300), eventLoop: EventLoop = .shared
    ) {
        let paths = IdentityPaths(sys: sysfsRoot, proc: procfsRoot, etc: etcRoot)
        self.paths = paths
        self.eventLoop = eventLoop
        let open = self.open
        driver = PollingDriver(interval: updateInterval, eventLoop: eventLoop) { () throws(SensorError) in
            try DeviceIdentity.read(paths, hostname: open.value?.readText())
        }
    }

    deinit { stopMonitoring() }

    public var name: String { "Device identity" }

    /// How a running monitor learns of hostname changes: `POLLPRI` notifications or polling; nil when stopped.
    public var mode: UpdateMode? { lifecycle.isRunning ? watchMode.value : nil }

    /// How many `POLLPRI` wake-ups of the hostname file this monitor has handled, published or not (most come from
    /// other UTS namespaces): for tests that show a wake-up came and changed nothing.
    package var hostnameWakeUps: Int { wakeUps.withLock { $0 } }

    /// Available when the hostname can be read (procfs is mounted).
    public var availability: Availability {
        .checking(paths.hostname, missing: (.kernelLacksInterface, "no \(paths.hostname): procfs is not mounted"))
    }

    /// Watches the hostname (or chooses polling), then reads once and starts the timer; concurrent calls start once.
    ///
    /// - Throws: ``SensorError`` when the event loop cannot run the timer.
    public func startMonitoring() throws(SensorError) {
        try lifecycle.start { (generation) throws(SensorError) in
            watchMode.value = watchHostname(generation)
            try driver.start()
            lifecycle.keep(generation) { [driver] in driver.stop() }
            lifecycle.refreshAfterWake(on: eventLoop, generation: generation) { [weak self] in self?.refresh() }
        }
    }

    /// Opens the hostname and watches it for `POLLPRI` for `generation`'s run (which then owns it), or says polling.
    private func watchHostname(_ generation: UInt64) -> UpdateMode {
        let path = paths.hostname
        guard OpenAttribute.isOnProcfs(path), let attribute = try? OpenAttribute(path: path) else { return .polling }
        do {
            try lifecycle.watchPriority(attribute, holder: open, on: eventLoop, generation: generation) {
                [weak self] in self?.hostnameChanged()
            }
            return .notifications
        } catch {
            return .polling
        }
    }

    /// A hostname was set in some UTS namespace: re-read ours, and publish only when it differs.
    ///
    /// Only the hostname is re-read (the rest cannot have changed with it), so the wake-ups of busy container hosts
    /// cost one `pread` each.
    private func hostnameChanged() {
        wakeUps.withLock { $0 += 1 }
        let open = self.open
        let paths = paths
        driver.publish { (last) throws(SensorError) in
            let hostname: String
            if let attribute = open.value {
                hostname = try attribute.readText()
            } else {
                hostname = try SysfsFile.readText(paths.hostname)
            }
            guard var identity = last else { return try DeviceIdentity.read(paths, hostname: hostname) }
            identity.hostname = hostname
            return identity
        }
    }
}
