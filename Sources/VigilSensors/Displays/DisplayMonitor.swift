import Vigil

/// The displays of the machine: every DRM connector under `<root>/class/drm` with the EDID of what is plugged in.
///
/// The kernel announces a plugged or unplugged display with a `drm` `change` uevent carrying `HOTPLUG=1` (with
/// `CONNECTOR=<id>` when it knows which connector changed, without when a whole card was re-probed); it never
/// notifies the attributes themselves. So the monitor re-reads every connector:
///
/// - on each `drm` uevent of `changes` (the ``DeviceMonitor/readings`` of a `DeviceMonitor(subsystems: ["drm"])`)
///   with `HOTPLUG=1`, or that adds or removes a device (a card appearing), and on an overflow or unavailable event
///   (events may have been lost); other `drm` events (leases, property changes) and other subsystems are ignored;
/// - every ``Source/updateInterval`` (default 10 s), the fallback when no uevents arrive (a fake tree, no uevent
///   socket);
/// - on ``Source/refresh()``.
///
/// Reading the attributes is cheap: `status`, `modes` and `edid` show what the kernel last probed and do not probe
/// again. Readings are a `BehaviorSubject` holding the latest ``SensorReading`` of a ``DisplayReading``, published on
/// the event-loop thread (or the thread delivering `changes`, or calling ``Source/refresh()``), never under a lock, and
/// only when something changed.
public final class DisplayMonitor: PollingSource {
    /// The sysfs root, `/sys` unless reading a fake or captured tree.
    public let root: String
    private let changes: (any ObservableType<DeviceEvent>)?
    private let eventLoop: EventLoop
    let driver: PollingDriver<DisplayReading>
    let lifecycle = Lifecycle()

    /// Creates a monitor; nothing is read until it starts.
    ///
    /// - Parameters:
    ///   - root: The sysfs root.
    ///   - updateInterval: How often every connector is re-read (default 10 s); below 1 ms it is raised to 1 ms.
    ///   - changes: Device events; a `drm` hot-plug, an overflow or an unavailable event re-reads the connectors.
    ///     `nil` to rely on polling.
    ///   - eventLoop: The loop that runs the timer.
    public init(
        root: String = "/sys", updateInterval: Duration = .seconds(10),
        changes: (any ObservableType<DeviceEvent>)? = nil, eventLoop: EventLoop = .shared
    ) {
        self.root = root
        self.changes = changes
        self.eventLoop = eventLoop
        driver = PollingDriver(interval: updateInterval, eventLoop: eventLoop) { () throws(SensorError) in
            try DisplayReading.read(root: root)
        }
    }

    deinit { stopMonitoring() }

    public var name: String { "Displays" }

    /// Available when the kernel has the DRM class, even without connectors (a headless card): then the reading
    /// lists none.
    public var availability: Availability {
        let path = SysfsClass.path(root: root, className: "drm")
        return .checking(
            path,
            missing: (
                .missingDevice, "this machine has no display hardware the kernel drives (no \(path): no DRM driver)"
            ),
            read: { (path) throws(SensorError) in _ = try SysfsFile.listDirectory(path) })
    }

    /// Reads every connector, starts polling and follows `changes`; concurrent calls start once.
    ///
    /// - Throws: ``SensorError/unavailable(source:reason:)`` without `<root>/class/drm`, or a ``SensorError`` when the
    ///   event loop cannot run the polling timer.
    public func startMonitoring() throws(SensorError) {
        if case .unavailable(_, let detail) = availability {
            throw SensorError.unavailable(source: name, reason: detail)
        }
        try lifecycle.startPolling(driver, changes: changes, refreshingAfterWakeOn: eventLoop) { [weak self] event in
            if Self.isHotplug(event) { self?.refresh() }
        }
    }

    /// Whether `event` may mean a display came or went: a `drm` hot-plug, a `drm` device added or removed, or lost
    /// events.
    static func isHotplug(_ event: DeviceEvent) -> Bool {
        guard let uevent = event.uevent else { return true }
        guard uevent.subsystem == "drm" else { return false }
        return uevent.properties["HOTPLUG"] == "1" || uevent.action == .add || uevent.action == .remove
    }
}
