import Vigil

/// Attaching to a device, its samples, and hot-plug: the device coming, going and failing.
///
/// Nothing here holds the state lock while it starts or stops a sampler or publishes: stopping cancels an event-loop
/// registration, which waits for a handler that may itself be waiting for the lock.
extension IIOSensorMonitor {
    /// Configures a sampler for `device` and starts it, unless the run ended or another attachment won meanwhile.
    func attach(_ device: IIODevice, run: UInt64) throws(SensorError) {
        let channels = try IIOChannelSet(type: Kind.channelType, selection: Kind.channelSelection, device: device)
        var kind = state.withLock { $0.kind }
        try kind.prepare(device: device)
        let attachment = state.withLock { state in
            state.attachments += 1
            return state.attachments
        }
        let handler: @Sendable (IIOSamplerEvent) -> Void = { [weak self] event in
            self?.handle(event, attachment: attachment, run: run)
        }
        let sampler: any IIOSampler
        switch mode {
        case .polled:
            sampler = IIOPolledSampler(
                channels: channels, interval: state.withLock { $0.updateInterval }, eventLoop: eventLoop,
                handler: handler)
        case .buffered(let rate, let length):
            sampler = IIOBufferedSampler(
                channels: channels, rate: rate, length: length, eventLoop: eventLoop, handler: handler)
        }
        let installed = state.withLock { state in
            guard lifecycle.isCurrent(run), state.sampler == nil else { return false }
            state.kind = kind
            state.sampler = sampler
            state.samplerAttachment = attachment
            state.samplerRun = run
            state.device = device
            state.lastPolledValues = nil
            state.lastErrorReason = nil
            state.waitingReason = nil
            return true
        }
        guard installed else { return }
        do throws(SensorError) {
            try sampler.start()
        } catch {
            state.withLock { state in
                guard state.sampler === sampler else { return }
                state.sampler = nil
                state.samplerAttachment = nil
                state.samplerRun = nil
                state.device = nil
            }
            throw error
        }
        // A stop or removal that ran while the sampler was starting found nothing to stop yet: undo the start here.
        if state.withLock({ $0.sampler !== sampler }) { sampler.stop() }
    }

    /// Publishes what a sampler reports, if it is still the current one.
    private func handle(_ event: IIOSamplerEvent, attachment: Int, run: UInt64) {
        var endsRun = false
        let reading: SensorReading<Kind.Value>? = state.withLock { state in
            guard state.samplerAttachment == attachment, state.sampler != nil else { return nil }
            /// Only changes are published: the same failure at every poll is said once.
            func unavailable(_ reason: String) -> SensorReading<Kind.Value>? {
                guard state.lastErrorReason != reason else { return nil }
                state.lastErrorReason = reason
                state.lastPolledValues = nil
                return .unavailable(reason: reason)
            }
            switch event {
            case .sample(let sample):
                if let problem = IIOSampleCheck.problem(with: sample, kind: Kind.self) {
                    return unavailable("\(state.device.map { "\($0.id) (\($0.name))" } ?? name): \(problem)")
                }
                if case .polled = mode, !state.publishesEveryRead {
                    if state.lastPolledValues == sample.values { return nil }
                    state.lastPolledValues = sample.values
                }
                state.lastErrorReason = nil
                return .value(state.kind.value(from: sample))
            case .error(let error):
                return unavailable(error.description)
            case .failed(let error):
                state.lastErrorReason = nil
                // The sampler has already restored the device. Without hot-plug the run ends; with it the monitor
                // waits for the device to be added again.
                state.lastPolledValues = nil
                state.sampler = nil
                state.samplerAttachment = nil
                state.samplerRun = nil
                state.device = nil
                if changes == nil {
                    endsRun = true
                    return .unavailable(reason: error.description)
                }
                state.waitingReason = error.description
                return .unavailable(reason: "\(error); waiting for the device to be added again")
            }
        }
        // Ended after the lock: the run's releases (none without hot-plug) run outside it.
        if endsRun { lifecycle.end(run) }
        if let reading { readings.publish(reading) }
    }

    /// Applies one uevent of a hot-plug run.
    func handle(hotplug deviceEvent: DeviceEvent, run: UInt64) {
        guard let event = IIOHotplugEvent(deviceEvent), lifecycle.isCurrent(run) else { return }
        let device = state.withLock { $0.device }
        switch event {
        case .appeared:
            if device == nil { search(run: run) }
        case .removed(let id):
            if let device, device.id == id { detach(device, run: run) }
        case .overflow:
            guard let device else { return search(run: run) }
            if !SysfsFile.isDirectory(device.path) { detach(device, run: run) }
        }
    }

    /// Stops reading a device that went away, says so, and moves to another fitting device if there is one.
    private func detach(_ device: IIODevice, run: UInt64) {
        let sampler: (any IIOSampler)?? = state.withLock { state in
            guard lifecycle.isCurrent(run), state.device?.id == device.id else { return nil }
            defer {
                state.sampler = nil
                state.samplerAttachment = nil
                state.samplerRun = nil
                state.device = nil
                state.lastPolledValues = nil
                state.waitingReason = nil
            }
            return .some(state.sampler)
        }
        guard let sampler else { return }
        sampler?.stop()
        search(run: run, excluding: device.id, after: "\(device.id) (\(device.name)) was removed")
    }

    /// Attaches to the first fitting device, or publishes why there is none (once per reason).
    ///
    /// - Parameters:
    ///   - removed: A device just removed, not to be taken even if sysfs still lists it.
    ///   - event: What led to the search, said before the reason when there is no device.
    private func search(run: UInt64, excluding removed: String? = nil, after event: String? = nil) {
        do throws(SensorError) {
            try attach(try findDevice(excluding: removed), run: run)
        } catch {
            reportWaiting(event.map { "\($0); \(error)" } ?? error.description, run: run)
        }
    }

    /// Publishes that the monitor has no device and waits for one to be added, unless that is what it last said.
    func reportWaiting(_ reason: String, run: UInt64) {
        let isNew = state.withLock { state in
            guard lifecycle.isCurrent(run), state.sampler == nil, state.waitingReason != reason else { return false }
            state.waitingReason = reason
            return true
        }
        if isNew { readings.publish(.unavailable(reason: "\(reason); waiting for a device to be added")) }
    }
}
