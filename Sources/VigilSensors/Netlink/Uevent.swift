/// One kernel uevent: a device was added, removed or changed.
public struct Uevent: Hashable, Sendable, Encodable, CustomStringConvertible {
    /// What happened to the device (`ACTION`).
    public enum Action: String, Hashable, Sendable, Encodable, CaseIterable, CustomStringConvertible {
        /// A device appeared (`add`).
        case add

        /// A device went away (`remove`).
        case remove

        /// A device changed state (`change`), for example a battery reporting a new charge.
        case change

        /// A device was renamed or moved in the device tree (`move`).
        case move

        /// A device (a CPU, memory block) was brought online (`online`).
        case online

        /// A device was taken offline (`offline`).
        case offline

        /// A driver was bound to a device (`bind`).
        case bind

        /// A driver was unbound from a device (`unbind`).
        case unbind

        public var description: String { rawValue }
    }

    /// What happened (`ACTION`).
    public var action: Action
    /// The device's path under `/sys` (`DEVPATH`), for example `/devices/virtual/net/veth0`.
    public var devpath: String
    /// The subsystem (`SUBSYSTEM`), for example `net` or `power_supply`.
    public var subsystem: String
    /// The device type (`DEVTYPE`), when the subsystem has types.
    public var devtype: String?
    /// The device node's name under `/dev` (`DEVNAME`), for example `iio:device0` or `input/event3`, when the device
    /// has a node.
    public var devname: String?
    /// The bound driver (`DRIVER`), when there is one.
    public var driver: String?
    /// The kernel's event sequence number (`SEQNUM`).
    public var seqnum: UInt64?
    /// Every `KEY=VALUE` property of the event, the ones above included.
    public var properties: [String: String]

    /// Creates an event.
    public init(
        action: Action, devpath: String, subsystem: String, devtype: String? = nil, devname: String? = nil,
        driver: String? = nil, seqnum: UInt64? = nil, properties: [String: String] = [:]
    ) {
        self.action = action
        self.devpath = devpath
        self.subsystem = subsystem
        self.devtype = devtype
        self.devname = devname
        self.driver = driver
        self.seqnum = seqnum
        self.properties = properties
    }

    /// For example `add net /devices/virtual/net/veth0 (INTERFACE=veth0 IFINDEX=5) #1234`.
    public var description: String {
        var text = "\(action) \(subsystem)"
        if let devtype { text += "/" + devtype }
        text += " " + devpath
        if let devname { text += " /dev/" + devname }
        if let driver { text += " driver=" + driver }
        let keys = ["ACTION", "DEVPATH", "SUBSYSTEM", "DEVTYPE", "DEVNAME", "DRIVER", "SEQNUM"]
        let extra = properties.filter { !keys.contains($0.key) }.sorted { $0.key < $1.key }
        if !extra.isEmpty { text += " (" + extra.map { "\($0.key)=\($0.value)" }.joined(separator: " ") + ")" }
        if let seqnum { text += " #\(seqnum)" }
        return text
    }
}
