import Vigil

/// Screen orientation derived from an accelerometer, as iio-sensor-proxy computes it.
///
/// The monitor runs an ``AccelerometerMonitor`` and applies ``ScreenOrientation/from(acceleration:previous:)`` to
/// each reading: an orientation is taken only when the device tilts more than 35° towards it, otherwise the previous
/// one is kept (so a device lying flat keeps what it had, and starts `undefined`). Readings are a `BehaviorSubject`
/// that changes only when the orientation does; they are published on the event-loop thread, never under a lock. An
/// unavailable accelerometer reading leaves the orientation as it was; see ``accelerometer`` for the reason.
public final class OrientationMonitor: Source {
    /// "Orientation".
    public let name = "Orientation"
    /// The accelerometer the orientation is derived from.
    public let accelerometer: AccelerometerMonitor
    /// The latest orientation; `undefined` until one is decided.
    public let readings: BehaviorSubject<ScreenOrientation>

    private let state = Mutex<(orientation: ScreenOrientation, subscription: Subscription?)>((.undefined, nil))

    /// Creates a monitor that reads `accelerometer`.
    public init(accelerometer: AccelerometerMonitor) {
        self.accelerometer = accelerometer
        readings = BehaviorSubject(.undefined)
    }

    /// Creates a monitor that reads the first accelerometer under `root`.
    ///
    /// - Parameters:
    ///   - root: The sysfs root (`/sys`).
    ///   - deviceID: The device to read, or nil for the first accelerometer.
    ///   - mode: Polled (the default, 10 Hz) or buffered.
    ///   - changes: Device events of `iio` devices, for the accelerometer to follow hot-plug; `nil` for none. See
    ///     ``IIOSensorMonitor``.
    public convenience init(
        root: String = "/sys", deviceID: String? = nil, mode: IIOMode = .polled(),
        changes: (any ObservableType<DeviceEvent>)? = nil
    ) {
        self.init(accelerometer: AccelerometerMonitor(root: root, deviceID: deviceID, mode: mode, changes: changes))
    }

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
        if wasDecided { readings.publish(.undefined) }
        let subscription = accelerometer.readings.subscribe { [weak self] reading in
            guard let acceleration = reading.value?.acceleration else { return }
            self?.update(acceleration)
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

    private func update(_ acceleration: Vector3) {
        let changed: ScreenOrientation? = state.withLock { state in
            let next = ScreenOrientation.from(
                acceleration: (acceleration.x, acceleration.y, acceleration.z), previous: state.orientation)
            guard next != state.orientation else { return nil }
            state.orientation = next
            return next
        }
        if let changed { readings.publish(changed) }
    }
}
