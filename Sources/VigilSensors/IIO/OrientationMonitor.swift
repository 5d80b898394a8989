import Vigil

/// Screen orientation derived from an accelerometer, as iio-sensor-proxy computes it.
///
/// The monitor runs an ``AccelerometerMonitor`` and applies ``ScreenOrientation/from(acceleration:previous:)`` to
/// each reading: an orientation is taken only when the device tilts more than 35° towards it, otherwise the previous
/// one is kept (so a device lying flat keeps what it had, and starts `undefined`). Readings are a `BehaviorSubject` of
/// ``SensorReading`` values, each an orientation and the time it was decided (the time of the accelerometer reading
/// that decided it), that changes only when the orientation does; they are published on the event-loop thread, never
/// under a lock. An unavailable accelerometer reading leaves the orientation as it was; see ``accelerometer`` for the
/// reason.
public final class OrientationMonitor: Source {
    /// "Orientation".
    public let name = "Orientation"
    /// The accelerometer the orientation is derived from.
    public let accelerometer: AccelerometerMonitor
    /// The latest orientation and when it was decided; the value `undefined` until one is decided.
    public let readings: BehaviorSubject<SensorReading<ScreenOrientation>>

    private let state = FutexMutex<(orientation: ScreenOrientation, subscription: Subscription?)>((.undefined, nil))

    /// Creates a monitor that reads `accelerometer`.
    public init(accelerometer: AccelerometerMonitor) {
        self.accelerometer = accelerometer
        readings = BehaviorSubject(.value(.undefined))
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

    /// Reads the accelerometer now; the orientation changes if the reading decides a new one.
    public func refresh() { accelerometer.refresh() }

    /// Whether the accelerometer is running for this monitor.
    public var isMonitoring: Bool {
        state.withLock { $0.subscription != nil }
    }

    /// The accelerometer's availability.
    public var availability: Availability {
        accelerometer.availability
    }

    /// Starts the accelerometer and follows its readings; the orientation starts `undefined`.
    ///
    /// - Throws: The accelerometer's ``SensorError`` when it cannot start.
    public func startMonitoring() throws {
        guard !isMonitoring else { return }
        let wasDecided = state.withLock { state in
            defer { state.orientation = .undefined }
            return state.orientation != .undefined
        }
        if wasDecided { readings.publish(.value(.undefined)) }
        let subscription = accelerometer.readings.subscribe { [weak self] reading in
            guard let acceleration = reading.value?.acceleration else { return }
            self?.update(acceleration, at: reading.time)
        }
        state.withLock { $0.subscription = subscription }
        do {
            try accelerometer.startMonitoring()
        } catch {
            state.withLock { $0.subscription = nil }
            subscription.dispose()
            throw error
        }
    }

    /// Stops the accelerometer.
    public func stopMonitoring() {
        let subscription = state.withLock { state in
            defer { state.subscription = nil }
            return state.subscription
        }
        guard let subscription else { return }
        subscription.dispose()
        accelerometer.stopMonitoring()
    }

    private func update(_ acceleration: Vector3, at time: ReadingTime) {
        let changed: ScreenOrientation? = state.withLock { state in
            let next = ScreenOrientation.from(
                acceleration: (acceleration.x, acceleration.y, acceleration.z), previous: state.orientation)
            guard next != state.orientation else { return nil }
            state.orientation = next
            return next
        }
        if let changed { readings.publish(SensorReading(.value(changed), time: time)) }
    }
}
