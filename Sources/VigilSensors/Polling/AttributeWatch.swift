import Vigil

/// How an ``AttributeMonitor`` (or ``BacklightMonitor``) learns that an attribute changed; the interval is the
/// monitor's ``Source/updateInterval``.
public enum UpdateStrategy: Sendable, Equatable {
    /// `POLLPRI` notifications when the attribute is on sysfs and the event loop accepts it (with a re-read every
    /// update interval as a safety net), otherwise polling at the update interval. sysfs cannot tell whether a driver
    /// ever calls `sysfs_notify` for an attribute, so choose ``polling`` for attributes not documented to notify.
    case automatic
    /// `POLLPRI` notifications only; starting fails if the attribute cannot be watched. A device that goes away is
    /// noticed only at the next notification; from then on the path is polled at the update interval.
    case notifications
    /// Re-reading every update interval.
    case polling
}

/// How a running attribute source learns about changes, chosen when it starts.
public enum UpdateMode: Sendable, Equatable, Encodable, CustomStringConvertible {
    /// The kernel notifies with `POLLPRI`; the attribute is re-read from offset 0 on each notification.
    case notifications
    /// The attribute is re-read every update interval.
    case polling

    public var description: String {
        switch self {
        case .notifications: return "notifications (POLLPRI)"
        case .polling: return "polling"
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// Watches one attribute with `POLLPRI` or polling, feeding a ``PollingDriver`` that reads and publishes.
final class AttributeWatch<Value>: Sendable where Value: Sendable & Equatable & Encodable & CustomStringConvertible {
    private struct State {
        /// The run the registration and mode belong to.
        var generation: UInt64 = 0
        /// The running watch's registration, for ``notified()`` to cancel once the attribute fails.
        var registration: EventLoop.Registration?
        var mode: UpdateMode?
    }

    let driver: PollingDriver<Value>
    let path: String
    let strategy: UpdateStrategy
    private let eventLoop: EventLoop
    private let state = FutexMutex(State())
    private let lifecycle = Lifecycle()

    /// - Parameter read: Reads the value; given the open attribute in notification mode (to re-read it from
    ///   offset 0), `nil` when polling.
    ///   With `.notifications`, `updateInterval` is used only once the attribute stops reading and polling takes over.
    init(
        path: String, strategy: UpdateStrategy, updateInterval: Duration, eventLoop: EventLoop,
        read: @escaping @Sendable (OpenAttribute?) throws(SensorError) -> Value?
    ) {
        self.path = path
        self.strategy = strategy
        self.eventLoop = eventLoop
        let holder = SharedValue<OpenAttribute?>(nil)
        driver = PollingDriver(interval: updateInterval, eventLoop: eventLoop) { () throws(SensorError) in
            try read(holder.value)
        }
        self.holder = holder
    }

    private let holder: SharedValue<OpenAttribute?>

    var mode: UpdateMode? { state.withLock { $0.mode } }
    var isRunning: Bool { lifecycle.isRunning }

    /// Watches (or polls) and reads once; concurrent calls start once.
    func start() throws(SensorError) {
        try lifecycle.start { (generation) throws(SensorError) in
            state.withLock { state in
                state = State(generation: generation)
            }
            lifecycle.keep(generation) { [weak self] in self?.forget(generation) }
            let watched = try watch(generation)
            state.withLock { state in
                if state.generation == generation { state.mode = watched ? .notifications : .polling }
            }
            if !watched {
                try driver.start()
            } else if strategy == .notifications {
                try driver.start(polling: false)
            } else {
                try driver.start(tick: { [weak self] in self?.notified() })
            }
            lifecycle.keep(generation) { [driver] in driver.stop() }
        }
    }

    /// Stops polling, unregisters the attribute and closes it.
    func stop() { lifecycle.stop() }

    /// Forgets the registration and mode of `generation`'s run, which ended (unless a later run set them).
    private func forget(_ generation: UInt64) {
        state.withLock { state in
            if state.generation == generation { state = State(generation: generation) }
        }
    }

    /// A `POLLPRI` wake-up or a safety-net tick: re-read; if the read fails, stop watching and poll instead.
    ///
    /// kernfs does not wake pollers when an attribute's device goes away, so with `.automatic` a timer at the poll
    /// interval also runs this: it catches a vanished device (and drivers that change a value without notifying).
    /// Once the open attribute fails, the registration is cancelled (a removed node would otherwise report
    /// `POLLERR | POLLPRI` on every wake-up of a level-triggered epoll) and the path is polled from then on; if the
    /// loop refuses that timer, the reading says so.
    private func notified() {
        driver.refresh()
        guard case .unavailable = driver.readings.value.status else { return }
        let registration: EventLoop.Registration? = state.withLock { state in
            guard state.registration != nil else { return nil }
            defer {
                state.registration = nil
                state.mode = .polling
            }
            return state.registration
        }
        guard let registration else { return }
        registration.cancel()
        holder.value = nil
        guard strategy == .notifications else { return }  // .automatic already has its timer
        do {
            try driver.startTimer(tick: { [weak self] in self?.notified() })
        } catch {
            driver.publish { (_) throws(SensorError) in throw error }
        }
    }

    /// Opens and registers the attribute for `POLLPRI` for `generation`'s run when the strategy allows (the run then
    /// owns it); false means poll.
    private func watch(_ generation: UInt64) throws(SensorError) -> Bool {
        if strategy == .polling { return false }
        let required = strategy == .notifications
        guard required || OpenAttribute.isOnSysfs(path) else { return false }
        let attribute: OpenAttribute
        do {
            attribute = try OpenAttribute(path: path)
        } catch {
            if required { throw error }
            return false
        }
        let registration: EventLoop.Registration
        do {
            registration = try eventLoop.register(fileDescriptor: attribute.rawValue, interest: .priority) {
                [weak self] _ in self?.notified()
            }
        } catch {
            attribute.close()
            if required {
                throw SensorError.unsupported(interface: "POLLPRI on \(path)", reason: error.description)
            }
            return false
        }
        holder.value = attribute
        state.withLock { state in
            if state.generation == generation { state.registration = registration }
        }
        let holder = holder
        lifecycle.keep(generation) {
            registration.cancel()
            holder.value = nil
            attribute.close()
        }
        return true
    }
}
