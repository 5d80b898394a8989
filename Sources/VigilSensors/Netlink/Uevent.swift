/// One kernel uevent: a device was added, removed or changed.
///
/// The kernel sends a uevent as bytes, and its values need not be UTF-8: a `DEVPATH` and an `INTERFACE` hold a device
/// or interface name, which may be any bytes, and a driver may copy a USB descriptor's strings into a property. So
/// every value is a ``BytePath`` with its exact bytes; compare with a literal (`event.subsystem == "net"`) or read
/// ``BytePath/string``. As JSON, a value that is UTF-8 (nearly all) is a string, and one that is not is the array of
/// its bytes (`"INTERFACE":[99,97,102,233]`), never a look-alike string with U+FFFD. Property names are the kernel's
/// ASCII identifiers, `String`s.
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
    public var devpath: BytePath
    /// The subsystem (`SUBSYSTEM`), for example `net` or `power_supply`.
    public var subsystem: BytePath
    /// The device type (`DEVTYPE`), when the subsystem has types.
    public var devtype: BytePath?
    /// The device node's name under `/dev` (`DEVNAME`), for example `iio:device0` or `input/event3`, when the device
    /// has a node.
    public var devname: BytePath?
    /// The bound driver (`DRIVER`), when there is one.
    public var driver: BytePath?
    /// The kernel's event sequence number (`SEQNUM`).
    public var seqnum: UInt64?
    /// Every `KEY=VALUE` property of the event, the ones above included.
    public var properties: [String: BytePath]

    /// Creates an event.
    public init(
        action: Action, devpath: BytePath, subsystem: BytePath, devtype: BytePath? = nil, devname: BytePath? = nil,
        driver: BytePath? = nil, seqnum: UInt64? = nil, properties: [String: BytePath] = [:]
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

    /// For example `add net /devices/virtual/net/veth0 (IFINDEX=5 INTERFACE=veth0) #1234`; a value that is not
    /// UTF-8 is escaped like `ls -b` (`INTERFACE=caf\351`).
    public var description: String {
        var text = "\(action) \(subsystem.displayText)"
        if let devtype { text += "/" + devtype.displayText }
        text += " " + devpath.displayText
        if let devname { text += " /dev/" + devname.displayText }
        if let driver { text += " driver=" + driver.displayText }
        let keys = ["ACTION", "DEVPATH", "SUBSYSTEM", "DEVTYPE", "DEVNAME", "DRIVER", "SEQNUM"]
        let extra = properties.filter { !keys.contains($0.key) }.sorted { $0.key < $1.key }
        if !extra.isEmpty {
            text += " (" + extra.map { "\($0.key)=\($0.value.displayText)" }.joined(separator: " ") + ")"
        }
        if let seqnum { text += " #\(seqnum)" }
        return text
    }
}
