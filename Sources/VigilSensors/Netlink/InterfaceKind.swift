/// What sort of device an interface is.
public enum InterfaceKind: String, Hashable, Sendable, Encodable, CustomStringConvertible {
    /// The loopback interface (`ARPHRD_LOOPBACK`).
    case loopback
    /// A physical Ethernet device.
    case ethernet
    /// A Wi-Fi device (sysfs has `wireless` or `phy80211` under it).
    case wireless
    /// A virtual device: the kernel names a link kind (veth, bridge, tun, wireguard, …).
    case virtual
    /// Anything else (PPP, InfiniBand, CAN, …).
    case other

    public var description: String { rawValue }
}
