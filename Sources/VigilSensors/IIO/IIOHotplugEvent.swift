/// What one uevent means to an IIO monitor: a device came or went, or events were lost.
///
/// Read from a uevent's properties (the form ``DeviceMonitor/ueventProperties`` gives). The device is named by
/// `DEVNAME` or the last component of `DEVPATH`; only `iio:deviceN` devices of the `iio` subsystem count, so
/// triggers (`trigger0`, same subsystem) and other subsystems are ignored.
enum IIOHotplugEvent: Equatable {
    /// A device was added, or a driver bound or changed it: worth looking for a device if the monitor has none.
    case appeared(id: String)
    /// The device was removed or its driver unbound.
    case removed(id: String)
    /// The kernel dropped events: whether the device is still there must be checked.
    case overflow

    /// The event the properties describe, or nil when they do not concern an IIO device.
    init?(properties: [String: String]) {
        let action = properties["ACTION"]
        if action == "overflow" {
            self = .overflow
            return
        }
        if let subsystem = properties["SUBSYSTEM"], subsystem != "iio" { return nil }
        let name =
            properties["DEVNAME"].flatMap { $0.split(separator: "/").last.map(String.init) }
            ?? properties["DEVPATH"].flatMap { $0.split(separator: "/").last.map(String.init) }
        guard let name, name.hasPrefix("iio:device") else { return nil }
        switch action {
        case "add", "bind", "change", "online": self = .appeared(id: name)
        case "remove", "unbind", "offline": self = .removed(id: name)
        default: return nil
        }
    }
}
