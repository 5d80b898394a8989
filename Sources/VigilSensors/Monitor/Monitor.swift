/// Something that watches the system between ``startMonitoring()`` and ``stopMonitoring()``.
///
/// Starting a running monitor or stopping a stopped one is harmless. Arrays of monitors start and stop together:
/// `startMonitoring()` on a sequence of `any Monitor` starts all or none, and `stopMonitoring()` stops them all.
public protocol Monitor: AnyObject, Sendable {
    /// Whether the monitor is running.
    var isMonitoring: Bool { get }

    /// Starts watching; does nothing if already running.
    ///
    /// Calls from many threads at once start the monitor once: one call claims the start, the others return
    /// (possibly before the claiming call has finished starting). A start that throws leaves the monitor stopped, with
    /// nothing registered, opened or published by that attempt.
    ///
    /// - Throws: A ``SensorError`` that says why the monitor cannot run here at all. Whatever goes wrong after a start
    ///   returned is published in-band by the source, never thrown.
    func startMonitoring() throws(SensorError)

    /// Stops watching; does nothing if not running.
    ///
    /// Once it returns, the monitor publishes nothing more until it is started again. It may be called from inside
    /// one of the monitor's own callbacks.
    func stopMonitoring()
}

extension Sequence where Element == any Monitor {
    /// Starts every monitor, or none: if one fails, those already started are stopped again and the error is thrown.
    public func startMonitoring() throws(SensorError) {
        var started: [any Monitor] = []
        do {
            for monitor in self where !monitor.isMonitoring {
                try monitor.startMonitoring()
                started.append(monitor)
            }
        } catch {
            for monitor in started.reversed() { monitor.stopMonitoring() }
            throw error
        }
    }

    /// Stops every monitor.
    public func stopMonitoring() {
        for monitor in self { monitor.stopMonitoring() }
    }
}
