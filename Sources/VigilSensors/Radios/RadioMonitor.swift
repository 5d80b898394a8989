import Vigil

/// The machine's radio switches: every rfkill switch under `<root>/class/rfkill` (Wi-Fi, Bluetooth, WWAN, GPS, NFC,
/// …) with its soft and hard block and, where the kernel says, why the hardware blocks it.
///
/// The switches are read from sysfs (`name`, `type`, `soft`, `hard`, `state`, `index`, `hard_block_reasons`):
///
/// - at the start, and every ``Source/updateInterval`` (default 10 s), the safety net;
/// - on each `rfkill` uevent of `changes` (the ``DeviceMonitor/readings`` of a `DeviceMonitor(subsystems:
///   ["rfkill"])`: a switch added, removed or changed), and on an overflow or unavailable event;
/// - after the machine resumes, and on ``Source/refresh()``.
///
/// Where this process may read it, the monitor also follows `<devRoot>/rfkill`, read-only (it never writes, so it
/// never blocks or unblocks a radio). It asks the kernel for 9-byte events with the hard-block reasons
/// (`RFKILL_IOCTL_MAX_SIZE`) and keeps the 8-byte ones of kernels that refuse (before 5.11); each read is one event,
/// any size from 8 bytes on is accepted and unknown trailing bytes are ignored. A change of a known switch is applied
/// at once; a switch added, an unknown operation or switch, a truncated event, and a drain long enough that the
/// kernel may have dropped events (its queue holds about 1,000 per reader: a drain of 1,000 or more) re-read sysfs.
/// When the device is missing or refused, the readings say so in ``RadioSwitches/eventDeviceProblem`` and sysfs with
/// uevents still serve.
///
/// Readings are a `BehaviorSubject` holding the latest ``SensorReading`` of ``RadioSwitches``, published on the
/// event-loop thread (or the thread delivering `changes`, or calling ``Source/refresh()``), never under a lock, and
/// only when something changed.
public final class RadioMonitor: PollingSource {
    /// The sysfs root, `/sys` unless reading a fake or captured tree.
    public let root: String
    /// The event device followed when readable, `<devRoot>/rfkill`.
    public var eventDevice: String { events.path }
    private let changes: (any ObservableType<DeviceEvent>)?
    private let eventLoop: EventLoop
    private let events: RfkillEvents
    let driver: PollingDriver<RadioSwitches>
    let lifecycle = Lifecycle()

    /// Creates a monitor; nothing is read or opened until it starts.
    ///
    /// - Parameters:
    ///   - root: The sysfs root.
    ///   - devRoot: The directory holding `rfkill`.
    ///   - updateInterval: How often every switch is re-read (default 10 s); below 1 ms it is raised to 1 ms.
    ///   - changes: Device events; an `rfkill` uevent, an overflow or an unavailable event re-reads the switches.
    ///     `nil` to rely on `/dev/rfkill` and the interval.
    ///   - eventLoop: The loop that reads `/dev/rfkill` and runs the timer.
    public convenience init(
        root: String = "/sys", devRoot: String = "/dev", updateInterval: Duration = .seconds(10),
        changes: (any ObservableType<DeviceEvent>)? = nil, eventLoop: EventLoop = .shared
    ) {
        self.init(
            root: root, devRoot: devRoot, updateInterval: updateInterval, changes: changes, eventLoop: eventLoop,
            access: .kernel)
    }

    /// A monitor that reaches the event device through `access` (a test's stand-in for the kernel's).
    package init(
        root: String = "/sys", devRoot: String = "/dev", updateInterval: Duration = .seconds(10),
        changes: (any ObservableType<DeviceEvent>)? = nil, eventLoop: EventLoop = .shared, access: RfkillAccess
    ) {
        self.root = root
        self.changes = changes
        self.eventLoop = eventLoop
        let events = RfkillEvents(path: devRoot + "/rfkill", access: access, eventLoop: eventLoop)
        self.events = events
        let driver = PollingDriver(interval: updateInterval, eventLoop: eventLoop) { () throws(SensorError) in
            let status = events.status
            return try RadioSwitches.read(root: root, eventDevice: status.device, eventDeviceProblem: status.problem)
        }
        self.driver = driver
        events.onActions.value = { [weak driver, weak events] actions in
            guard let driver, let events else { return }
            Self.apply(actions, to: driver, status: events.status)
        }
    }

    deinit { stopMonitoring() }

    public var name: String { "Radio switches" }

    /// Available when the kernel has the rfkill class and it holds a switch; `/dev/rfkill` is not needed (without
    /// read permission on it, sysfs and uevents still serve, and the readings say so).
    public var availability: Availability {
        let path = SysfsClass.path(root: root, className: "rfkill")
        guard SysfsFile.isDirectory(path) || SysfsFile.exists(path) else {
            return .unavailable(
                reason: .missingDevice,
                detail: "this machine has no radio switches (no \(path): no rfkill driver is loaded)")
        }
        return SysfsClass.availability(
            root: root, className: "rfkill", noun: "radio switches", include: { isNodeName($0, prefix: "rfkill") })
    }

    /// Opens `/dev/rfkill` where readable, reads every switch, starts the timer and follows `changes`; concurrent
    /// calls start once.
    ///
    /// The switches are first read on the event loop, so the start returns at once with the readings `pending`.
    ///
    /// - Throws: ``SensorError/unavailable(source:reason:)`` when ``availability`` says the machine has no radio
    ///   switches, or a ``SensorError`` when the event loop cannot run the timer.
    public func startMonitoring() throws(SensorError) {
        if case .unavailable(_, let detail) = availability {
            throw SensorError.unavailable(source: name, reason: detail)
        }
        try lifecycle.start { (generation) throws(SensorError) in
            events.open()
            lifecycle.keep(generation) { [events] in events.close() }
            try driver.start(firstRead: .onLoop)
            lifecycle.keep(generation) { [driver] in driver.stop() }
            lifecycle.refreshAfterWake(on: eventLoop, generation: generation) { [driver] in driver.refresh() }
            if let changes {
                let subscription = changes.subscribe { [weak self] event in
                    if Self.isRadioChange(event) { self?.refresh() }
                }
                lifecycle.keep(generation) { subscription.dispose() }
            }
        }
    }

    /// Whether `event` may mean a switch came, went or changed: an `rfkill` uevent, or lost events.
    static func isRadioChange(_ event: DeviceEvent) -> Bool {
        guard let uevent = event.uevent else { return true }
        return uevent.subsystem == "rfkill"
    }

    /// Applies one wake's event actions to the current reading, then re-reads sysfs when one asked for it or could
    /// not be placed.
    private static func apply(
        _ actions: [RfkillStream.Action], to driver: PollingDriver<RadioSwitches>,
        status: (device: String?, problem: String?)
    ) {
        var resynchronize = false
        driver.publish { (current) throws(SensorError) -> RadioSwitches? in
            guard var reading = current else {
                resynchronize = true
                return nil
            }
            for action in actions {
                switch action {
                case .apply(let event):
                    guard let next = reading.applying(event) else {
                        resynchronize = true
                        continue
                    }
                    reading = next
                case .resynchronize:
                    resynchronize = true
                case .none:
                    continue
                }
            }
            return resynchronize ? nil : reading.following(status.device, problem: status.problem)
        }
        if resynchronize { driver.refresh() }
    }
}
