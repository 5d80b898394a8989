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
        var attribute: OpenAttribute?
        var registration: EventLoop.Registration?
        var mode: UpdateMode?
    }

    let driver: PollingDriver<Value>
    let path: String
    let strategy: UpdateStrategy
    private let eventLoop: EventLoop
    private let state = FutexMutex(State())

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
    var isRunning: Bool { driver.isRunning }

    func start() throws(SensorError) {
        guard !driver.isRunning else { return }
        let watched = try watch()
        holder.value = watched?.attribute
        state.withLock { state in
            state.attribute = watched?.attribute
            state.registration = watched?.registration
            state.mode = watched == nil ? .polling : .notifications
        }
        do {
            if watched == nil {
                try driver.start()
            } else if strategy == .notifications {
                try driver.start(polling: false)
            } else {
                try driver.start(tick: { [weak self] in self?.notified() })
            }
        } catch {
            stop()
            throw error
        }
    }

    func stop() {
        let (registration, attribute) = state.withLock { state in
            defer {
                state.registration = nil
                state.attribute = nil
                state.mode = nil
            }
            return (state.registration, state.attribute)
        }
        driver.stop()
        registration?.cancel()
        holder.value = nil
        attribute?.close()
    }

    /// A `POLLPRI` wake-up or a safety-net tick: re-read; if the read fails, stop watching and poll instead.
    ///
    /// kernfs does not wake pollers when an attribute's device goes away, so with `.automatic` a timer at the poll
    /// interval also runs this: it catches a vanished device (and drivers that change a value without notifying).
    /// Once the open attribute fails, the registration is cancelled (a removed node would otherwise report
    /// `POLLERR | POLLPRI` on every wake-up of a level-triggered epoll) and the path is polled from then on.
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
        try? driver.startTimer(tick: { [weak self] in self?.notified() })
    }

    /// Opens and registers the attribute for `POLLPRI` when the strategy allows; `nil` means poll.
    private func watch() throws(SensorError) -> (attribute: OpenAttribute, registration: EventLoop.Registration)? {
        if strategy == .polling { return nil }
        let required = strategy == .notifications
        guard required || OpenAttribute.isOnSysfs(path) else { return nil }
        let attribute: OpenAttribute
        do {
            attribute = try OpenAttribute(path: path)
        } catch {
            if required { throw error }
            return nil
        }
        do {
            let registration = try eventLoop.register(fileDescriptor: attribute.rawValue, interest: .priority) {
                [weak self] _ in self?.notified()
            }
            return (attribute, registration)
        } catch {
            attribute.close()
            if required {
                throw SensorError.unsupported(interface: "POLLPRI on \(path)", reason: error.description)
            }
            return nil
        }
    }
}
