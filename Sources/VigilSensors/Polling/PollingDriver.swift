import Vigil

/// The running part shared by the polled sources: reads on start, on a timer and on demand, and publishes changes.
///
/// `read` runs on the event-loop thread (or the caller's thread for ``refresh()``), never under the driver's lock;
/// it returns `nil` when it has nothing to report yet (a first CPU sample). A reading is stamped when its read
/// returns; one whose status equals the current one is not published again, so subscribers see changes only (unless
/// every read is asked for). A failed read publishes `unavailable` and polling goes on.
final class PollingDriver<Value>: Sendable where Value: Sendable & Equatable & Encodable & CustomStringConvertible {
    private struct State {
        var running = false
        var interval: Duration
        /// Runs on each tick of this run's timer; nil when the run has no timer.
        var tick: (@Sendable () -> Void)?
        var timer: EventLoop.Registration?
        /// The one-shot timer of a first read made on the loop; nil once it ran or when reading at once.
        var firstRead: EventLoop.Registration?
        var generation = 0
        /// Counts timer installations, so of two overlapping reschedules only the later keeps its timer.
        var timerTicket = 0
        var ticket = 0
        var publishedTicket = 0
        var last: SensorReading<Value> = .pending
        /// Whether a reading equal to the last is published too (``setPublishesEveryRead(_:)``).
        var publishesEveryRead = false
    }

    let readings: BehaviorSubject<SensorReading<Value>>
    private let eventLoop: EventLoop
    private let read: @Sendable () throws(SensorError) -> Value?
    private let state: FutexMutex<State>

    /// - Parameter interval: The update interval; below 1 ms (zero and negative included) it is raised to 1 ms.
    init(interval: Duration, eventLoop: EventLoop, read: @escaping @Sendable () throws(SensorError) -> Value?) {
        self.eventLoop = eventLoop
        self.read = read
        state = FutexMutex(State(interval: interval.clampedUpdateInterval))
        readings = BehaviorSubject(.pending)
    }

    var isRunning: Bool { state.withLock { $0.running } }

    /// The update interval.
    var interval: Duration { state.withLock { $0.interval } }

    /// Starts (with the polling timer unless `polling` is false) and reads once; does nothing when running.
    ///
    /// - Parameters:
    ///   - tick: What the timer runs; ``refresh()`` when nil.
    ///   - firstRead: Where the first read happens.
    func start(
        polling: Bool = true, tick: (@Sendable () -> Void)? = nil, firstRead: FirstReadPlacement = .atOnce
    ) throws(SensorError) {
        let generation: Int? = state.withLock { state in
            guard !state.running else { return nil }
            state.running = true
            state.generation += 1
            state.tick = nil
            return state.generation
        }
        guard let generation else { return }
        if polling {
            do {
                try startTimer(tick: tick)
            } catch {
                state.withLock { state in
                    guard state.generation == generation else { return }
                    state.running = false
                    state.tick = nil
                }
                throw error
            }
        }
        if firstRead == .onLoop, scheduleFirstRead(generation) { return }
        refresh()
    }

    /// Schedules this run's first read on the loop; false when the loop cannot (then the caller reads at once).
    private func scheduleFirstRead(_ generation: Int) -> Bool {
        guard let timer = try? eventLoop.schedule(after: .zero, handler: { [weak self] in self?.refresh() })
        else { return false }
        let kept = state.withLock { state in
            guard state.generation == generation, state.running else { return false }
            state.firstRead = timer
            return true
        }
        if !kept { timer.cancel() }
        return true
    }

    /// Installs the polling timer of this run, running `tick` (``refresh()`` when nil) every interval; does nothing
    /// when stopped or when the run has a timer already. For a source that starts polling later (a watched attribute
    /// that went away).
    func startTimer(tick: (@Sendable () -> Void)? = nil) throws(SensorError) {
        let tick: @Sendable () -> Void = tick ?? { [weak self] in self?.refresh() }
        let installing = state.withLock { state -> Bool in
            guard state.running, state.tick == nil else { return false }
            state.tick = tick
            return true
        }
        guard installing else { return }
        try reschedule()
    }

    /// Changes the update interval; a running timer is replaced at once by one at the new interval.
    ///
    /// - Throws: ``SensorError/invalidArgument(name:value:reason:)`` below 1 ms; a ``SensorError`` when the loop
    ///   refuses the new timer (the reading then says so, and the old timer is gone).
    func setInterval(_ interval: Duration) throws(SensorError) {
        let interval = try interval.validatedUpdateInterval()
        state.withLock { $0.interval = interval }
        do {
            try reschedule()
        } catch {
            publish { (_) throws(SensorError) in throw error }
            throw error
        }
    }

    /// Makes every read publish its reading, or only a changed one.
    func setPublishesEveryRead(_ every: Bool) {
        state.withLock { $0.publishesEveryRead = every }
    }

    /// Cancels this run's timer and schedules a new one at the current interval, outside the lock.
    ///
    /// The old registration is taken out under the lock and cancelled after it; the new one is kept only if the run
    /// and the reschedule are still current when it is made, so a stop or a later reschedule meanwhile wins.
    private func reschedule() throws(SensorError) {
        let decided = state.withLock { state -> (Int, Int, Duration, @Sendable () -> Void, EventLoop.Registration?)? in
            guard state.running, let tick = state.tick else { return nil }
            state.timerTicket += 1
            defer { state.timer = nil }
            return (state.generation, state.timerTicket, state.interval, tick, state.timer)
        }
        guard let (generation, ticket, interval, tick, old) = decided else { return }
        old?.cancel()
        let timer = try eventLoop.schedule(every: interval, handler: tick)
        let keep = state.withLock { state in
            guard state.generation == generation, state.running, state.timerTicket == ticket else { return false }
            state.timer = timer
            return true
        }
        if !keep { timer.cancel() }
    }

    /// Stops the timer (and a first read not made yet).
    func stop() {
        let timers = state.withLock { state in
            state.generation += 1
            state.running = false
            defer {
                state.tick = nil
                state.timer = nil
                state.firstRead = nil
            }
            return [state.timer, state.firstRead]
        }
        for timer in timers { timer?.cancel() }
    }

    /// Reads now and publishes the result if it differs from the current reading.
    func refresh() {
        publish { (_) throws(SensorError) in try self.read() }
    }

    /// Publishes what `produce` returns from the last value (or its error), unless its status equals the current one.
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
            guard state.running, start.ticket > state.publishedTicket,
                state.publishesEveryRead || state.last.status != next.status
            else { return false }
            state.publishedTicket = start.ticket
            state.last = next
            return true
        }
        if changed { readings.publish(next) }
    }
}
