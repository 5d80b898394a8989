import Vigil

/// A ``Monitor`` with a human name, an availability check and readings to subscribe to: the contract every built-in
/// source keeps, and every custom one should.
///
/// `Reading` is the primary associated type, so a dashboard holds `[any Source<SensorReading<CPUUsage>>]`, or
/// `[any Source]` of mixed kinds, and reads ``name``, ``availability`` and ``latest``, calls ``refresh()`` and
/// ``setUpdateInterval(_:)``, all without casts.
///
/// Readings are a `BehaviorSubject` of ``SensorReading`` values when the latest reading is a state worth caching (a
/// battery level, the network path) and a `PublishSubject` of ``SensorEvent`` values when they are events (a file
/// changed, a device was added, the clock was set).
///
/// A conforming type guarantees:
///
/// - **One error shape, in-band.** A source never fails or completes its subject. What goes wrong after the start is
///   published, never swallowed: a state source publishes an `unavailable` ``SensorReading`` with a reason a user can
///   act on (the file or device and what is wrong with it); an event source publishes ``SensorEvent/Kind/overflow``
///   when events were lost and ``SensorEvent/Kind/unavailable(reason:)`` when it cannot read (or stopped reading);
///   a source built on another (orientation on an accelerometer) passes the other's reason on. The source recovers
///   by itself when it can. Only ``Monitor/startMonitoring()`` throws, when the source cannot run here at all, and
///   then it publishes nothing.
/// - **One lifecycle.** Concurrent starts start once; a start that throws leaves nothing behind; the source's
///   `deinit` stops a running source.
/// - **One hot-plug input.** A source that follows devices as they come and go takes `changes:` an observable of
///   ``DeviceEvent`` (a ``DeviceMonitor``'s ``DeviceMonitor/readings``), and rescans on its overflow or unavailable
///   events.
/// - **Timestamps.** Every reading carries the time it was taken (``ReadingTime``: monotonic and wall clock).
/// - **The latest reading.** ``latest`` is the most recent reading without subscribing: the subject's value for a
///   state source (free for any source whose `Readings` is a `BehaviorSubject<Reading>`), the last event published
///   for an event source (`nil` before the first).
/// - **A prompt start.** ``Monitor/startMonitoring()`` returns within about 100 ms whatever the machine does; slower
///   work (a dump, a walk, a settle) happens on the event loop, and a state source's readings start `pending`.
/// - **A prompt stop.** Once ``Monitor/stopMonitoring()`` returns, nothing more is published until the next start.
/// - **Release stops.** A source whose last reference goes away while it runs stops, cancels its event-loop
///   registrations and closes its descriptors.
/// - **Refresh.** ``refresh()`` reads now instead of waiting for the next tick or notification; a source that only
///   relays kernel events has no state to re-read, and its `refresh()` does nothing.
/// - **One update interval.** ``updateInterval`` is how often a polled source reads (`nil` for an event-driven one),
///   and ``setUpdateInterval(_:)`` changes it while running, validated.
/// - **One spelling.** Constructors name their shared parameters alike: `eventLoop:` for the loop that runs the
///   source, `root:` for the sysfs or procfs root (`/sys`, `/proc`, or a fake tree in tests), `updateInterval:` for the
///   polling interval.
/// - **No lock across I/O.** A source decides under its lock and acts after it: no system call, read or callback runs
///   while the lock is held, and readings are published never under a lock.
///
/// The easiest custom source is a ``PolledMonitor`` with a read closure; see the README.
public protocol Source<Reading>: Monitor {
    /// The type of one reading.
    associatedtype Reading: Sendable
    /// The subject or observable that carries the readings.
    associatedtype Readings: ObservableType<Reading>

    /// A short human name, for example "Battery" or "Network".
    var name: String { get }

    /// Whether this source can run on this machine, checked without starting it.
    var availability: Availability { get }

    /// The readings; subscribe before or after starting.
    var readings: Readings { get }

    /// The most recent reading, without subscribing: the current state of a state source, the last event of an event
    /// source (`nil` before the first).
    var latest: Reading? { get }

    /// Reads now instead of waiting for the next tick or notification; does nothing when stopped.
    ///
    /// A changed reading is published as usual (on the calling thread). A source that only relays kernel events
    /// (files, devices, clock changes) has no state to re-read and does nothing.
    func refresh()

    /// How often the source reads while it runs; `nil` for a source driven by kernel events that does not poll.
    var updateInterval: Duration? { get }

    /// Changes how often the source reads; a running source reschedules its timer at once.
    ///
    /// - Parameter interval: The new interval, at least 1 ms.
    /// - Throws: ``SensorError/invalidArgument(name:value:reason:)`` for an interval below 1 ms (zero and negative
    ///   included), or for a source that does not poll.
    func setUpdateInterval(_ interval: Duration) throws(SensorError)

    /// Makes a polled source publish the reading of every poll, or (the default) only one that differs from the
    /// reading before it; as `vmstat 1` prints a line each second whether or not anything changed.
    ///
    /// - Parameter every: Whether every read is published.
    /// - Throws: ``SensorError/invalidArgument(name:value:reason:)`` for a source that does not poll.
    func setPublishesEveryRead(_ every: Bool) throws(SensorError)
}

extension Source where Readings == BehaviorSubject<Reading> {
    /// The subject's current value.
    public var latest: Reading? { readings.value }
}

extension Source {
    /// `nil`: the source is driven by kernel events and does not poll.
    public var updateInterval: Duration? { nil }

    /// Throws: the source is driven by kernel events and has no interval to change.
    ///
    /// - Throws: ``SensorError/invalidArgument(name:value:reason:)`` always.
    public func setUpdateInterval(_ interval: Duration) throws(SensorError) {
        throw .invalidArgument(
            name: "updateInterval", value: "\(interval)",
            reason: "\(name) is driven by kernel events and does not poll")
    }

    /// Throws: the source is driven by kernel events, and each of its readings is a change.
    ///
    /// - Throws: ``SensorError/invalidArgument(name:value:reason:)`` always.
    public func setPublishesEveryRead(_ every: Bool) throws(SensorError) {
        throw .invalidArgument(
            name: "publishesEveryRead", value: "\(every)",
            reason: "\(name) is driven by kernel events and does not poll")
    }
}

/// The shortest interval of a polled source or a repeating event-loop timer.
///
/// The one rule for a shorter interval (zero and negative included), never a trap: a call that can throw refuses it
/// with ``SensorError/invalidArgument(name:value:reason:)`` (``Source/setUpdateInterval(_:)``,
/// ``EventLoop/schedule(every:handler:)``); a constructor, which cannot throw, raises it to 1 ms, and the source's
/// ``Source/updateInterval`` says so.
let minimumUpdateInterval = Duration.milliseconds(1)

extension Duration {
    /// Checks an interval for ``Source/setUpdateInterval(_:)`` or a repeating timer.
    ///
    /// - Parameter name: The parameter named in the error.
    func validatedUpdateInterval(name: String = "updateInterval") throws(SensorError) -> Duration {
        guard self >= minimumUpdateInterval else {
            throw .invalidArgument(name: name, value: "\(self)", reason: "an update interval must be at least 1 ms")
        }
        return self
    }

    /// An update interval given to a constructor: below 1 ms (zero and negative included) it is raised to 1 ms, so no
    /// value traps.
    var clampedUpdateInterval: Duration { Swift.max(self, minimumUpdateInterval) }
}

extension Sequence where Element == any Source {
    /// Starts every source, or none: if one fails, those already started are stopped again and the error is thrown.
    ///
    /// - Throws: The ``SensorError`` of the first source that cannot start.
    public func startMonitoring() throws(SensorError) {
        let monitors: [any Monitor] = map { $0 }
        try monitors.startMonitoring()
    }

    /// Stops every source.
    public func stopMonitoring() {
        for source in self { source.stopMonitoring() }
    }
}
