import Vigil

/// A source that reads one kind of IIO sensor, polled or buffered, and publishes its readings in SI units.
///
/// The monitor finds its device when it starts: the one with the given id, or the first device under
/// `<root>/bus/iio/devices` that has the kind's channels. Readings are a `BehaviorSubject` that holds the latest
/// ``SensorReading``: `pending` until the first sample, then each value, or `unavailable` with the reason when a sample
/// cannot be read (the monitor keeps polling; in buffered mode a failed device node stops the monitor and the buffer
/// is disabled). Polled readings are published when a value changes; buffered ones for every scan. Readings are
/// published on the event-loop thread, never under a lock.
///
/// Hot-plug: given the `iio` uevents of a ``DeviceMonitor`` as `changes`, the monitor follows devices as they come
/// and go instead of reading only the one present at start:
///
/// ```swift
/// let devices = DeviceMonitor(subsystems: ["iio"])
/// let accelerometer = AccelerometerMonitor(changes: devices.readings)
/// try ([devices, accelerometer] as [any Monitor]).startMonitoring()
/// ```
///
/// Use the aliases: ``AccelerometerMonitor``, ``GyroscopeMonitor``, ``MagnetometerMonitor``,
/// ``AmbientLightMonitor``, ``ProximityMonitor``, ``BarometerMonitor``.
public final class IIOSensorMonitor<Kind: IIOSensorKind>: Source {
    struct State {
        var kind: Kind
        /// How often a polled sampler reads.
        var updateInterval: Duration
        /// Counts attachments to a device, so events of a replaced sampler are dropped.
        var attachments = 0
        var sampler: (any IIOSampler)?
        var samplerAttachment: Int?
        /// The run (the lifecycle's generation) that attached the sampler; its stop releases it.
        var samplerRun: UInt64?
        var device: IIODevice?
        /// The values of the last published polled sample, to publish only changes.
        var lastPolledValues: [Double]?
        /// Whether a polled sample equal to the last is published too.
        var publishesEveryRead = false
        /// The reason of the last published sample error, so an error that repeats at the poll rate is published
        /// once; nil after a sample.
        var lastErrorReason: String?
        /// Why the monitor has no device, as last published, to publish a reason once rather than per uevent.
        var waitingReason: String?
    }

    /// A short human name, for example "Accelerometer".
    public let name: String
    /// The sysfs root, `/sys` unless testing.
    public let root: String
    /// The device to read (`iio:device0`), or nil for the first device that fits.
    public let deviceID: String?
    /// How the device is read.
    public let mode: IIOMode
    /// The latest reading.
    public let readings: BehaviorSubject<SensorReading<Kind.Value>>

    let eventLoop: EventLoop
    let changes: (any ObservableType<DeviceEvent>)?
    let state: FutexMutex<State>
    /// Claims a start once, and keeps the hot-plug subscription of the run. With hot-plug the monitor also runs
    /// without a device, waiting for one.
    let lifecycle = Lifecycle()

    /// Creates a monitor; nothing is read until it starts.
    ///
    /// - Parameters:
    ///   - kind: The sensor kind and its settings.
    ///   - root: The sysfs root (`/sys`); the device node is `/dev/iio:deviceN`, or `<root>/dev/iio:deviceN` under
    ///     another root.
    ///   - deviceID: The device to read, or nil for the first device with the kind's channels.
    ///   - mode: Polled (the default) or buffered.
    ///   - updateInterval: How often a polled monitor reads (default 100 ms); below 1 ms (zero and negative
    ///     included) it is raised to 1 ms. Not used in buffered mode, where scans arrive as the device produces them.
    ///   - changes: Device events of `iio` devices (``DeviceMonitor/readings`` of a
    ///     `DeviceMonitor(subsystems: ["iio"])`) for hot-plug; `nil` to read only the device found at start.
    ///   - eventLoop: The loop that runs the timer or watches the device node.
    public init(
        kind: Kind, root: String = "/sys", deviceID: String? = nil, mode: IIOMode = .polled,
        updateInterval: Duration = .milliseconds(100), changes: (any ObservableType<DeviceEvent>)? = nil,
        eventLoop: EventLoop = .shared
    ) {
        self.name = Kind.displayName
        self.root = root
        self.deviceID = deviceID
        self.mode = mode
        self.changes = changes
        self.eventLoop = eventLoop
        readings = BehaviorSubject(.pending)
        state = FutexMutex(State(kind: kind, updateInterval: updateInterval.clampedUpdateInterval))
    }

    /// Creates a monitor of the kind with its default settings; nothing is read until it starts.
    ///
    /// - Parameters:
    ///   - root: The sysfs root (`/sys`).
    ///   - deviceID: The device to read, or nil for the first device with the kind's channels.
    ///   - mode: Polled (the default) or buffered.
    ///   - updateInterval: How often a polled monitor reads (default 100 ms).
    ///   - changes: Device events of `iio` devices for hot-plug, or `nil`; see
    ///     ``init(kind:root:deviceID:mode:updateInterval:changes:eventLoop:)``.
    ///   - eventLoop: The loop that runs the timer or watches the device node.
    public convenience init(
        root: String = "/sys", deviceID: String? = nil, mode: IIOMode = .polled,
        updateInterval: Duration = .milliseconds(100), changes: (any ObservableType<DeviceEvent>)? = nil,
        eventLoop: EventLoop = .shared
    ) {
        self.init(
            kind: Kind(), root: root, deviceID: deviceID, mode: mode, updateInterval: updateInterval,
            changes: changes, eventLoop: eventLoop)
    }

    deinit { stopMonitoring() }

    /// How often a polled monitor reads; `nil` in buffered mode, where scans arrive as the device produces them.
    public var updateInterval: Duration? {
        guard case .polled = mode else { return nil }
        return state.withLock { $0.updateInterval }
    }

    /// Changes how often a polled monitor reads; a running one reschedules its timer at once (the device's
    /// `sampling_frequency` stays as set at the start).
    ///
    /// - Throws: ``SensorError/invalidArgument(name:value:reason:)`` for an interval below 1 ms, or in buffered mode.
    public func setUpdateInterval(_ interval: Duration) throws(SensorError) {
        guard case .polled = mode else {
            throw .invalidArgument(
                name: "updateInterval", value: "\(interval)",
                reason: "\(name) is buffered: scans arrive as the device produces them; set the rate in the mode")
        }
        let interval = try interval.validatedUpdateInterval()
        let sampler = state.withLock { state in
            state.updateInterval = interval
            return state.sampler as? IIOPolledSampler
        }
        try sampler?.setInterval(interval)
    }

    /// Makes every poll publish its reading, or (the default) only a changed one.
    ///
    /// - Throws: ``SensorError/invalidArgument(name:value:reason:)`` in buffered mode, where every scan is published.
    public func setPublishesEveryRead(_ every: Bool) throws(SensorError) {
        guard case .polled = mode else {
            throw .invalidArgument(
                name: "publishesEveryRead", value: "\(every)",
                reason: "\(name) is buffered: every scan the device produces is published")
        }
        state.withLock { $0.publishesEveryRead = every }
    }

    /// Reads the device now in polled mode (on the calling thread); does nothing in buffered mode, where scans
    /// arrive as the device produces them, or while no device is attached.
    public func refresh() {
        let sampler = state.withLock { $0.sampler as? IIOPolledSampler }
        sampler?.refresh()
    }

    /// Whether the monitor is running: reading a device, or, with hot-plug, waiting for one.
    public var isMonitoring: Bool { lifecycle.isRunning }

    /// The device the monitor reads while it runs; nil while it waits for one.
    public var device: IIODevice? {
        state.withLock { $0.device }
    }

    /// Whether this machine has a device with the kind's channels (and a buffer, in buffered mode).
    public var availability: Availability {
        do throws(SensorError) {
            _ = try findDevice()
            return .available
        } catch {
            switch error {
            case .permissionDenied: return .unavailable(reason: .permissionDenied, detail: error.description)
            case .unavailable(_, let reason): return .unavailable(reason: .missingDevice, detail: reason)
            default: return .unavailable(reason: .missingDevice, detail: error.description)
            }
        }
    }

    /// Finds the device, configures it and starts reading.
    ///
    /// With hot-plug (`changes`), a missing device is no error: the reading says `unavailable` and the monitor reads
    /// the first fitting device that is added. When the device it reads is removed (or, in buffered mode, its node
    /// fails), the reading turns `unavailable` and the monitor moves to another fitting device or waits for one.
    /// A new device starts afresh (the barometer's relative altitude, the proximity state).
    ///
    /// - Throws: ``SensorError`` when there is no fitting device (without hot-plug), an attribute cannot be read (a
    ///   zero scale, a malformed mount matrix or scan type), or the device cannot be configured for buffered mode.
    public func startMonitoring() throws(SensorError) {
        try lifecycle.start { run throws(SensorError) in
            state.withLock { $0.waitingReason = nil }
            if let changes {
                let subscription = changes.subscribe { [weak self] event in
                    self?.handle(hotplug: event, run: run)
                }
                lifecycle.keep(run) { subscription.dispose() }
            }
            let device: IIODevice
            do throws(SensorError) {
                device = try findDevice()
            } catch {
                guard changes != nil, case .unavailable = error else { throw error }
                reportWaiting(error.description, run: run)
                return
            }
            try attach(device, run: run)
        }
    }

    /// Stops reading; in buffered mode the buffer is disabled and the device restored (scan elements, trigger).
    public func stopMonitoring() {
        guard let run = lifecycle.stop() else { return }
        releaseSampler(of: run)
    }

    /// Stops the sampler `run` attached, if it still reads; outside the lock, since stopping cancels an event-loop
    /// registration, which waits for a handler that may itself be waiting for the lock.
    func releaseSampler(of run: UInt64) {
        let sampler = state.withLock { state -> (any IIOSampler)? in
            guard state.samplerRun == run else { return nil }
            defer {
                state.sampler = nil
                state.samplerAttachment = nil
                state.samplerRun = nil
                state.device = nil
            }
            return state.sampler
        }
        sampler?.stop()
    }

    /// The device to read: the one with ``deviceID`` or the first that fits.
    ///
    /// - Parameter removed: A device whose remove uevent just arrived; the kernel sends it before the sysfs
    ///   directory goes, so the device may still be listed.
    func findDevice(excluding removed: String? = nil) throws(SensorError) -> IIODevice {
        let bus = IIODevice.busDirectory(root: root)
        let devices = try IIODevice.discover(root: root).filter { $0.id != removed }
        if devices.isEmpty {
            throw SensorError.unavailable(source: name, reason: "no IIO device (nothing under \(bus))")
        }
        let candidates = devices.filter { deviceID == nil || $0.id == deviceID }
        if let deviceID, candidates.isEmpty {
            throw SensorError.unavailable(source: name, reason: "no \(deviceID) under \(bus)")
        }
        let fitting = candidates.filter {
            IIOChannelSet.fits(type: Kind.channelType, selection: Kind.channelSelection, device: $0)
        }
        guard let device = fitting.first else {
            let selection = Kind.channelSelection
            let reason =
                deviceID.map { "\($0) under \(bus) has \(selection.lacking(type: Kind.channelType))" }
                ?? "none of the \(devices.count) IIO devices under \(bus) has "
                + selection.wanted(type: Kind.channelType)
            throw SensorError.unavailable(source: name, reason: reason)
        }
        if case .buffered = mode, !device.hasBuffer {
            throw SensorError.unavailable(source: name, reason: "\(device.id) (\(device.name)) has no buffer")
        }
        return device
    }
}

/// Reads an accelerometer: acceleration in m/s² (mount matrix applied).
public typealias AccelerometerMonitor = IIOSensorMonitor<Accelerometer>
/// Reads a gyroscope: rotation rate in rad/s (mount matrix applied).
public typealias GyroscopeMonitor = IIOSensorMonitor<Gyroscope>
/// Reads a magnetometer: the field in Gauss and µT (mount matrix applied).
public typealias MagnetometerMonitor = IIOSensorMonitor<Magnetometer>
/// Reads an ambient light sensor: illuminance in lux.
public typealias AmbientLightMonitor = IIOSensorMonitor<AmbientLight>
/// Reads a proximity sensor: the level and near or far.
public typealias ProximityMonitor = IIOSensorMonitor<ProximitySensor>
/// Reads a barometer: pressure in kPa, altitude and relative altitude.
public typealias BarometerMonitor = IIOSensorMonitor<Barometer>
