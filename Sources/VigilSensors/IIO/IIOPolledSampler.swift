import Vigil

/// Reads a channel set's sysfs attributes on the event loop's timer.
final class IIOPolledSampler: IIOSampler {
    private struct Running {
        var registration: EventLoop.Registration
        var calibrations: [ChannelCalibration]
        var savedFrequency: (path: String, previous: String)?
    }

    private let channels: IIOChannelSet
    private let interval: SharedValue<Duration>
    private let eventLoop: EventLoop
    private let handler: @Sendable (IIOSamplerEvent) -> Void
    private let state = FutexMutex<Running?>(nil)
    /// Counts timer installations, so of two overlapping reschedules only the later keeps its timer.
    private let ticket = FutexMutex(0)

    init(
        channels: IIOChannelSet, interval: Duration, eventLoop: EventLoop,
        handler: @escaping @Sendable (IIOSamplerEvent) -> Void
    ) {
        self.channels = channels
        self.interval = SharedValue(interval.clampedUpdateInterval)
        self.eventLoop = eventLoop
        self.handler = handler
    }

    deinit {
        stop()
    }

    func start() throws(SensorError) {
        let calibrations = try channels.readCalibrations()
        let period = interval.value
        let rate = 1 / (Double(period.components.seconds) + Double(period.components.attoseconds) / 1e18)
        let saved = try IIOSamplerSupport.configureFrequency(rate, type: channels.type, device: channels.device)
        let registration: EventLoop.Registration
        do throws(SensorError) {
            registration = try eventLoop.schedule(every: period) { [weak self] in self?.poll() }
        } catch {
            IIOSamplerSupport.restoreFrequency(saved)
            throw error
        }
        state.withLock { $0 = Running(registration: registration, calibrations: calibrations, savedFrequency: saved) }
    }

    func stop() {
        guard let running = state.withLock({ $0.take() }) else { return }
        running.registration.cancel()
        IIOSamplerSupport.restoreFrequency(running.savedFrequency)
    }

    /// Replaces the running timer by one at `newInterval`, outside the lock; `sampling_frequency` stays as set at
    /// the start.
    func setInterval(_ newInterval: Duration) throws(SensorError) {
        interval.value = newInterval
        let mine = ticket.withLock { ticket in
            ticket += 1
            return ticket
        }
        guard let old = state.withLock({ $0?.registration }) else { return }
        old.cancel()
        let timer = try eventLoop.schedule(every: newInterval) { [weak self] in self?.poll() }
        let keep = state.withLock { running in
            guard running != nil, ticket.withLock({ $0 }) == mine else { return false }
            running?.registration = timer
            return true
        }
        if !keep { timer.cancel() }
    }

    /// Reads the channels now, on the calling thread.
    func refresh() { poll() }

    private func poll() {
        guard let calibrations = state.withLock({ $0?.calibrations }) else { return }
        let values: [Double]
        do throws(SensorError) {
            values = try channels.readValues(calibrations: calibrations)
        } catch {
            handler(.error(error))
            return
        }
        handler(.sample(channels.sample(values: values, timestamp: IIOSamplerSupport.now())))
    }
}
