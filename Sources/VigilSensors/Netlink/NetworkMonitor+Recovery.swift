// The dump requests with their watchdogs, and recovery from a failed socket: reopen after a delay that doubles.
extension NetworkMonitor {
    /// Sends the dump again if the request with `sequence` is still unanswered.
    private func checkDump(sequence: UInt32, _ generation: UInt64) {
        let decided = state.withLock { state -> (NetlinkSocket, [NetworkMonitorStateMachine.Action])? in
            guard state.generation == generation, let socket = state.socket, var machine = state.machine,
                machine.pendingSequence == sequence
            else { return nil }
            defer { state.machine = machine }
            return (socket, machine.restart())
        }
        guard let (socket, actions) = decided else { return }
        do throws(SensorError) {
            try perform(actions, on: socket, generation)
        } catch {
            handleFailure(generation, error)
        }
    }

    /// Closes the failed socket, publishes the error in-band, and reopens after a delay that doubles each time.
    func handleFailure(_ generation: UInt64, _ error: SensorError) {
        let decided = state.withLock { state -> (EventLoop.Registration?, [EventLoop.Registration], NetlinkSocket?)? in
            guard state.isRunning, state.generation == generation else { return nil }
            state.generation &+= 1
            defer {
                state.registration = nil
                state.timers = []
                state.socket = nil
                state.machine = nil
                state.lastPublished = nil
            }
            return (state.registration, state.timers, state.socket)
        }
        guard let (registration, timers, socket) = decided else { return }
        registration?.cancel()
        for timer in timers { timer.cancel() }
        socket?.close()
        scheduleReopen(generation &+ 1, after: error)
    }

    /// Publishes `error` as an unavailable path and schedules a reopen for `generation`.
    private func scheduleReopen(_ generation: UInt64, after error: SensorError) {
        let delay = state.withLock { state -> Duration? in
            guard state.isRunning, state.generation == generation else { return nil }
            return state.backoff.take()
        }
        guard let delay else { return }
        readings.publish(.unavailable(reason: "\(error); trying again in \(delay)"))
        do throws(SensorError) {
            try addTimer(generation, loop.schedule(after: delay) { [weak self] in self?.reopen(generation) })
        } catch {
            // The loop cannot make timers (it was shut down): the path stays unavailable with the original error.
        }
    }

    private func reopen(_ generation: UInt64) {
        do throws(SensorError) {
            try open(generation)
        } catch {
            scheduleReopen(generation, after: error)
        }
    }

    /// Keeps `timer` to cancel on stop, or cancels it now if `generation` is over.
    func addTimer(_ generation: UInt64, _ timer: EventLoop.Registration) {
        let kept = state.withLock { state in
            guard state.generation == generation else { return false }
            // Fired one-shot timers are unregistered already; keep only those still pending.
            state.timers.removeAll { $0.isCancelled }
            state.timers.append(timer)
            return true
        }
        if !kept { timer.cancel() }
    }

    /// Sends the requests the state machine asked for, each watched by a one-shot timer that resends the dump if no
    /// answer comes; an expired timer whose request was answered does nothing. Called outside the lock.
    func perform(
        _ actions: [NetworkMonitorStateMachine.Action], on socket: NetlinkSocket, _ generation: UInt64
    ) throws(SensorError) {
        for action in actions {
            switch action {
            case .request(let step, let sequence):
                if step == .links { counters.add(.dumps) }
                try socket.send(NetworkMonitorStateMachine.requestBytes(step, sequence: sequence))
                let watchdog = try loop.schedule(after: Self.dumpTimeout) { [weak self] in
                    self?.checkDump(sequence: sequence, generation)
                }
                addTimer(generation, watchdog)
            case .fail(let errno):
                throw SensorError.systemCall(
                    name: "rtnetlink dump", target: socket.target, errno: Errno(rawValue: errno))
            }
        }
    }
}
