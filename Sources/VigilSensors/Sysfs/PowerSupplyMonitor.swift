import Vigil

/// Every power supply under `<root>/class/power_supply` and where the system draws power from.
///
/// The kernel never notifies individual battery attributes through `poll`, so the monitor combines three paths:
///
/// - **Change uevents** (optional, `changes`): the `power_supply` events of a ``DeviceMonitor`` (its
///   ``DeviceMonitor/readings``), or any observable of ``DeviceEvent`` for tests and captures. A `change` event carries
///   the supply's full snapshot (`POWER_SUPPLY_*`), which replaces that supply's reading without touching sysfs; an
///   `add` or `remove` event, a snapshot with a value that does not parse (a note) or that lacks `POWER_SUPPLY_TYPE`
///   (older kernels), or an overflow or unavailable event (changes may have been lost), re-reads the whole class
///   directory. Events of other subsystems are ignored.
/// - **Polling** every ``Source/updateInterval`` (default 30 s), the fallback when no uevents arrive.
/// - **Settling**: when an external supply goes on- or offline, the supplies are re-read every second for
///   `settleCount` seconds, because batteries do not always announce the switch between charging and discharging.
///
/// Units are those of ``PowerSupply``. Readings are a `BehaviorSubject` holding the latest ``SensorReading`` of a
/// ``PowerSupplyReading``, published on the event-loop thread (or the thread that delivers `changes`), never under
/// a lock, and only when something changed. A machine without a system battery reports
/// ``PowerSupplyReading/PowerSource-swift.enum/noBattery``.
public final class PowerSupplyMonitor: PollingSource {
    private struct State {
        var running = false
        var settling: EventLoop.Registration?
        var settleRemaining = 0
    }

    /// The sysfs root, `/sys` unless reading a fake or captured tree.
    public let root: String
    /// How many one-second re-reads follow a change of an external supply.
    public let settleCount: Int
    private let changes: (any ObservableType<DeviceEvent>)?
    private let eventLoop: EventLoop
    let driver: PollingDriver<PowerSupplyReading>
    private let state = FutexMutex(State())
    let lifecycle = Lifecycle()

    /// Creates a monitor; nothing is read until it starts.
    ///
    /// - Parameters:
    ///   - root: The sysfs root.
    ///   - updateInterval: How often every supply is re-read (default 30 s); below 1 ms it is raised to 1 ms.
    ///   - settleCount: One-second re-reads after an external supply changes (default 5).
    ///   - changes: Device events (``DeviceMonitor/readings`` of a `DeviceMonitor(subsystems: ["power_supply"])`);
    ///     `nil` to rely on polling.
    ///   - eventLoop: The loop that runs the timers.
    public init(
        root: String = "/sys", updateInterval: Duration = .seconds(30), settleCount: Int = 5,
        changes: (any ObservableType<DeviceEvent>)? = nil, eventLoop: EventLoop = .shared
    ) {
        self.root = root
        self.settleCount = max(0, settleCount)
        self.changes = changes
        self.eventLoop = eventLoop
        driver = PollingDriver(interval: updateInterval, eventLoop: eventLoop) { () throws(SensorError) in
            try PowerSupplyReading.read(root: root)
        }
    }

    deinit { stopMonitoring() }

    public var name: String { "Power supply" }

    /// Available when the kernel has the power-supply class, even if it is empty: then the reading says "no battery".
    public var availability: Availability {
        let path = SysfsClass.path(root: root, className: "power_supply")
        if SysfsFile.isDirectory(path) { return .available }
        return .unavailable(
            reason: .kernelLacksInterface, detail: "no \(path): the kernel has no power-supply class")
    }

    /// Reads every supply, starts polling and follows `changes`; concurrent calls start once.
    ///
    /// - Throws: ``SensorError`` when the event loop cannot run the polling timer.
    public func startMonitoring() throws(SensorError) {
        try lifecycle.start { (generation) throws(SensorError) in
            state.withLock { $0.running = true }
            try driver.start()
            lifecycle.keep(generation) { [driver] in driver.stop() }
            lifecycle.refreshAfterWake(on: eventLoop, generation: generation) { [weak self] in self?.refresh() }
            if let changes {
                let subscription = changes.subscribe { [weak self] event in self?.handle(event) }
                lifecycle.keep(generation) { subscription.dispose() }
            }
        }
    }

    /// Stops polling, settling and following `changes`.
    public func stopMonitoring() {
        lifecycle.stop()
        let settling = state.withLock { state in
            defer {
                state.running = false
                state.settling = nil
            }
            return state.settling
        }
        settling?.cancel()
    }

    /// Applies one device event of `changes`: a `power_supply` uevent, or a notice that events were lost.
    private func handle(_ event: DeviceEvent) {
        switch event.kind {
        case .event(let uevent) where uevent.subsystem == "power_supply":
            // As text, as the class directory's attributes are read; a name that is not UTF-8 is caught below.
            var properties = uevent.properties.mapValues(\.lossyString)
            properties["ACTION"] = uevent.action.rawValue
            handle(uevent: properties)
        case .event:
            return
        case .overflow, .unavailable:
            // Events are lost, or may be while the device monitor cannot read them: re-read everything.
            handle(uevent: ["ACTION": "overflow"])
        }
    }

    /// Applies one `power_supply` uevent's properties (with `ACTION`).
    ///
    /// Runs on the calling thread; publishes when the reading changed. Does nothing when stopped.
    package func handle(uevent properties: [String: String]) {
        let (name, attributes) = PowerSupply.attributes(fromUevent: properties)
        var externalChanged = false
        // A name that is not UTF-8 reaches here with U+FFFD in place of its bytes, while the class directory names
        // the supply escaped: such an event re-reads the directory instead of adding a second, misnamed supply.
        let named = name.flatMap { $0.unicodeScalars.contains("\u{FFFD}") ? nil : $0 }
        driver.publish { (last) throws(SensorError) in
            guard properties["ACTION"] == "change", let name = named, attributes["type"] != nil, let last,
                let supply = try? PowerSupply.parse(name: name, attributes: attributes, origin: "uevent of \(name)"),
                supply.notes.isEmpty
            else {
                let reading = try PowerSupplyReading.read(root: root)
                externalChanged = Self.externalOnline(last) != Self.externalOnline(reading)
                return reading
            }
            let previous = last.supplies.first { $0.name == name }
            externalChanged = supply.kind != .battery && previous?.isOnline != supply.isOnline
            return PowerSupplyReading(
                supplies: last.supplies.filter { $0.name != name } + [supply], problems: last.problems)
        }
        if externalChanged { settle() }
    }

    /// The online state of every external supply, to notice a switch after a full re-read.
    private static func externalOnline(_ reading: PowerSupplyReading?) -> [String: Bool?] {
        var result: [String: Bool?] = [:]
        for supply in reading?.supplies ?? [] where supply.kind != .battery { result[supply.name] = supply.isOnline }
        return result
    }

    /// Re-reads every second for ``settleCount`` seconds; a switch during a run restarts the count.
    private func settle() {
        guard settleCount > 0 else { return }
        let needsTimer = state.withLock { state in
            guard state.running else { return false }
            state.settleRemaining = settleCount
            return state.settling == nil
        }
        guard needsTimer else { return }
        let registration: EventLoop.Registration
        do {
            registration = try eventLoop.schedule(every: .seconds(1)) { [weak self] in self?.settleTick() }
        } catch {
            return  // The loop refused a timer; polling still covers the switch.
        }
        let keep = state.withLock { state in
            guard state.running, state.settling == nil else { return false }
            state.settling = registration
            return true
        }
        if !keep { registration.cancel() }
    }

    private func settleTick() {
        driver.refresh()
        let finished = state.withLock { state in
            state.settleRemaining -= 1
            guard state.settleRemaining <= 0 else { return nil as EventLoop.Registration? }
            defer { state.settling = nil }
            return state.settling
        }
        finished?.cancel()
    }
}
