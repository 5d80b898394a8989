import Vigil

/// The device inventory of the machine: cameras, sound cards, Bluetooth adapters, cellular modems and input devices,
/// re-read as devices come and go.
///
/// The monitor re-reads everything:
///
/// - on each uevent of `changes` (the ``DeviceMonitor/readings`` of a `DeviceMonitor` of
///   ``InventoryMonitor/subsystems``) of those subsystems (for `net`, only an interface added, removed or renamed),
///   and on an overflow or unavailable event (events may have been lost);
/// - every ``Source/updateInterval`` (default 30 s), the fallback when no uevents arrive (a fake tree, no uevent
///   socket);
/// - on ``Source/refresh()``.
///
/// Each read asks every video node what it does (`VIDIOC_QUERYCAP`), which opens the node and may wake a camera from
/// runtime suspend, so the first read of a run happens on the event loop, not in ``startMonitoring()``. Readings are a
/// `BehaviorSubject` holding the latest ``SensorReading`` of a ``DeviceInventory``, published on the event-loop
/// thread (or the thread delivering `changes`, or calling ``Source/refresh()``), never under a lock, and only when
/// something changed.
public final class InventoryMonitor: PollingSource {
    /// The uevent subsystems whose devices the inventory lists.
    public static let subsystems: Set<String> = [
        "video4linux", "sound", "bluetooth", "rfkill", "wwan", "net", "usbmisc", "input",
    ]

    /// The sysfs root, `/sys` unless reading a fake or captured tree.
    public let sysfsRoot: String
    private let changes: (any ObservableType<DeviceEvent>)?
    let driver: PollingDriver<DeviceInventory>
    private let eventLoop: EventLoop
    let lifecycle = Lifecycle()

    /// Creates a monitor; nothing is read until it starts.
    ///
    /// - Parameters:
    ///   - sysfsRoot: The sysfs root.
    ///   - procfsRoot: The procfs root, for `asound/cards`.
    ///   - deviceRoot: Where the device nodes of `sysfsRoot` are, `/dev`; nil for a tree that is not this machine's
    ///     (then no node is opened, and video nodes' capabilities are unknown).
    ///   - updateInterval: How often everything is re-read (default 30 s); below 1 ms it is raised to 1 ms.
    ///   - changes: Device events; an event of ``subsystems``, an overflow or an unavailable event re-reads. `nil` to
    ///     rely on polling.
    ///   - eventLoop: The loop that runs the timer and the first read.
    public convenience init(
        sysfsRoot: String = "/sys", procfsRoot: String = "/proc", deviceRoot: String? = "/dev",
        updateInterval: Duration = .seconds(30), changes: (any ObservableType<DeviceEvent>)? = nil,
        eventLoop: EventLoop = .shared
    ) {
        self.init(
            sysfsRoot: sysfsRoot, procfsRoot: procfsRoot, updateInterval: updateInterval, changes: changes,
            eventLoop: eventLoop, query: VideoCapabilities.querying(deviceRoot: deviceRoot))
    }

    /// Creates a monitor that learns what video nodes do from `query` (tests on fake trees give the answer).
    package init(
        sysfsRoot: String, procfsRoot: String, updateInterval: Duration = .seconds(30),
        changes: (any ObservableType<DeviceEvent>)? = nil, eventLoop: EventLoop = .shared,
        query: @escaping VideoCapabilityQuery
    ) {
        self.sysfsRoot = sysfsRoot
        self.changes = changes
        self.eventLoop = eventLoop
        driver = PollingDriver(interval: updateInterval, eventLoop: eventLoop) { () throws(SensorError) in
            try DeviceInventory.read(sysfsRoot: sysfsRoot, procfsRoot: procfsRoot, query: query)
        }
    }

    deinit { stopMonitoring() }

    public var name: String { "Device inventory" }

    /// Available wherever sysfs is: a machine without cameras or modems has an inventory that lists none.
    public var availability: Availability {
        let path = sysfsRoot + "/class"
        return .checking(
            path, missing: (.kernelLacksInterface, "no \(path): sysfs is not mounted there"),
            read: { (path) throws(SensorError) in _ = try SysfsFile.listDirectory(path) })
    }

    /// Starts polling, reads once on the event loop and follows `changes`; concurrent calls start once.
    ///
    /// - Throws: ``SensorError/unavailable(source:reason:)`` without `<sysfsRoot>/class`, or a ``SensorError`` when
    ///   the event loop cannot run the polling timer.
    public func startMonitoring() throws(SensorError) {
        if case .unavailable(_, let detail) = availability {
            throw SensorError.unavailable(source: name, reason: detail)
        }
        try lifecycle.startPolling(driver, firstRead: .onLoop, changes: changes, refreshingAfterWakeOn: eventLoop) {
            [weak self] event in
            if Self.isHotplug(event) { self?.refresh() }
        }
    }

    /// Whether `event` may mean a device of the inventory came, went or changed: an event of ``subsystems`` (a
    /// network interface only when added, removed or renamed: the other `net` events are about traffic, not
    /// devices), or lost events.
    static func isHotplug(_ event: DeviceEvent) -> Bool {
        guard let uevent = event.uevent else { return true }
        guard let subsystem = uevent.subsystem.string, subsystems.contains(subsystem) else { return false }
        guard uevent.subsystem == "net" else { return true }
        return uevent.action == .add || uevent.action == .remove || uevent.action == .move
    }
}
