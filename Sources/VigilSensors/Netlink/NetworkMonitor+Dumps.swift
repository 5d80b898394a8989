// The dump requests with their watchdogs (an unanswered request is sent again), and the timer that refreshes the
// traffic counters.
extension NetworkMonitor {
    /// Replaces the timer that refreshes the counters with one at the current interval, for `generation`'s socket;
    /// its end cancels the timer. Called outside the lock.
    func scheduleCounterRefresh(generation: UInt64) throws(SensorError) {
        guard refreshesCounters else { return }
        let interval = state.withLock { $0.updateInterval }
        let timer = try driver.loop.schedule(every: interval) { [weak self] in
            self?.refreshCounters(generation)
        }
        // A timer made for a socket generation that ended meanwhile is not kept: the new socket has its own.
        let replaced = state.withLock { state -> EventLoop.Registration? in
            guard state.generation == generation else { return timer }
            defer { state.countersTimer = timer }
            return state.countersTimer
        }
        replaced?.cancel()
        driver.addTimer(timer, generation: generation)
    }

    /// Dumps the links for their counters when someone subscribes and no dump runs; sends nothing otherwise.
    private func refreshCounters(_ generation: UInt64) {
        guard readings.subscriberCount > 0, let (socket, current) = driver.current, current == generation else {
            return
        }
        let actions = state.withLock { state -> [NetworkMonitorStateMachine.Action]? in
            guard state.generation == generation, var machine = state.machine else { return nil }
            defer { state.machine = machine }
            return machine.refreshCounters()
        }
        guard let actions, !actions.isEmpty else { return }
        do throws(SensorError) {
            try perform(actions, on: socket, generation)
        } catch {
            driver.fail(self, generation: generation, error: error)
        }
    }

    /// Sends the dump again if the request with `sequence` is still unanswered.
    private func checkDump(sequence: UInt32, _ generation: UInt64) {
        guard let (socket, current) = driver.current, current == generation else { return }
        let actions = state.withLock { state -> [NetworkMonitorStateMachine.Action]? in
            guard state.generation == generation, var machine = state.machine, machine.pendingSequence == sequence
            else { return nil }
            defer { state.machine = machine }
            return machine.restart()
        }
        guard let actions else { return }
        do throws(SensorError) {
            try perform(actions, on: socket, generation)
        } catch {
            driver.fail(self, generation: generation, error: error)
        }
    }

    /// Sends the requests the state machine asked for, each step of a full dump watched by a one-shot timer that
    /// resends the dump if no answer comes; an expired timer whose request was answered does nothing. Called outside
    /// the lock.
    func perform(
        _ actions: [NetworkMonitorStateMachine.Action], on socket: NetlinkSocket, _ generation: UInt64
    ) throws(SensorError) {
        for action in actions {
            switch action {
            case .request(let step, let sequence):
                if step == .links { counters.add(.dumps) }
                try socket.send(NetworkMonitorStateMachine.requestBytes(step, sequence: sequence))
                // A refresh of the counters needs none: the state machine gives it up after dropped messages, or
                // when the refreshes after it find it unanswered.
                guard step != .counters else { continue }
                let watchdog = try driver.loop.schedule(after: Self.dumpTimeout) { [weak self] in
                    self?.checkDump(sequence: sequence, generation)
                }
                driver.addTimer(watchdog, generation: generation)
            case .fail(let errno):
                throw SensorError.systemCall(
                    name: "rtnetlink dump", target: socket.target, errno: Errno(rawValue: errno))
            }
        }
    }
}
