import Vigil

/// A source made by a ``SourceCatalog`` entry: the built-in source behind one face, with its readings as
/// ``CatalogReading``s.
///
/// The catalog returns this one class rather than each entry's concrete type, because a list of different sources
/// has no common reading type: a dashboard that iterates ``SourceCatalog/builtIn`` would otherwise have to cast each
/// source to reach its readings. A `CatalogSource` is itself a ``Source`` whose readings are `any CatalogReading`,
/// each printable (`description`) and encodable (`Encodable`); the concrete source stays reachable as ``source``
/// for code that knows what it asked for.
///
/// Some built-in sources follow the kernel's uevents through a ``DeviceMonitor`` of their own (power, battery,
/// backlight and the IIO sensors under `/sys`). The catalog source owns those helper monitors: start starts them
/// before the source, all or none, and stop stops the source, then them.
public final class CatalogSource: Source {
    /// The catalog id this source was made from, for example `battery`.
    public let id: String
    /// The catalog entry's human name, for example "Battery (sysfs power_supply)".
    public let name: String
    /// The built-in source itself.
    public let source: any Source
    /// The source's readings as ``CatalogReading``s, on the thread that publishes them (the event-loop thread for
    /// every built-in source), never under a lock.
    ///
    /// A source that keeps its latest reading in a `BehaviorSubject` replays it to each new subscriber, as the
    /// source does; an event source (files, devices, clock) delivers only what happens after subscribing.
    public let readings: Observable<any CatalogReading>

    /// Started in order (helpers first, the source last), stopped in reverse.
    private let monitors: [any Monitor]
    private let check: @Sendable () -> Availability
    /// The source's latest reading, read through its concrete type (captured where it is known).
    private let latestReading: @Sendable () -> (any CatalogReading)?

    /// Wraps `source` and the helper monitors it depends on.
    ///
    /// - Parameters:
    ///   - id: The catalog id.
    ///   - name: The catalog entry's name.
    ///   - source: The source.
    ///   - helpers: Monitors that feed `source` (a ``DeviceMonitor`` of uevents), started before it.
    ///   - readings: What the catalog source publishes, when it is not every reading of `source`.
    ///   - availability: The entry's availability check; the source's own when nil.
    init<S: Source>(
        id: String, name: String, source: S, helpers: [any Monitor] = [], readings: Observable<S.Reading>? = nil,
        availability: (@Sendable () -> Availability)? = nil
    ) where S.Reading: CatalogReading {
        self.id = id
        self.name = name
        self.source = source
        self.readings = (readings ?? source.readings.asObservable()).map { $0 as any CatalogReading }
        monitors = helpers + [source]
        check = availability ?? { source.availability }
        latestReading = { source.latest.map { $0 as any CatalogReading } }
    }

    /// The same source, monitors and readings as `other`, with another availability check.
    init(_ other: CatalogSource, availability: @escaping @Sendable () -> Availability) {
        id = other.id
        name = other.name
        source = other.source
        readings = other.readings
        monitors = other.monitors
        check = availability
        latestReading = other.latestReading
    }

    /// The monitors that feed ``source`` (a ``DeviceMonitor`` of uevents), started before it; empty for most.
    package var helpers: [any Monitor] { Array(monitors.dropLast()) }

    /// Whether this source can run here, checked without starting it; the same answer as its catalog entry's
    /// ``SourceCatalog/Entry/availability(_:)``.
    public var availability: Availability { check() }

    /// Whether the source or one of its helper monitors is running.
    public var isMonitoring: Bool { monitors.contains { $0.isMonitoring } }

    /// Starts the helper monitors, then the source; all or none.
    ///
    /// - Throws: The ``SensorError`` of the first monitor that cannot start; those already started are stopped
    ///   again.
    public func startMonitoring() throws(SensorError) {
        try monitors.startMonitoring()
    }

    /// Stops the source, then its helper monitors.
    public func stopMonitoring() {
        monitors.reversed().stopMonitoring()
    }

    /// The source's latest reading (see ``Source/latest``).
    public var latest: (any CatalogReading)? { latestReading() }

    /// Reads the source now (see ``Source/refresh()``).
    public func refresh() { source.refresh() }

    /// The source's update interval; `nil` for a source driven by kernel events.
    public var updateInterval: Duration? { source.updateInterval }

    /// Changes the source's update interval (see ``Source/setUpdateInterval(_:)``).
    ///
    /// - Throws: ``SensorError/invalidArgument(name:value:reason:)`` for an interval below 1 ms or a source that
    ///   does not poll.
    public func setUpdateInterval(_ interval: Duration) throws(SensorError) {
        try source.setUpdateInterval(interval)
    }

    /// Makes a polled source publish every read, not only changes (see ``Source/setPublishesEveryRead(_:)``).
    ///
    /// - Throws: ``SensorError/invalidArgument(name:value:reason:)`` for a source that does not poll.
    public func setPublishesEveryRead(_ every: Bool) throws(SensorError) {
        try source.setPublishesEveryRead(every)
    }
}
