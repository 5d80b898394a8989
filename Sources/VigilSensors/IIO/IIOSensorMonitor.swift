import Vigil

/// A source that reads one kind of IIO sensor, polled or buffered, and publishes its readings in SI units.
///
/// The monitor finds its device when it starts: the one with the given id, or the first device under
/// `<root>/bus/iio/devices` that has the kind's channels. Readings are a `BehaviorSubject` that holds the latest
/// ``IIOReading``: `pending` until the first sample, then each value, or `unavailable` with the reason when a sample
/// cannot be read (the monitor keeps polling; in buffered mode a failed device node stops the monitor and the buffer
/// is disabled). Polled readings are published when a value changes; buffered ones for every scan. Readings are
/// published on the event-loop thread, never under a lock.
///
/// Use the aliases: ``AccelerometerMonitor``, ``GyroscopeMonitor``, ``MagnetometerMonitor``,
/// ``AmbientLightMonitor``, ``ProximityMonitor``, ``PressureMonitor``.
public final class IIOSensorMonitor<Kind: IIOSensorKind>: Source {
    private struct State {
        var kind: Kind
        var sampler: (any IIOSampler)?
        var device: IIODevice?
        var generation = 0
        /// The values of the last published polled sample, to publish only changes.
        var lastPolledValues: [Double]?
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
    public let readings: BehaviorSubject<IIOReading<Kind.Value>>

    private let eventLoop: EventLoop
    private let state: Mutex<State>

    /// Creates a monitor; nothing is read until it starts.
    ///
    /// - Parameters:
    ///   - kind: The sensor kind and its settings.
    ///   - root: The sysfs root (`/sys`); the device node is `/dev/iio:deviceN`, or `<root>/dev/iio:deviceN` under
    ///     another root.
    ///   - deviceID: The device to read, or nil for the first device with the kind's channels.
    ///   - mode: Polled (the default, 10 Hz) or buffered.
    ///   - eventLoop: The loop that runs the timer or watches the device node.
    public init(
        kind: Kind, root: String = "/sys", deviceID: String? = nil, mode: IIOMode = .polled(),
        eventLoop: EventLoop = .shared
    ) {
        self.name = Kind.displayName
        self.root = root
        self.deviceID = deviceID
        self.mode = mode
        self.eventLoop = eventLoop
        readings = BehaviorSubject(.pending)
        state = Mutex(State(kind: kind))
    }

    /// Creates a monitor of the kind with its default settings; nothing is read until it starts.
    ///
    /// - Parameters:
    ///   - root: The sysfs root (`/sys`).
    ///   - deviceID: The device to read, or nil for the first device with the kind's channels.
    ///   - mode: Polled (the default, 10 Hz) or buffered.
    public convenience init(root: String = "/sys", deviceID: String? = nil, mode: IIOMode = .polled()) {
        self.init(kind: Kind(), root: root, deviceID: deviceID, mode: mode)
    }

    deinit {
        state.withLock { $0.sampler }?.stop()
    }

    /// Whether the monitor is running.
    public var isMonitoring: Bool {
        state.withLock { $0.sampler != nil }
    }

    /// The device the monitor reads while it runs.
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
    /// - Throws: ``SensorError`` when there is no fitting device, an attribute cannot be read (a zero scale, a
    ///   malformed mount matrix or scan type), or the device cannot be configured for buffered mode.
    public func startMonitoring() throws {
        try start()
    }

    /// Stops reading; in buffered mode the buffer is disabled and the scan elements restored.
    public func stopMonitoring() {
        let sampler = state.withLock { state in
            defer {
                state.sampler = nil
                state.device = nil
            }
            return state.sampler
        }
        sampler?.stop()
    }

    private func start() throws(SensorError) {
        guard !isMonitoring else { return }
        let device = try findDevice()
        let channels = try IIOChannelSet(type: Kind.channelType, isVector: Kind.isVector, device: device)
        var kind = state.withLock { $0.kind }
        try kind.prepare(device: device)
        let generation = state.withLock { state in
            state.lastPolledValues = nil
            state.generation += 1
            return state.generation
        }
        let handler: @Sendable (IIOSamplerEvent) -> Void = { [weak self] event in
            self?.handle(event, generation: generation)
        }
        let sampler: any IIOSampler
        switch mode {
        case .polled(let rate):
            sampler = IIOPolledSampler(channels: channels, rate: rate, eventLoop: eventLoop, handler: handler)
        case .buffered(let rate, let length):
            sampler = IIOBufferedSampler(
                channels: channels, rate: rate, length: length, eventLoop: eventLoop, handler: handler)
        }
        let installed = state.withLock { state in
            guard state.sampler == nil, state.generation == generation else { return false }
            state.kind = kind
            state.sampler = sampler
            state.device = device
            return true
        }
        guard installed else { return }
        do throws(SensorError) {
            try sampler.start()
        } catch {
            state.withLock { state in
                if state.sampler === sampler {
                    state.sampler = nil
                    state.device = nil
                }
            }
            throw error
        }
        // A stop that ran while the sampler was starting found nothing to stop yet: undo the start here.
        if state.withLock({ $0.sampler !== sampler }) { sampler.stop() }
    }

    private func handle(_ event: IIOSamplerEvent, generation: Int) {
        let reading: IIOReading<Kind.Value>? = state.withLock { state in
            guard state.generation == generation, state.sampler != nil else { return nil }
            switch event {
            case .sample(let sample):
                if case .polled = mode {
                    if state.lastPolledValues == sample.values { return nil }
                    state.lastPolledValues = sample.values
                }
                return .value(state.kind.value(from: sample))
            case .error(let error):
                state.lastPolledValues = nil
                return .unavailable(reason: error.description)
            case .failed(let error):
                state.lastPolledValues = nil
                state.sampler = nil
                state.device = nil
                return .unavailable(reason: error.description)
            }
        }
        if let reading { readings.publish(reading) }
    }

    private func findDevice() throws(SensorError) -> IIODevice {
        let bus = IIODevice.busDirectory(root: root)
        let devices = try IIODevice.discover(root: root)
        if devices.isEmpty {
            throw SensorError.unavailable(source: name, reason: "no IIO device (nothing under \(bus))")
        }
        let candidates = devices.filter { deviceID == nil || $0.id == deviceID }
        let fitting = candidates.filter {
            IIOChannelSet.fits(type: Kind.channelType, isVector: Kind.isVector, device: $0)
        }
        guard let device = fitting.first else {
            let wanted = Kind.isVector ? "in_\(Kind.channelType)_x, _y and _z" : "an in_\(Kind.channelType) channel"
            let which = deviceID.map { "\($0) under \(bus)" } ?? "any of the \(devices.count) IIO devices"
            throw SensorError.unavailable(source: name, reason: "\(which) has no \(wanted)")
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
public typealias PressureMonitor = IIOSensorMonitor<Barometer>
