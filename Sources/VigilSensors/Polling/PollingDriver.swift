import Vigil

/// The running part shared by the polled sources: reads on start, on a timer and on demand, and publishes changes.
///
/// `read` runs on the event-loop thread (or the caller's thread for ``refresh()``), never under the driver's lock;
/// it returns `nil` when it has nothing to report yet (a first CPU sample). A reading equal to the current one is
/// not published again, so subscribers see changes only. A failed read publishes `unavailable` and polling goes on.
final class PollingDriver<Value>: Sendable where Value: Sendable & Equatable & Encodable & CustomStringConvertible {
    private struct State {
        var running = false
        var timer: EventLoop.Registration?
        var extra: [EventLoop.Registration] = []
        var generation = 0
        var ticket = 0
        var publishedTicket = 0
        var last: SensorReading<Value> = .pending
    }

    let readings: BehaviorSubject<SensorReading<Value>>
    let interval: Duration
    private let eventLoop: EventLoop
    private let read: @Sendable () throws(SensorError) -> Value?
    private let state = Mutex(State())

    init(interval: Duration, eventLoop: EventLoop, read: @escaping @Sendable () throws(SensorError) -> Value?) {
        precondition(interval > .zero, "a polling interval must be positive")
        self.interval = interval
        self.eventLoop = eventLoop
        self.read = read
        readings = BehaviorSubject(.pending)
    }

    var isRunning: Bool { state.withLock { $0.running } }

    /// Starts (with the polling timer unless `polling` is false) and reads once at once; does nothing when running.
    func start(polling: Bool = true) throws(SensorError) {
        let generation: Int? = state.withLock { state in
            guard !state.running else { return nil }
            state.running = true
            state.generation += 1
            return state.generation
        }
        guard let generation else { return }
        if polling {
            let timer: EventLoop.Registration
            do {
                timer = try eventLoop.schedule(every: interval) { [weak self] in self?.refresh() }
            } catch {
                state.withLock { $0.running = false }
                throw error
            }
            let keep = state.withLock { state in
                guard state.generation == generation, state.running else { return false }
                state.timer = timer
                return true
            }
            if !keep { timer.cancel() }
        }
        refresh()
    }

    /// Adds a registration cancelled with the timer on ``stop()``; cancels it at once when not running.
    func own(_ registration: EventLoop.Registration) {
        let kept = state.withLock { state in
            guard state.running else { return false }
            state.extra.append(registration)
            return true
        }
        if !kept { registration.cancel() }
    }

    /// Stops the timer and every owned registration.
    func stop() {
        let registrations = state.withLock { state in
            state.generation += 1
            state.running = false
            defer {
                state.timer = nil
                state.extra = []
            }
            return (state.timer.map { [$0] } ?? []) + state.extra
        }
        for registration in registrations { registration.cancel() }
    }

    /// Reads now and publishes the result if it differs from the current reading.
    func refresh() {
        publish { (_) throws(SensorError) in try self.read() }
    }

    /// Publishes what `produce` returns from the last value (or its error), unless it equals the current reading.
    ///
    /// Decided under the lock, published after it: a result older than one already published is dropped, so two
    /// overlapping refreshes never go back in time; nothing is published once the driver is stopped.
    func publish(_ produce: (Value?) throws(SensorError) -> Value?) {
        let start: (ticket: Int, last: Value?)? = state.withLock { state in
            guard state.running else { return nil }
            state.ticket += 1
            return (state.ticket, state.last.value)
        }
        guard let start else { return }
        let next: SensorReading<Value>
        do {
            guard let value = try produce(start.last) else { return }
            next = .value(value)
        } catch {
            next = .unavailable(reason: error.description)
        }
        let changed = state.withLock { state in
            guard state.running, start.ticket > state.publishedTicket, state.last != next else { return false }
            state.publishedTicket = start.ticket
            state.last = next
            return true
        }
        if changed { readings.publish(next) }
    }
}
