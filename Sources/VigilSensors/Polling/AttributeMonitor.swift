import Vigil

/// Any sysfs or procfs attribute, parsed into a value by a function you give.
///
/// How it learns about changes is chosen per attribute when it starts (see ``UpdateStrategy``): with the default
/// `.automatic`, an attribute on a sysfs mount (`statfs(2)` says `SYSFS_MAGIC`) that the event loop accepts for
/// `POLLPRI` is watched for notifications and re-read from offset 0 on each one, and also re-read every
/// ``updateInterval`` (kernfs does not wake pollers when the device goes away); anything else (procfs, a fake tree on
/// tmpfs, a file epoll refuses) is polled every ``updateInterval``. If a watched attribute stops reading (its device went away), watching
/// ends and polling takes over. ``mode`` says what is in use. The kernel cannot say
/// whether a driver ever calls `sysfs_notify` for an attribute, so use `.polling` for attributes not documented to
/// notify (most of them), `.automatic` or `.notifications` for those that are (for example `actual_brightness`,
/// RAID `sync_action`, `power/wakeup_count` on some drivers).
///
/// Readings are a `BehaviorSubject` holding the latest ``SensorReading``: the parsed value, or `unavailable` with
/// the reason when the read or the parse fails. They are published on the event-loop thread, never under a lock, and
/// only when the value changed.
public final class AttributeMonitor<Value>: Source
where Value: Sendable & Equatable & Encodable & CustomStringConvertible {
    /// A short human name.
    public let name: String
    /// The attribute's path.
    public var path: String { watch.path }
    private let watch: AttributeWatch<Value>

    /// Creates a monitor; nothing is read until it starts.
    ///
    /// - Parameters:
    ///   - name: The human name.
    ///   - path: The attribute, for example `<root>/class/leds/input3::capslock/brightness`.
    ///   - strategy: How changes are noticed (default: notifications where possible, else polling).
    ///   - updateInterval: The polling interval, and the safety-net re-read interval with notifications (default
    ///     1 s); below 1 ms (zero and negative included) it is raised to 1 ms.
    ///   - eventLoop: The loop that watches the attribute or runs the timer.
    ///   - parse: Turns the attribute's text (trailing newline removed) into a value; runs on the event-loop thread.
    public init(
        name: String, path: String, strategy: UpdateStrategy = .automatic, updateInterval: Duration = .seconds(1),
        eventLoop: EventLoop = .shared, parse: @escaping @Sendable (String) throws(SensorError) -> Value
    ) {
        self.name = name
        watch = AttributeWatch(path: path, strategy: strategy, updateInterval: updateInterval, eventLoop: eventLoop) {
            (open) throws(SensorError) in
            let text: String
            if let open { text = try open.readText() } else { text = try SysfsFile.readText(path) }
            return try parse(text)
        }
    }

    deinit { stopMonitoring() }

    /// How the running monitor learns about changes; `nil` when stopped.
    public var mode: UpdateMode? { watch.mode }
    public var readings: BehaviorSubject<SensorReading<Value>> { watch.driver.readings }
    public var isMonitoring: Bool { watch.isRunning }

    public var availability: Availability {
        .checking(path, missing: (.missingDevice, "no \(path)"))
    }

    /// Starts watching.
    ///
    /// - Throws: A ``SensorError`` when the event loop refuses a timer, or with `.notifications` when the attribute
    ///   cannot be opened or watched for `POLLPRI`.
    public func startMonitoring() throws(SensorError) { try watch.start() }
    public func stopMonitoring() { watch.stop() }

    /// Re-reads the attribute now (from offset 0 of the open file in notification mode).
    public func refresh() { watch.driver.refresh() }

    /// How often the attribute is polled, or re-read as a safety net while watched; never `nil`. With the
    /// `.notifications` strategy it is used only once the attribute stops reading and polling takes over.
    public var updateInterval: Duration? { watch.driver.interval }

    /// Changes the polling (or safety-net) interval; a running monitor reschedules its timer at once.
    ///
    /// - Throws: ``SensorError/invalidArgument(name:value:reason:)`` for an interval below 1 ms.
    public func setUpdateInterval(_ interval: Duration) throws(SensorError) { try watch.driver.setInterval(interval) }

    /// Makes every read (each poll, each notification) publish its reading, or only a changed one.
    public func setPublishesEveryRead(_ every: Bool) { watch.driver.setPublishesEveryRead(every) }
}

extension AttributeMonitor where Value == Int {
    /// A monitor of an attribute holding one integer.
    public convenience init(
        name: String, integerAt path: String, strategy: UpdateStrategy = .automatic,
        updateInterval: Duration = .seconds(1), eventLoop: EventLoop = .shared
    ) {
        self.init(name: name, path: path, strategy: strategy, updateInterval: updateInterval, eventLoop: eventLoop) {
            (text) throws(SensorError) in
            try AttributeParser.integer(text, path: path)
        }
    }
}
