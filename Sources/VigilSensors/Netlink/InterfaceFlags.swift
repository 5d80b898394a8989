/// The `IFF_*` flags of a network interface (netdevice(7)).
public struct InterfaceFlags: OptionSet, Hashable, Sendable, Encodable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// `IFF_UP`: administratively up.
    public static let up = InterfaceFlags(rawValue: 1 << 0)
    /// `IFF_BROADCAST`: has a broadcast address.
    public static let broadcast = InterfaceFlags(rawValue: 1 << 1)
    /// `IFF_LOOPBACK`: the loopback interface.
    public static let loopback = InterfaceFlags(rawValue: 1 << 3)
    /// `IFF_POINTOPOINT`: a point-to-point link.
    public static let pointToPoint = InterfaceFlags(rawValue: 1 << 4)
    /// `IFF_RUNNING`: operationally up (RFC 2863 "up").
    public static let running = InterfaceFlags(rawValue: 1 << 6)
    /// `IFF_NOARP`: no ARP.
    public static let noARP = InterfaceFlags(rawValue: 1 << 7)
    /// `IFF_PROMISC`: promiscuous mode.
    public static let promiscuous = InterfaceFlags(rawValue: 1 << 8)
    /// `IFF_MULTICAST`: supports multicast.
    public static let multicast = InterfaceFlags(rawValue: 1 << 12)
    /// `IFF_LOWER_UP`: the driver signals carrier.
    public static let lowerUp = InterfaceFlags(rawValue: 1 << 16)
    /// `IFF_DORMANT`: waiting for an external event (802.1X, …).
    public static let dormant = InterfaceFlags(rawValue: 1 << 17)

    private static let names: [(InterfaceFlags, String)] = [
        (.up, "UP"), (.broadcast, "BROADCAST"), (.loopback, "LOOPBACK"), (.pointToPoint, "POINTOPOINT"),
        (.running, "RUNNING"), (.noARP, "NOARP"), (.promiscuous, "PROMISC"), (.multicast, "MULTICAST"),
        (.lowerUp, "LOWER_UP"), (.dormant, "DORMANT"),
    ]

    /// The names of the flags that are set, as `ip link` prints them.
    public var names: [String] { Self.names.filter { contains($0.0) }.map(\.1) }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(names)
    }
}
