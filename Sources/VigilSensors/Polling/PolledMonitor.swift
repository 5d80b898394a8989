import Vigil

/// A source that re-reads a sysfs or procfs reading at a fixed interval: the monitors of values the kernel does not
/// notify.
///
/// Use the aliases: ``ThermalMonitor``, ``HwmonMonitor``, ``CPUUsageMonitor``, ``MemoryUsageMonitor``,
/// ``StorageMonitor``; each documents its default interval and units. On start it reads once, then every
/// ``interval``. Readings are a `BehaviorSubject` holding the latest ``SensorReading``: `pending` before the first
/// value, then each value that differs from the previous one, or `unavailable` with the reason when a read fails
/// (polling goes on, so a value returns once the cause goes away). Readings are published on the event-loop thread,
/// never under a lock. An idle monitor costs one timer wake-up per interval, nothing in between.
public final class PolledMonitor<Value>: Source
where Value: Sendable & Equatable & Encodable & CustomStringConvertible {
    /// A short human name, for example "Thermal zones".
    public let name: String
    private let driver: PollingDriver<Value>
    private let check: @Sendable () -> Availability

    /// Creates a monitor from a read function; nothing is read until it starts.
    ///
    /// - Parameters:
    ///   - name: The human name.
    ///   - interval: How often `read` runs.
    ///   - eventLoop: The loop that runs the timer.
    ///   - availability: Says whether the source can run here, without starting it.
    ///   - read: Reads one value on the event-loop thread; `nil` when there is nothing to report yet.
    public convenience init(
        name: String, interval: Duration, eventLoop: EventLoop = .shared,
        availability: @escaping @Sendable () -> Availability,
        read: @escaping @Sendable () throws(SensorError) -> Value?
    ) {
        self.init(
            name: name, interval: interval, eventLoop: eventLoop, availability: availability, onStart: nil, read: read)
    }

    /// The designated initializer; `onStart` runs on the starting thread before the first read of each run.
    init(
        name: String, interval: Duration, eventLoop: EventLoop, availability: @escaping @Sendable () -> Availability,
        onStart: (@Sendable () -> Void)?, read: @escaping @Sendable () throws(SensorError) -> Value?
    ) {
        self.name = name
        self.check = availability
        self.onStart = onStart
        driver = PollingDriver(interval: interval, eventLoop: eventLoop, read: read)
    }

    private let onStart: (@Sendable () -> Void)?

    deinit { driver.stop() }

    /// How often the value is read.
    public var interval: Duration { driver.interval }
    /// The latest reading.
    public var readings: BehaviorSubject<SensorReading<Value>> { driver.readings }
    public var isMonitoring: Bool { driver.isRunning }
    public var availability: Availability { check() }

    public func startMonitoring() throws {
        guard !driver.isRunning else { return }
        onStart?()
        try driver.start()
    }
    public func stopMonitoring() { driver.stop() }

    /// Reads now instead of waiting for the next tick (does nothing when stopped).
    public func refresh() { driver.refresh() }
}
