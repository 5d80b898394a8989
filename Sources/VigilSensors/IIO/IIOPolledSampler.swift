/// Reads a channel set's sysfs attributes on the event loop's timer.
final class IIOPolledSampler: IIOSampler {
    private struct Running {
        var registration: EventLoop.Registration
        var calibrations: [ChannelCalibration]
        var savedFrequency: (path: String, previous: String)?
    }

    private let channels: IIOChannelSet
    private let rate: Double
    private let eventLoop: EventLoop
    private let handler: @Sendable (IIOSamplerEvent) -> Void
    private let state = Mutex<Running?>(nil)

    init(
        channels: IIOChannelSet, rate: Double, eventLoop: EventLoop,
        handler: @escaping @Sendable (IIOSamplerEvent) -> Void
    ) {
        self.channels = channels
        self.rate = rate
        self.eventLoop = eventLoop
        self.handler = handler
    }

    deinit {
        stop()
    }

    func start() throws(SensorError) {
        let calibrations = try channels.readCalibrations()
        let saved = try IIOSamplerSupport.configureFrequency(rate, type: channels.type, device: channels.device)
        // In floating point and clamped to a day, so a tiny rate cannot overflow the conversion to nanoseconds.
        let nanoseconds = min(max(1e6, 1e9 / rate), 86_400e9)
        let period = Duration.nanoseconds(Int64(nanoseconds))
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

    private func poll() {
        guard let calibrations = state.withLock({ $0?.calibrations }) else { return }
        var values: [Double] = []
        do throws(SensorError) {
            for (channel, calibration) in zip(channels.channels, calibrations) {
                values.append(try channel.readValue(calibration: calibration))
            }
        } catch {
            handler(.error(error))
            return
        }
        handler(.sample(channels.sample(values: values, timestamp: IIOSamplerSupport.now())))
    }
}
