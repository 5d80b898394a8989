// The dump requests with their watchdogs: an unanswered request is sent again.
extension NetworkMonitor {
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
