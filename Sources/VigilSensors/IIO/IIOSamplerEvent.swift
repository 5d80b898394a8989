import Glibc

/// What a sampler reports to its monitor, on the event-loop thread.
enum IIOSamplerEvent: Sendable {
    /// A sample in SI units.
    case sample(IIOSample)
    /// A sample could not be read; the sampler keeps going (a polled attribute may come back).
    case error(SensorError)
    /// The sampler stopped for good after this error and restored the device.
    case failed(SensorError)
}

/// Reads samples from a device until stopped; polled or buffered.
protocol IIOSampler: AnyObject, Sendable {
    /// Configures the device and starts delivering events.
    func start() throws(SensorError)
    /// Stops delivering events and restores the device; idempotent.
    func stop()
}

/// Helpers shared by the samplers.
enum IIOSamplerSupport {
    /// The current `CLOCK_REALTIME` in nanoseconds, the IIO default timestamp clock.
    static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }

    /// Sets the sampling frequency for `type` on `device` to the closest available one at or above `rate`.
    ///
    /// - Returns: The attribute and its previous text, to restore on stop; nil when nothing was written.
    /// - Throws: ``SensorError/valueOutOfRange(path:value:range:)`` when `rate` is not positive, or when the
    ///   attribute reads 0 Hz and cannot be written (the device would never produce data).
    static func configureFrequency(
        _ rate: Double, type: String, device: IIODevice
    ) throws(SensorError) -> (path: String, previous: String)? {
        guard rate.isFinite, rate > 0 else {
            throw SensorError.valueOutOfRange(path: device.path, value: String(rate), range: "a rate above 0 Hz")
        }
        guard let path = device.samplingFrequencyPath(for: type) else { return nil }
        let previous = try SysfsFile.readText(path)
        let available = device.availableSamplingFrequencies(for: type)
        let target = available.first { $0 >= rate } ?? available.last ?? rate
        let text = Vector3.format(target)
        if Double(previous) == target { return nil }
        do {
            try SysfsFile.write(text, to: path)
        } catch {
            if let current = Double(previous), current > 0 { return nil }
            throw SensorError.valueOutOfRange(
                path: path, value: previous, range: "a non-zero sampling frequency (writing \(text) failed: \(error))")
        }
        return (path, previous)
    }

    /// Writes back a sampling frequency saved by ``configureFrequency(_:type:device:)``, unless it was 0 Hz.
    static func restoreFrequency(_ saved: (path: String, previous: String)?) {
        guard let saved, let value = Double(saved.previous), value > 0 else { return }
        try? SysfsFile.write(saved.previous, to: saved.path)
    }
}
