/// What a ``DeviceMonitor`` reports: a device event, a notice that events were lost, or that the kernel cannot be
/// read for now; and when.
///
/// Like ``SensorReading``, an event is what happened (``kind``) and when it was seen (``time``: for a uevent or an
/// overflow, when the datagram or the error was received). Match on ``kind``; build one with ``uevent(_:)``,
/// ``overflow`` or ``unavailable(reason:)`` (stamped now) or ``init(_:time:)``. Two events are equal when both their
/// kind and their time are.
public struct DeviceEvent: Hashable, Sendable, Encodable, CustomStringConvertible {
    /// What happened.
    public enum Kind: Hashable, Sendable {
        /// A kernel uevent that passed the monitor's filter.
        case uevent(Uevent)
        /// The kernel dropped events (`ENOBUFS`): the consumer should rescan the devices it cares about.
        case overflow
        /// The monitor cannot read the kernel's events (`reason` says why); it reopens its socket by itself and then
        /// reports ``overflow``.
        case unavailable(reason: String)
    }

    /// What happened.
    public var kind: Kind
    /// When the event was seen.
    public var time: ReadingTime

    /// An event of `kind` seen at `time`.
    ///
    /// - Parameters:
    ///   - kind: What happened.
    ///   - time: When it was seen.
    public init(_ kind: Kind, time: ReadingTime) {
        self.kind = kind
        self.time = time
    }

    /// A uevent seen now.
    ///
    /// - Parameter uevent: The kernel's event.
    /// - Returns: The event, stamped ``ReadingTime/now()``.
    public static func uevent(_ uevent: Uevent) -> DeviceEvent { DeviceEvent(.uevent(uevent), time: .now()) }

    /// Events were lost, noticed now.
    public static var overflow: DeviceEvent { DeviceEvent(.overflow, time: .now()) }

    /// The kernel cannot be read, noticed now.
    ///
    /// - Parameter reason: Why, and what the monitor does about it.
    /// - Returns: The event, stamped ``ReadingTime/now()``.
    public static func unavailable(reason: String) -> DeviceEvent {
        DeviceEvent(.unavailable(reason: reason), time: .now())
    }

    /// The uevent, when the event is one.
    public var uevent: Uevent? {
        if case .uevent(let uevent) = kind { return uevent }
        return nil
    }

    public var description: String {
        switch kind {
        case .uevent(let event): return event.description
        case .overflow: return "overflow: events were lost, rescan"
        case .unavailable(let reason): return "unavailable: \(reason)"
        }
    }

    private enum CodingKeys: String, CodingKey {
        case event, action, devpath, subsystem, devtype, devname, driver, seqnum,
            properties, reason, time
    }

    /// Encodes `event` (`uevent`, `overflow` or `unavailable`), the uevent's fields or the reason, and `time`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch kind {
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
        try container.encode(time, forKey: .time)
    }
}
