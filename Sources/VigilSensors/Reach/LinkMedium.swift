/// What an interface carries packets over, as a user names it: wired, Wi-Fi, cellular, a tunnel, loopback.
public enum LinkMedium: String, Hashable, Sendable, Encodable, CustomStringConvertible {
    /// Ethernet.
    case wired
    /// Wi-Fi.
    case wifi = "wi-fi"
    /// A mobile-broadband modem (``InterfaceKind/cellular``, the `wwan` or `rmnet` link kind, or a modem's name:
    /// `wwan*`, systemd's `ww*`, `rmnet*`).
    case cellular
    /// A tunnel or VPN (WireGuard, tun/tap, GRE, IPIP, SIT, VTI, XFRM, VXLAN, Geneve, …).
    case tunnel
    /// The loopback interface.
    case loopback
    /// Another virtual device (veth, bridge, bond, VLAN, macvlan, …).
    case virtual
    /// Anything else.
    case other

    /// The link kinds (`IFLA_INFO_KIND`) that are tunnels.
    private static let tunnelKinds: Set<String> = [
        "wireguard", "tun", "ipip", "gre", "gretap", "ip6gre", "ip6gretap", "sit", "vti", "vti6", "ip6tnl", "xfrm",
        "vxlan", "geneve", "erspan", "ip6erspan", "bareudp", "gtp", "amt", "ovpn",
    ]

    /// Classifies an interface from its kind, link kind and name.
    ///
    /// The names count for a device with no link kind (a virtual device's name is anyone's choice): `ww` is the
    /// prefix systemd's predictable names give a WWAN interface (`wwp0s20f0u6i4`), `wwan` the kernel's, `rmnet`
    /// Qualcomm's data channels.
    public init(_ interface: NetworkInterface) {
        let name = interface.name
        let modemNamed = interface.linkKind == nil && (name.hasPrefix("ww") || name.hasPrefix("rmnet"))
        if interface.kind == .cellular || interface.linkKind == "wwan" || interface.linkKind == "rmnet" || modemNamed {
            self = .cellular
            return
        }
        switch interface.kind {
        case .loopback: self = .loopback
        case .cellular: self = .cellular
        case .ethernet: self = .wired
        case .wireless: self = .wifi
        case .virtual:
            self = interface.linkKind.map(Self.tunnelKinds.contains) == true ? .tunnel : .virtual
        case .other: self = .other
        }
    }

    public var description: String { rawValue }
}
