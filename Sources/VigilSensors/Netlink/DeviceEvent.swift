/// What a ``DeviceMonitor`` reports: a device event, a notice that events were lost, or that the kernel cannot be
/// read for now.
public enum DeviceEvent: Hashable, Sendable, Encodable, CustomStringConvertible {
    /// A kernel uevent that passed the monitor's filter.
    case uevent(Uevent)
    /// The kernel dropped events (`ENOBUFS`): the consumer should rescan the devices it cares about.
    case overflow
    /// The monitor cannot read the kernel's events (`reason` says why); it reopens its socket by itself and then
    /// reports ``overflow``.
    case unavailable(reason: String)

    public var description: String {
        switch self {
        case .uevent(let event): return event.description
        case .overflow: return "overflow: events were lost, rescan"
        case .unavailable(let reason): return "unavailable: \(reason)"
        }
    }

    private enum CodingKeys: String, CodingKey {
        case event, action, devpath, subsystem, devtype, devname, driver, seqnum,
            properties, reason
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .overflow:
            try container.encode("overflow", forKey: .event)
        case .unavailable(let reason):
            try container.encode("unavailable", forKey: .event)
            try container.encode(reason, forKey: .reason)
        case .uevent(let event):
            try container.encode("uevent", forKey: .event)
            try container.encode(event.action, forKey: .action)
            try container.encode(event.devpath, forKey: .devpath)
            try container.encode(event.subsystem, forKey: .subsystem)
            try container.encodeIfPresent(event.devtype, forKey: .devtype)
            try container.encodeIfPresent(event.devname, forKey: .devname)
            try container.encodeIfPresent(event.driver, forKey: .driver)
            try container.encodeIfPresent(event.seqnum, forKey: .seqnum)
            try container.encode(event.properties, forKey: .properties)
        }
    }
}
