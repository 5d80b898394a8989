import Vigil

/// How an ``AttributeMonitor`` (or ``BacklightMonitor``) learns that an attribute changed.
public enum UpdateStrategy: Sendable, Equatable {
    /// `POLLPRI` notifications when the attribute is on sysfs and the event loop accepts it, otherwise polling at
    /// `pollInterval`. sysfs cannot tell whether a driver ever calls `sysfs_notify` for an attribute, so choose
    /// ``polling(_:)`` for attributes not documented to notify.
    case automatic(pollInterval: Duration)
    /// `POLLPRI` notifications only; starting fails if the attribute cannot be watched.
    case notifications
    /// Re-reading every interval.
    case polling(Duration)
}

/// How a running attribute source learns about changes, chosen when it starts.
public enum UpdateMode: Sendable, Equatable, Encodable, CustomStringConvertible {
    /// The kernel notifies with `POLLPRI`; the attribute is re-read from offset 0 on each notification.
    case notifications
    /// The attribute is re-read every interval.
    case polling(Duration)

    public var description: String {
        switch self {
        case .notifications: return "notifications (POLLPRI)"
        case .polling(let interval): return "polling every \(interval)"
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
    private let state = Mutex(State())

    /// - Parameter read: Reads the value; given the open attribute in notification mode (to re-read it from
    ///   offset 0), `nil` when polling.
    init(
        path: String, strategy: UpdateStrategy, eventLoop: EventLoop,
        read: @escaping @Sendable (OpenAttribute?) throws(SensorError) -> Value?
    ) {
        self.path = path
        self.strategy = strategy
        self.eventLoop = eventLoop
        let interval: Duration
        switch strategy {
        case .automatic(let pollInterval): interval = pollInterval
        case .polling(let pollInterval): interval = pollInterval
        case .notifications: interval = .seconds(3600)
        }
        let holder = SharedValue<OpenAttribute?>(nil)
        driver = PollingDriver(interval: interval, eventLoop: eventLoop) { () throws(SensorError) in
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
            state.mode = watched == nil ? .polling(driver.interval) : .notifications
        }
        do {
            try driver.start(polling: watched == nil)
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

    /// Opens and registers the attribute for `POLLPRI` when the strategy allows; `nil` means poll.
    private func watch() throws(SensorError) -> (attribute: OpenAttribute, registration: EventLoop.Registration)? {
        if case .polling = strategy { return nil }
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
                [weak self] _ in self?.driver.refresh()
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
