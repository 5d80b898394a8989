import Vigil

/// A source of a motion kind (a compass heading, an attitude): from the device's own channel when a device has it,
/// otherwise fused from an accelerometer and a magnetometer.
///
/// The start chooses how: the ``deviceSensor`` when its channel is available, else the ``accelerometer`` and the
/// ``magnetometer`` together (Android's `getRotationMatrix`, see ``FusedRotation``); each reading says which
/// (``MotionMethod``). The chosen monitors run for this monitor and stop with it; with hot-plug they follow their
/// devices, but the choice holds until the next start.
///
/// Readings are a `BehaviorSubject` of ``SensorReading`` values, `pending` until the first value, then each value
/// stamped with the reading it came from (fused: the newer of the two). A device or input that cannot be read makes
/// the reading `unavailable` with its reason (`accelerometer: …`); so do free fall and a field along gravity. Readings
/// are published on the thread of the input that decided them (the event-loop thread, or the caller of
/// ``refresh()``), never under a lock.
///
/// Use the aliases: ``CompassMonitor``, ``AttitudeMonitor``.
public final class MotionMonitor<Kind: MotionKind>: Source {
    /// The kind's name: "Compass", "Attitude".
    public let name: String
    /// The kind and its settings (the compass's declination).
    public let kind: Kind
    /// The monitor of the device's own channel.
    public let deviceSensor: IIOSensorMonitor<Kind.DeviceKind>
    /// The accelerometer fused with the magnetometer when no device has the channel.
    public let accelerometer: AccelerometerMonitor
    /// The magnetometer fused with the accelerometer when no device has the channel.
    public let magnetometer: MagnetometerMonitor
    /// The latest reading.
    public let readings: BehaviorSubject<SensorReading<Kind.Value>>

    struct State {
        /// How the current run reads; nil while stopped.
        var method: MotionMethod?
        /// The generation of the run that chose ``method``.
        var run: UInt64?
        /// When the run started: what an input's subject replays from before it is not this run's.
        var started = ReadingTime.now()
        var gravity: (value: Accelerometer.Value, time: ReadingTime)?
        var field: (value: Magnetometer.Value, time: ReadingTime)?
        /// The reason of the unavailable reading last published; nil after a value.
        var unavailableReason: String?
    }

    let state = FutexMutex(State())
    let lifecycle = Lifecycle()

    /// Creates a monitor over the given monitors; nothing is read until it starts.
    ///
    /// - Parameters:
    ///   - kind: The kind and its settings.
    ///   - deviceSensor: The monitor of the device's own channel.
    ///   - accelerometer: The accelerometer to fuse when no device has the channel.
    ///   - magnetometer: The magnetometer to fuse with it.
    public init(
        kind: Kind, deviceSensor: IIOSensorMonitor<Kind.DeviceKind>, accelerometer: AccelerometerMonitor,
        magnetometer: MagnetometerMonitor
    ) {
        name = Kind.displayName
        self.kind = kind
        self.deviceSensor = deviceSensor
        self.accelerometer = accelerometer
        self.magnetometer = magnetometer
        readings = BehaviorSubject(.pending)
    }

    /// Creates a monitor of the first fitting devices under `root`; nothing is read until it starts.
    ///
    /// - Parameters:
    ///   - kind: The kind and its settings.
    ///   - root: The sysfs root (`/sys`).
    ///   - mode: Polled (the default) or buffered, for every device read.
    ///   - updateInterval: How often polled devices are read (default 100 ms).
    ///   - changes: Device events of `iio` devices, for the monitors to follow hot-plug; `nil` for none. See
    ///     ``IIOSensorMonitor``.
    ///   - eventLoop: The loop that runs the devices' timers or watches their nodes.
    public convenience init(
        kind: Kind = Kind(), root: String = "/sys", mode: IIOMode = .polled,
        updateInterval: Duration = .milliseconds(100), changes: (any ObservableType<DeviceEvent>)? = nil,
        eventLoop: EventLoop = .shared
    ) {
        func monitor<Sensor: IIOSensorKind>(_ sensor: Sensor) -> IIOSensorMonitor<Sensor> {
            IIOSensorMonitor(
                kind: sensor, root: root, mode: mode, updateInterval: updateInterval, changes: changes,
                eventLoop: eventLoop)
        }
        self.init(
            kind: kind, deviceSensor: monitor(Kind.DeviceKind()), accelerometer: monitor(Accelerometer()),
            magnetometer: monitor(Magnetometer()))
    }

    /// Stops the monitors it runs when released while running.
    deinit { stopMonitoring() }

    /// How the current run reads: the device's channel or the fusion; nil while stopped.
    public var method: MotionMethod? {
        state.withLock { $0.method }
    }

    /// Available when a device has the kind's channel, or there are an accelerometer and a magnetometer.
    public var availability: Availability {
        let device = deviceSensor.availability
        guard !device.isAvailable else { return .available }
        let inputs = [accelerometer.availability, magnetometer.availability]
        guard !inputs.allSatisfy(\.isAvailable) else { return .available }
        var reasons: [UnavailabilityReason] = []
        var details: [String] = []
        for case .unavailable(let reason, let detail) in [device] + inputs {
            reasons.append(reason)
            if !details.contains(detail) { details.append(detail) }
        }
        let wanted = Kind.DeviceKind.channelSelection.wanted(type: Kind.DeviceKind.channelType)
        return .unavailable(
            reason: reasons.first { $0 != .missingDevice } ?? .missingDevice,
            detail: (details + ["\(name.lowercased()) needs \(wanted), or an accelerometer and a magnetometer"])
                .joined(separator: "; "))
    }

    /// Whether the monitor runs.
    public var isMonitoring: Bool { lifecycle.isRunning }

    /// The monitors that poll, of the three.
    private var polledMonitors: [any Source] {
        [deviceSensor as any Source, accelerometer, magnetometer].filter { $0.updateInterval != nil }
    }

    /// How often the polled monitors read (the first's, of the device's channel, the accelerometer and the
    /// magnetometer, which ``setUpdateInterval(_:)`` sets together); nil when all three are buffered.
    public var updateInterval: Duration? {
        polledMonitors.first?.updateInterval
    }

    /// Changes how often every polled monitor reads; running ones reschedule at once.
    ///
    /// - Throws: ``SensorError/invalidArgument(name:value:reason:)`` for an interval below 1 ms, or when every
    ///   monitor is buffered.
    public func setUpdateInterval(_ interval: Duration) throws(SensorError) {
        let polled = try requirePolled("updateInterval", "\(interval)")
        let interval = try interval.validatedUpdateInterval()
        for monitor in polled { try monitor.setUpdateInterval(interval) }
    }

    /// Makes every poll of the polled monitors publish, or (the default) only a changed reading.
    ///
    /// - Throws: ``SensorError/invalidArgument(name:value:reason:)`` when every monitor is buffered.
    public func setPublishesEveryRead(_ every: Bool) throws(SensorError) {
        for monitor in try requirePolled("publishesEveryRead", "\(every)") { try monitor.setPublishesEveryRead(every) }
    }

    private func requirePolled(_ name: String, _ value: String) throws(SensorError) -> [any Source] {
        let polled = polledMonitors
        guard !polled.isEmpty else {
            throw .invalidArgument(
                name: name, value: value,
                reason: "\(self.name) reads buffered devices: scans arrive as they produce them")
        }
        return polled
    }

    /// Starts the device's channel when a device has it, else the accelerometer and the magnetometer; concurrent
    /// calls start once.
    ///
    /// - Throws: The ``SensorError`` of a monitor that cannot start (without hot-plug, no fitting device); nothing
    ///   is left running then.
    public func startMonitoring() throws(SensorError) {
        try lifecycle.start { (generation) throws(SensorError) in
            let method: MotionMethod = deviceSensor.availability.isAvailable ? .device : .fused
            state.withLock { $0 = State(method: method, run: generation) }
            switch method {
            case .device:
                try follow(deviceSensor, generation) { monitor, reading in monitor.follow(device: reading) }
            case .fused:
                try follow(accelerometer, generation) { monitor, reading in monitor.follow(gravity: reading) }
                try follow(magnetometer, generation) { monitor, reading in monitor.follow(field: reading) }
            }
        }
    }

    /// Stops the monitors it runs.
    public func stopMonitoring() {
        guard let ended = lifecycle.stop() else { return }
        state.withLock { state in
            if state.run == ended { state.method = nil }
        }
    }

    /// Reads the device now, or the accelerometer and the magnetometer, as the run reads; a changed reading is
    /// published on the calling thread. Does nothing while stopped.
    public func refresh() {
        switch method {
        case .device: deviceSensor.refresh()
        case .fused:
            accelerometer.refresh()
            magnetometer.refresh()
        case nil: return
        }
    }
}

/// Reads the compass heading: from a device's `from_north_magnetic` channel, or fused from an accelerometer and a
/// magnetometer.
public typealias CompassMonitor = MotionMonitor<Compass>
/// Reads the device's attitude: from a device's `quaternion` channel, or fused from an accelerometer and a
/// magnetometer.
public typealias AttitudeMonitor = MotionMonitor<DeviceAttitude>
