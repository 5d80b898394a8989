import Vigil

/// Following the monitors of a run, and deciding each reading from theirs: under the lock, published after it.
extension MotionMonitor {
    /// Subscribes `handle` to the readings of `input` for `generation`'s run, then starts `input`; both end with the
    /// run. A reading `input`'s subject replays from before the run started is not this run's and is skipped.
    func follow<Sensor: IIOSensorKind>(
        _ input: IIOSensorMonitor<Sensor>, _ generation: UInt64,
        _ handle: @escaping @Sendable (MotionMonitor, SensorReading<Sensor.Value>) -> Void
    ) throws(SensorError) {
        let started = state.withLock { $0.started }
        let subscription = input.readings.subscribe { [weak self] reading in
            guard let self, reading.time >= started, lifecycle.isCurrent(generation) else { return }
            handle(self, reading)
        }
        lifecycle.keep(generation) { subscription.dispose() }
        try input.startMonitoring()
        lifecycle.keep(generation) { [input] in input.stopMonitoring() }
    }

    /// Turns a reading of the device's own channel into one of this kind.
    func follow(device reading: SensorReading<Kind.DeviceKind.Value>) {
        switch reading.status {
        case .pending: return
        case .value(let value):
            publish(state.withLock { $0.available(.value(kind.value(from: value)), at: reading.time) })
        case .unavailable(let reason):
            publish(state.withLock { $0.unavailable("\(deviceSensor.name.lowercased()): \(reason)", at: reading.time) })
        }
    }

    /// Keeps an accelerometer reading and fuses it with the latest field.
    func follow(gravity reading: SensorReading<Accelerometer.Value>) {
        follow(reading, input: \.gravity, label: "accelerometer")
    }

    /// Keeps a magnetometer reading and fuses it with the latest gravity.
    func follow(field reading: SensorReading<Magnetometer.Value>) {
        follow(reading, input: \.field, label: "magnetometer")
    }

    /// Keeps `reading` as `input`'s latest, and fuses when both inputs have a value, or says why `label` has none.
    private func follow<Value>(
        _ reading: SensorReading<Value>, input: WritableKeyPath<State, (value: Value, time: ReadingTime)?>,
        label: String
    ) {
        let decided = state.withLock { state -> SensorReading<Kind.Value>? in
            switch reading.status {
            case .pending:
                return nil
            case .unavailable(let reason):
                state[keyPath: input] = nil
                return state.unavailable("\(label): \(reason)", at: reading.time)
            case .value(let value):
                state[keyPath: input] = (value, reading.time)
                guard let gravity = state.gravity, let field = state.field else { return nil }
                let time = max(gravity.time, field.time)
                do throws(GravityFieldProblem) {
                    let rotation = try GravityFieldFusion.rotation(
                        acceleration: gravity.value.acceleration, field: field.value.microtesla)
                    let fused = FusedRotation(
                        rotation: rotation, fieldStrength: field.value.microtesla.magnitude,
                        timestamp: max(gravity.value.timestamp, field.value.timestamp))
                    return state.available(.value(kind.value(from: fused)), at: time)
                } catch {
                    return state.unavailable(error.description, at: time)
                }
            }
        }
        publish(decided)
    }

    private func publish(_ reading: SensorReading<Kind.Value>?) {
        if let reading { readings.publish(reading) }
    }
}

extension MotionMonitor.State {
    /// A value to publish; the next unavailable reading is news again.
    mutating func available(
        _ status: SensorReading<Kind.Value>.Status, at time: ReadingTime
    ) -> SensorReading<Kind.Value> {
        unavailableReason = nil
        return SensorReading(status, time: time)
    }

    /// Why there is no value, to publish unless it was the last thing said.
    mutating func unavailable(_ reason: String, at time: ReadingTime) -> SensorReading<Kind.Value>? {
        guard unavailableReason != reason else { return nil }
        unavailableReason = reason
        return SensorReading(.unavailable(reason: reason), time: time)
    }
}
