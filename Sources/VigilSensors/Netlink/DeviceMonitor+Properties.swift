import Vigil

extension DeviceMonitor {
    /// Each uevent as its properties (with `ACTION` and `SUBSYSTEM`), and `["ACTION": "overflow"]` when the kernel
    /// dropped events: the form ``PowerSupplyMonitor`` and ``BacklightMonitor`` take as `changes`.
    ///
    /// An overflow makes those monitors re-read everything, since any change may have been lost. Delivered on the
    /// thread that publishes the device events (the event-loop thread).
    ///
    /// ```swift
    /// let devices = DeviceMonitor(subsystems: ["power_supply"])
    /// let power = PowerSupplyMonitor(changes: devices.ueventProperties)
    /// try ([devices, power] as [any Monitor]).startMonitoring()
    /// ```
    public var ueventProperties: Observable<[String: String]> {
        readings.map { event in
            switch event.kind {
            case .uevent(let uevent):
                var properties = uevent.properties
                properties["ACTION"] = uevent.action.rawValue
                properties["SUBSYSTEM"] = uevent.subsystem
                return properties
            case .overflow, .unavailable:
                // Events are lost, or may be while the monitor cannot read them: rescan.
                return ["ACTION": "overflow"]
            }
        }
    }
}
