/// What one uevent means to an IIO monitor: a device came or went, or events were lost.
///
/// Read from a ``DeviceEvent`` of a ``DeviceMonitor``. The device is named by `DEVNAME` or the last component of
/// `DEVPATH`; only `iio:deviceN` devices of the `iio` subsystem count, so triggers (`trigger0`, same subsystem) and
/// other subsystems are ignored. Lost events, or a monitor that cannot read them for now, mean ``overflow``.
enum IIOHotplugEvent: Equatable {
    /// A device was added, or a driver bound or changed it: worth looking for a device if the monitor has none.
    case appeared(id: String)
    /// The device was removed or its driver unbound.
    case removed(id: String)
    /// The kernel dropped events: whether the device is still there must be checked.
    case overflow

    /// The event a device event means, or nil when it does not concern an IIO device.
    init?(_ event: DeviceEvent) {
        guard case .event(let uevent) = event.kind else {
            self = .overflow
            return
        }
        guard uevent.subsystem == "iio" else { return nil }
        // IIO device names are ASCII: a name that is not UTF-8 is no IIO device.
        let name =
            uevent.devname?.string.flatMap { $0.split(separator: "/").last.map(String.init) }
            ?? uevent.devpath.string?.split(separator: "/").last.map(String.init)
        guard let name, name.hasPrefix("iio:device") else { return nil }
        switch uevent.action {
        case .add, .bind, .change, .online: self = .appeared(id: name)
        case .remove, .unbind, .offline: self = .removed(id: name)
        case .move: return nil
        }
    }
}
