import Vigil

/// A source whose readings are one ``PollingDriver``'s and whose runs are one ``Lifecycle``'s.
///
/// For such a source six members of ``Source`` and ``Monitor`` mean the same thing and read the same, so they are
/// written once here rather than forwarded in every source. A source that gives one of them its own meaning (a
/// refresh that first checks for a wake, a stop that also forgets its devices) declares it, and its own is used.
protocol PollingSource: Source
where Readings == BehaviorSubject<SensorReading<Value>>, Reading == SensorReading<Value> {
    associatedtype Value: Sendable & Equatable & Encodable & CustomStringConvertible

    /// Reads, holds the latest reading, and polls while a run lasts.
    var driver: PollingDriver<Value> { get }
    /// Claims and ends the runs.
    var lifecycle: Lifecycle { get }
}

extension PollingSource {
    /// The latest reading: `pending` until the first read, then each change, or `unavailable` with the reason.
    public var readings: BehaviorSubject<SensorReading<Value>> { driver.readings }

    /// Whether a run is claimed.
    public var isMonitoring: Bool { lifecycle.isRunning }

    /// Ends the run: the timer, the subscriptions and what the run opened; does nothing when stopped.
    public func stopMonitoring() { lifecycle.stop() }

    /// Reads now, on the calling thread, and publishes the reading when it changed.
    public func refresh() { driver.refresh() }

    /// How often the source reads while it runs; never `nil`.
    public var updateInterval: Duration? { driver.interval }

    /// Changes how often the source reads; a running source reschedules its timer at once.
    ///
    /// - Throws: ``SensorError/invalidArgument(name:value:reason:)`` for an interval below 1 ms.
    public func setUpdateInterval(_ interval: Duration) throws(SensorError) { try driver.setInterval(interval) }

    /// Makes every poll publish its reading, or (the default) only a reading that changed.
    public func setPublishesEveryRead(_ every: Bool) { driver.setPublishesEveryRead(every) }
}
