import Vigil

/// A source that re-reads a sysfs or procfs reading at a fixed interval: the monitors of values the kernel does not
/// notify.
///
/// Use the aliases: ``ThermalMonitor``, ``HwmonMonitor``, ``CPUUsageMonitor``, ``MemoryUsageMonitor``,
/// ``StorageMonitor``; each documents its default interval and units. Start reads once on the starting thread
/// (sysfs and procfs answer at once; ``StorageMonitor`` starts at once and makes that read on the event-loop thread,
/// as a `statvfs` of a dead network mount can block), then once every ``Source/updateInterval`` (changeable while
/// running with ``Source/setUpdateInterval(_:)``). Readings are a `BehaviorSubject` holding the latest
/// ``SensorReading``: `pending` until the first read, then each value that differs from the previous one, or
/// `unavailable` with the reason when a read fails (polling goes on, so a value returns once the cause goes away).
/// Readings are published on the event-loop thread, never under a lock; ``Source/refresh()`` reads on the calling
/// thread. An idle monitor costs one timer wake-up per interval, nothing in between, and no descriptor: its timer is a
/// deadline on the event loop's clock (so a test's `EventLoop(clock:)` with a manual clock drives it).
public final class PolledMonitor<Value>: PollingSource
where Value: Sendable & Equatable & Encodable & CustomStringConvertible {
    /// A short human name, for example "Thermal zones".
    public let name: String
    let driver: PollingDriver<Value>
    private let check: @Sendable () -> Availability

    /// Creates a monitor from a read function; nothing is read until it starts.
    ///
    /// - Parameters:
    ///   - name: The human name.
    ///   - updateInterval: How often `read` runs; below 1 ms (zero and negative included) it is raised to 1 ms.
    ///   - eventLoop: The loop that runs the timer.
    ///   - availability: Says whether the source can run here, without starting it.
    ///   - read: Reads one value on the event-loop thread; `nil` when there is nothing to report yet.
    public convenience init(
        name: String, updateInterval: Duration, eventLoop: EventLoop = .shared,
        availability: @escaping @Sendable () -> Availability,
        read: @escaping @Sendable () throws(SensorError) -> Value?
    ) {
        self.init(
            name: name, updateInterval: updateInterval, eventLoop: eventLoop, availability: availability, onStart: nil,
            read: read)
    }

    /// The designated initializer (package: tests make monitors that read first on the loop); `onStart` runs on the
    /// starting thread before the first read of each run, which happens where `firstRead` says.
    package init(
        name: String, updateInterval: Duration, eventLoop: EventLoop,
        availability: @escaping @Sendable () -> Availability,
        onStart: (@Sendable () -> Void)?, firstRead: FirstReadPlacement = .atOnce,
        read: @escaping @Sendable () throws(SensorError) -> Value?
    ) {
        self.name = name
        self.check = availability
        self.onStart = onStart
        self.firstRead = firstRead
        driver = PollingDriver(interval: updateInterval, eventLoop: eventLoop, read: read)
    }

    private let onStart: (@Sendable () -> Void)?
    private let firstRead: FirstReadPlacement
    let lifecycle = Lifecycle()

    deinit { stopMonitoring() }

    public var availability: Availability { check() }

    /// Starts polling and reads once; concurrent calls start once.
    ///
    /// - Throws: ``SensorError`` when the event loop cannot run the polling timer.
    public func startMonitoring() throws(SensorError) {
        try lifecycle.start { (generation) throws(SensorError) in
            onStart?()
            try driver.start(firstRead: firstRead)
            lifecycle.keep(generation) { [driver] in driver.stop() }
        }
    }

}
