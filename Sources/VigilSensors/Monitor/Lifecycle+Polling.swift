import Vigil

// The polling driver with a hot-plug input: the run of a source that re-reads a sysfs class on a timer and on device
// events (displays, the device inventory).
extension Lifecycle {
    /// Claims a run that polls with `driver` and calls `onEvent` with each event of `changes`; does nothing when a
    /// run is claimed. The run's end stops the driver and ends the subscription.
    ///
    /// - Parameters:
    ///   - driver: The source's polling driver, started with its timer.
    ///   - firstRead: Where the run's first read happens.
    ///   - changes: Device events (a ``DeviceMonitor``'s readings), or nil to rely on polling.
    ///   - loop: The loop whose wake watch tells that the machine slept; the driver re-reads after each wake, since
    ///     what it caches may have changed unseen.
    ///   - onEvent: Called on the thread delivering `changes`, never under a lock; it decides whether to re-read.
    /// - Throws: A ``SensorError`` when the event loop cannot run the polling timer (nothing is left running).
    func startPolling<Value>(
        _ driver: PollingDriver<Value>, firstRead: FirstReadPlacement = .atOnce,
        changes: (any ObservableType<DeviceEvent>)?, refreshingAfterWakeOn loop: EventLoop,
        onEvent: @escaping @Sendable (DeviceEvent) -> Void
    ) throws(SensorError) {
        try start { (generation) throws(SensorError) in
            try driver.start(firstRead: firstRead)
            keep(generation) { [driver] in driver.stop() }
            refreshAfterWake(on: loop, generation: generation) { [driver] in driver.refresh() }
            if let changes {
                let subscription = changes.subscribe { event in onEvent(event) }
                keep(generation) { subscription.dispose() }
            }
        }
    }
}
