import Vigil

/// Screen orientation derived from an accelerometer, as iio-sensor-proxy computes it.
///
/// The monitor runs an ``AccelerometerMonitor`` and applies ``ScreenOrientation/from(acceleration:previous:)`` to
/// each reading: an orientation is taken only when the device tilts more than 35° towards it, otherwise the previous
/// one is kept (so a device lying flat keeps what it had, and starts `undefined`). Readings are a `BehaviorSubject` of
/// ``SensorReading`` values, `pending` until the first acceleration of a run decides an orientation, then each an
/// orientation and the time it was decided (the time of the accelerometer reading that decided it), that changes only
/// when the orientation does; they are published on the event-loop thread, never
/// under a lock. An unavailable accelerometer reading makes the orientation `unavailable` with the accelerometer's
/// reason (stamped with that reading's time), so a consumer learns why no orientation comes; the next acceleration
/// decides the orientation again.
public final class OrientationMonitor: Source {
    /// "Orientation".
    public let name = "Orientation"
    /// The accelerometer the orientation is derived from.
    public let accelerometer: AccelerometerMonitor
    /// The latest orientation and when it was decided; `pending` until the first acceleration is read.
    public let readings: BehaviorSubject<SensorReading<ScreenOrientation>>

    private struct State {
        var orientation = ScreenOrientation.undefined
        /// The reason of the unavailable reading last published; nil while an orientation is published.
        var unavailableReason: String?
        /// Whether this run published an orientation yet: its first acceleration decides one, `undefined` included.
        var decided = false
    }

    private let state = FutexMutex(State())
    private let lifecycle = Lifecycle()

    /// Creates a monitor that reads `accelerometer`.
    public init(accelerometer: AccelerometerMonitor) {
        self.accelerometer = accelerometer
        readings = BehaviorSubject(.pending)
    }

    /// Creates a monitor that reads the first accelerometer under `root`.
    ///
    /// - Parameters:
    ///   - root: The sysfs root (`/sys`).
    ///   - deviceID: The device to read, or nil for the first accelerometer.
    ///   - mode: Polled (the default) or buffered.
    ///   - updateInterval: How often a polled accelerometer reads (default 100 ms).
    ///   - changes: Device events of `iio` devices, for the accelerometer to follow hot-plug; `nil` for none. See
    ///     ``IIOSensorMonitor``.
    ///   - eventLoop: The loop that runs the accelerometer's timer or watches its device node.
    public convenience init(
        root: String = "/sys", deviceID: String? = nil, mode: IIOMode = .polled,
        updateInterval: Duration = .milliseconds(100), changes: (any ObservableType<DeviceEvent>)? = nil,
        eventLoop: EventLoop = .shared
    ) {
        self.init(
            accelerometer: AccelerometerMonitor(
                root: root, deviceID: deviceID, mode: mode, updateInterval: updateInterval, changes: changes,
                eventLoop: eventLoop))
    }

    /// Stops following the accelerometer (and stops it) when released while running.
    deinit { stopMonitoring() }

    /// The accelerometer's update interval; `nil` when it is buffered.
    public var updateInterval: Duration? { accelerometer.updateInterval }

    /// Changes the accelerometer's update interval; see ``IIOSensorMonitor/setUpdateInterval(_:)``.
    ///
    /// - Throws: ``SensorError/invalidArgument(name:value:reason:)`` for an interval below 1 ms, or when the
    ///   accelerometer is buffered.
    public func setUpdateInterval(_ interval: Duration) throws(SensorError) {
        try accelerometer.setUpdateInterval(interval)
    }

    /// Throws: an orientation is published when it changes, however often the accelerometer is read.
    ///
    /// - Throws: ``SensorError/invalidArgument(name:value:reason:)`` always.
    public func setPublishesEveryRead(_ every: Bool) throws(SensorError) {
        throw .invalidArgument(
            name: "publishesEveryRead", value: "\(every)", reason: "\(name) publishes changes of orientation only")
    }

    /// Reads the accelerometer now; the orientation changes if the reading decides a new one.
    public func refresh() { accelerometer.refresh() }

    /// Whether the accelerometer is running for this monitor.
    public var isMonitoring: Bool { lifecycle.isRunning }

    /// The accelerometer's availability.
    public var availability: Availability {
        accelerometer.availability
    }

    /// Starts the accelerometer and follows its readings; the run's first acceleration decides the orientation
    /// (`undefined` for a device lying flat). Concurrent calls start once.
    ///
    /// - Throws: The accelerometer's ``SensorError`` when it cannot start.
    public func startMonitoring() throws(SensorError) {
        try lifecycle.start { (generation) throws(SensorError) in
            state.withLock { $0 = State() }
            let subscription = accelerometer.readings.subscribe { [weak self] reading in
                self?.follow(reading, generation)
            }
            lifecycle.keep(generation) { subscription.dispose() }
            try accelerometer.startMonitoring()
            lifecycle.keep(generation) { [accelerometer] in accelerometer.stopMonitoring() }
        }
    }

    /// Stops following the accelerometer, and stops it.
    public func stopMonitoring() { lifecycle.stop() }

    /// Turns one accelerometer reading of `generation`'s run into an orientation, or into why there is none.
    private func follow(_ reading: SensorReading<Accelerometer.Value>, _ generation: UInt64) {
        guard lifecycle.isCurrent(generation) else { return }
        switch reading.status {
        case .pending:
            return
        case .value(let value):
            update(value.acceleration, at: reading.time)
        case .unavailable(let reason):
            let changed = state.withLock { state in
                guard state.unavailableReason != reason else { return false }
                state.unavailableReason = reason
                return true
            }
            if changed {
                readings.publish(SensorReading(.unavailable(reason: "accelerometer: \(reason)"), time: reading.time))
            }
        }
    }

    private func update(_ acceleration: Vector3, at time: ReadingTime) {
        let changed: ScreenOrientation? = state.withLock { state in
            let next = ScreenOrientation.from(
                acceleration: (acceleration.x, acceleration.y, acceleration.z), previous: state.orientation)
            guard next != state.orientation || state.unavailableReason != nil || !state.decided else { return nil }
            state.orientation = next
            state.unavailableReason = nil
            state.decided = true
            return next
        }
        if let changed { readings.publish(SensorReading(.value(changed), time: time)) }
    }
}
