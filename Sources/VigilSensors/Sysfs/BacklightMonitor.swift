import Vigil

/// One backlight under `<root>/class/backlight`: brightness as a fraction, and a way to set it.
///
/// The kernel calls `sysfs_notify` on `actual_brightness` when the brightness changes (hotkeys, firmware, another
/// program), so the monitor watches it for `POLLPRI` and re-reads it from offset 0, with a safety-net re-read every
/// ``updateInterval``; where watching is impossible (a fake tree) it polls every ``updateInterval``. `backlight`
/// device events (optional `changes`, the ``DeviceMonitor/readings`` of a `DeviceMonitor(subsystems: ["backlight"])`)
/// trigger a re-read too, as do its overflow and unavailable events.
/// Readings are a `BehaviorSubject` holding the latest ``SensorReading`` of a ``Backlight``, published on the
/// event-loop thread (or the thread delivering `changes`), never under a lock, and only when something changed.
public final class BacklightMonitor: Source {
    /// The sysfs root, `/sys` unless reading a fake or captured tree.
    public let root: String
    /// The backlight's directory name, for example `intel_backlight`.
    public let device: String
    private let watch: AttributeWatch<Backlight>
    private let changes: (any ObservableType<DeviceEvent>)?
    private let eventLoop: EventLoop
    private let lifecycle = Lifecycle()

    /// Creates a monitor; nothing is read until it starts.
    ///
    /// - Parameters:
    ///   - device: The backlight name; `nil` for the first one under `<root>/class/backlight`.
    ///   - root: The sysfs root.
    ///   - updateInterval: The safety-net re-read interval, and the polling interval when `actual_brightness` cannot be
    ///     watched.
    ///   - changes: Device events; a `backlight` uevent, an overflow or an unavailable event re-reads the backlight.
    ///     `nil` for none.
    ///   - eventLoop: The loop that watches the attribute.
    public init(
        device: String? = nil, root: String = "/sys", updateInterval: Duration = .seconds(1),
        changes: (any ObservableType<DeviceEvent>)? = nil, eventLoop: EventLoop = .shared
    ) {
        let classPath = SysfsClass.path(root: root, className: "backlight")
        let name = device ?? ((try? SysfsFile.listDirectory(classPath))?.first ?? "")
        let directory = classPath + "/" + name
        self.root = root
        self.device = name
        self.changes = changes
        self.eventLoop = eventLoop
        watch = AttributeWatch(
            path: directory + "/actual_brightness", strategy: .automatic, updateInterval: updateInterval,
            eventLoop: eventLoop
        ) { (open) throws(SensorError) in
            var texts = try SysfsFile.readAttributes(in: directory, names: ["brightness", "max_brightness"])
            if let open {
                texts["actual_brightness"] = try open.readText()
            } else if let actual = try SysfsFile.readAttributes(in: directory, names: ["actual_brightness"]).first {
                texts[actual.key] = actual.value
            }
            return try Backlight.parse(name: name, attributes: texts, origin: directory)
        }
    }

    deinit { stopMonitoring() }

    public var name: String { "Backlight" }
    /// How the running monitor learns about changes; `nil` when stopped.
    public var mode: UpdateMode? { watch.mode }
    public var readings: BehaviorSubject<SensorReading<Backlight>> { watch.driver.readings }
    public var isMonitoring: Bool { lifecycle.isRunning }

    public var availability: Availability {
        if device.isEmpty {
            return SysfsClass.availability(root: root, className: "backlight", noun: "backlight")
        }
        let directory = SysfsClass.path(root: root, className: "backlight") + "/" + device
        return SysfsFile.isDirectory(directory)
            ? .available : .unavailable(reason: .missingDevice, detail: "no backlight \(directory)")
    }

    /// Reads the backlight, watches it and follows `changes`; concurrent calls start once.
    ///
    /// - Throws: ``SensorError/unavailable(source:reason:)`` on a machine without a backlight, or a ``SensorError``
    ///   when the event loop refuses the watch and the timer.
    public func startMonitoring() throws(SensorError) {
        guard !device.isEmpty else {
            throw SensorError.unavailable(source: name, reason: "this machine has no backlight")
        }
        try lifecycle.start { (generation) throws(SensorError) in
            try watch.start()
            lifecycle.keep(generation) { [watch] in watch.stop() }
            lifecycle.refreshAfterWake(on: eventLoop, generation: generation) { [weak self] in self?.refresh() }
            if let changes {
                let subscription = changes.subscribe { [weak self] event in
                    if event.uevent.map({ $0.subsystem == "backlight" }) ?? true { self?.refresh() }
                }
                lifecycle.keep(generation) { subscription.dispose() }
            }
        }
    }

    /// Stops watching and following `changes`.
    public func stopMonitoring() { lifecycle.stop() }

    /// Re-reads the backlight now.
    public func refresh() { watch.driver.refresh() }

    /// The safety-net re-read interval while watched, the polling interval otherwise; never `nil`.
    public var updateInterval: Duration? { watch.driver.interval }

    /// Changes the re-read interval; a running monitor reschedules its timer at once.
    ///
    /// - Throws: ``SensorError/invalidArgument(name:value:reason:)`` for an interval below 1 ms.
    public func setUpdateInterval(_ interval: Duration) throws(SensorError) { try watch.driver.setInterval(interval) }

    /// Makes every read (each poll, each notification) publish its reading, or only a changed one.
    public func setPublishesEveryRead(_ every: Bool) { watch.driver.setPublishesEveryRead(every) }

    /// Sets the brightness, in driver steps 0...`maximumBrightness`, by writing the `brightness` attribute.
    ///
    /// Writing needs root or write access to the attribute (desktops usually grant it through a udev rule or
    /// logind's `SetBrightness`); the monitor need not be running. Runs on the calling thread.
    ///
    /// - Throws: ``SensorError/unavailable(source:reason:)`` without a backlight,
    ///   ``SensorError/valueOutOfRange(path:value:range:)`` for a value outside the range,
    ///   ``SensorError/permissionDenied(path:)`` when this process may not write it, or another ``SensorError``.
    public func set(brightness: Int) throws(SensorError) {
        guard !device.isEmpty else {
            throw SensorError.unavailable(source: name, reason: "this machine has no backlight")
        }
        let directory = SysfsClass.path(root: root, className: "backlight") + "/" + device
        let maximum = try AttributeParser.integer(
            try SysfsFile.readText(directory + "/max_brightness"), path: directory + "/max_brightness")
        guard (0...maximum).contains(brightness) else {
            throw SensorError.valueOutOfRange(
                path: directory + "/brightness", value: String(brightness), range: "0...\(maximum)")
        }
        try SysfsFile.write(String(brightness), to: directory + "/brightness")
        refresh()
    }
}
