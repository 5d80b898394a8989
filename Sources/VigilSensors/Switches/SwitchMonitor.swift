import Glibc
import Vigil

/// The machine's switches: lid, tablet mode, dock, headphone and other jacks, camera lens cover, … — every evdev
/// device under `<root>/class/input` whose capabilities include switches (`EV_SW`).
///
/// At the start, and at each rescan, the monitor lists `<root>/class/input`, opens each switch device's node
/// (`<devRoot>/input/eventN`) read-only and non-blocking, asks it to stamp events with `CLOCK_BOOTTIME` (else
/// `CLOCK_MONOTONIC`) with `EVIOCSCLOCKID`, and reads where its switches stand with `EVIOCGSW`. From then on the node
/// is read on the event loop: whole `struct input_event`s (a partial one is kept until the rest arrives), applied one
/// frame at a time at its `SYN_REPORT`. When the kernel reports `SYN_DROPPED` (its buffer overflowed), events up to
/// the next `SYN_REPORT` are discarded and the switches are read again with `EVIOCGSW`, as libevdev does. A node whose
/// read fails with `ENODEV` (the device was unplugged) is reported in its device's ``SwitchDevice/problem`` and closed.
///
/// A device whose node cannot be read shows why in its ``SwitchDevice/problem``: for a permission refusal, the group
/// that may read it (usually `input`) and how to join it. When every device is refused, the reading is `unavailable`
/// with that advice.
///
/// The monitor rescans:
///
/// - on each `input` uevent of `changes` (the ``DeviceMonitor/readings`` of a `DeviceMonitor(subsystems: ["input"])`),
///   and on an overflow or unavailable event (events may have been lost);
/// - every ``Source/updateInterval`` (default 10 s), which also retries nodes that could not be opened (udev sets a new
///   node's group just after the kernel announces it) and finds devices where no uevents arrive (a fake tree);
/// - after every wake from a suspend, when it also opens every node again and reads its switches with `EVIOCGSW`: what
///   changed while the machine slept (a lid opened on the way) may have sent no event it could read;
/// - on ``Source/refresh()``.
///
/// Readings are a `BehaviorSubject` holding the latest ``SensorReading`` of ``SwitchStates``, published on the
/// event-loop thread (or the thread delivering `changes`, or calling ``Source/refresh()``), never under a lock, and
/// only when something changed. A switch changed by an event carries the event's time in ``SwitchState/changed``.
public final class SwitchMonitor: PollingSource {
    /// The sysfs root, `/sys` unless reading a fake or captured tree.
    public let root: String
    /// The device-node root, `/dev` unless reading a fake tree.
    public let devRoot: String
    private let changes: (any ObservableType<DeviceEvent>)?
    private let nodes: SwitchNodes
    private let eventLoop: EventLoop
    let driver: PollingDriver<SwitchStates>
    let lifecycle = Lifecycle()

    /// Creates a monitor; nothing is read or opened until it starts.
    ///
    /// - Parameters:
    ///   - root: The sysfs root.
    ///   - devRoot: The directory holding `input/eventN`.
    ///   - updateInterval: How often the devices are rescanned (default 10 s); below 1 ms it is raised to 1 ms.
    ///   - changes: Device events; an `input` uevent, an overflow or an unavailable event rescans. `nil` to rely on
    ///     the interval.
    ///   - eventLoop: The loop that reads the nodes and runs the timer.
    public convenience init(
        root: String = "/sys", devRoot: String = "/dev", updateInterval: Duration = .seconds(10),
        changes: (any ObservableType<DeviceEvent>)? = nil, eventLoop: EventLoop = .shared
    ) {
        self.init(
            root: root, devRoot: devRoot, updateInterval: updateInterval, changes: changes, eventLoop: eventLoop,
            access: .kernel)
    }

    /// A monitor that reaches the nodes through `access` (a test's stand-in for the kernel's evdev).
    package init(
        root: String = "/sys", devRoot: String = "/dev", updateInterval: Duration = .seconds(10),
        changes: (any ObservableType<DeviceEvent>)? = nil, eventLoop: EventLoop = .shared, access: EvdevAccess
    ) {
        self.root = root
        self.devRoot = devRoot
        self.changes = changes
        self.eventLoop = eventLoop
        let nodes = SwitchNodes(root: root, devRoot: devRoot, access: access, eventLoop: eventLoop)
        self.nodes = nodes
        let driver = PollingDriver(interval: updateInterval, eventLoop: eventLoop) { () throws(SensorError) in
            try nodes.rescan()
        }
        self.driver = driver
        nodes.onChange.value = { [weak driver, weak nodes] in
            guard let nodes else { return }
            driver?.publish { (_) throws(SensorError) in try nodes.snapshot() }
        }
    }

    deinit { stopMonitoring() }

    public var name: String { "Switches" }

    /// Available when some input device reports switches and, of those, at least one node may be read (or is missing,
    /// which the readings report); unavailable with the group to join when every node is refused.
    public var availability: Availability {
        let scan: [SwitchCandidate]
        do {
            scan = try SwitchCandidate.scan(root: root, devRoot: devRoot).devices
        } catch .notFound {
            return .unavailable(
                reason: .missingDevice,
                detail: "this machine has no input devices (no \(SysfsClass.path(root: root, className: "input")))")
        } catch {
            return .unavailable(reason: .kernelLacksInterface, detail: "\(error)")
        }
        guard !scan.isEmpty else {
            return .unavailable(
                reason: .missingDevice,
                detail: "no input device reports switches (lid, tablet mode, dock, jacks) under "
                    + SysfsClass.path(root: root, className: "input"))
        }
        let refused = scan.filter { SysfsFile.exists($0.path) && !Self.mayRead($0.path) }
        guard refused.count == scan.count, let first = refused.first else { return .available }
        let advice = Evdev.permissionAdvice(for: first.path)
        return .unavailable(reason: .permissionDenied, detail: "\(first.path) (\(first.name)): \(advice)")
    }

    /// Whether this process may open `path` for reading. Wraps `access(2)`, which opens nothing.
    private static func mayRead(_ path: String) -> Bool {
        access(path, R_OK) == 0
    }

    /// Reads every switch device, watches their nodes and follows `changes`; concurrent calls start once.
    ///
    /// The devices are read on the event loop, so the start returns at once with the readings `pending`.
    ///
    /// - Throws: ``SensorError/unavailable(source:reason:)`` when ``availability`` says the machine has no switches
    ///   or none may be read, or a ``SensorError`` when the event loop cannot run the timer.
    public func startMonitoring() throws(SensorError) {
        if case .unavailable(_, let detail) = availability {
            throw SensorError.unavailable(source: name, reason: detail)
        }
        try lifecycle.start { (generation) throws(SensorError) in
            nodes.begin(generation)
            lifecycle.keep(generation) { [nodes] in nodes.end() }
            try driver.start(firstRead: .onLoop)
            lifecycle.keep(generation) { [driver] in driver.stop() }
            if let changes {
                let subscription = changes.subscribe { [weak self] event in
                    if Self.isInputChange(event) { self?.refresh() }
                }
                lifecycle.keep(generation) { subscription.dispose() }
            }
            lifecycle.refreshAfterWake(on: eventLoop, generation: generation) { [weak self] in self?.reopenAfterWake() }
        }
    }

    /// After a wake, on the loop thread: opens every switch device again, reads its switches with `EVIOCGSW` and
    /// publishes what changed while the machine slept.
    ///
    /// A fresh open rather than an `EVIOCGSW` on the descriptor held: only a node's own handler may use that
    /// descriptor (a stop or a rescan on another thread may close it at any moment), while a fresh one belongs to this
    /// read until it replaces the old, as a new device's does. The new node is open before the old one closes, so the
    /// device never loses its last reader; and on the loop thread no event is handled between the read and the swap.
    private func reopenAfterWake() {
        let reopen: @Sendable () -> Void = { [driver, nodes] in
            driver.publish { (_) throws(SensorError) in try nodes.rescan(reopening: true) }
        }
        if (try? eventLoop.schedule(after: .zero, handler: reopen)) == nil { reopen() }
    }

    /// Whether `event` may mean a switch device came or went: an `input` uevent, or lost events.
    static func isInputChange(_ event: DeviceEvent) -> Bool {
        guard let uevent = event.uevent else { return true }
        return uevent.subsystem == "input"
    }
}
