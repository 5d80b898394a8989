/// One network interface as the kernel reports it, with its addresses.
public struct NetworkInterface: Hashable, Sendable, Encodable, CustomStringConvertible {
    /// The interface index (`ifindex`), stable while the interface exists.
    public var index: Int
    /// The name, for example `eth0`; it changes when the interface is renamed. A name that is not UTF-8 (the kernel
    /// allows any bytes but `/`, `:` and white space) is written here with those bytes escaped as `ls -b` does; its
    /// exact bytes are ``nameBytes``, and its JSON `name` is the array of them.
    public var name: String
    /// The name's exact bytes.
    public var nameBytes: BytePath
    /// What sort of device it is.
    public var kind: InterfaceKind
    /// The link kind the kernel names for virtual devices (`IFLA_INFO_KIND`: `veth`, `bridge`, …).
    public var linkKind: String?
    /// The `IFF_*` flags.
    public var flags: InterfaceFlags
    /// The RFC 2863 operational status.
    public var operationalStatus: OperationalStatus
    /// The MTU in bytes, when reported.
    public var mtu: Int?
    /// The hardware address as colon-separated hex (`aa:bb:cc:dd:ee:ff`), when the device has one.
    public var hardwareAddress: String?
    /// The interface's addresses, IPv4 first, each family in address order.
    public var addresses: [InterfaceAddress]
    /// The traffic counters since the interface was created (`IFLA_STATS64`, else `IFLA_STATS`), as of the last
    /// link message or refresh; `nil` when the kernel reports none.
    public var traffic: InterfaceTraffic?
    /// How fast the counters moved since an earlier reading: `nil` from a ``NetworkMonitor``, which publishes
    /// counters; set by a reader that keeps earlier readings (`vigil watch` does, see ``TrafficRates``).
    public var rates: TrafficRates?

    /// Creates an interface record.
    ///
    /// - Parameters:
    ///   - index: The interface index.
    ///   - name: The name as text.
    ///   - nameBytes: The name's exact bytes, when they are not `name`'s UTF-8.
    ///   - kind: What sort of device it is.
    ///   - linkKind: The kernel's link kind for a virtual device.
    ///   - flags: The `IFF_*` flags.
    ///   - operationalStatus: The RFC 2863 operational status.
    ///   - mtu: The MTU in bytes.
    ///   - hardwareAddress: The hardware address as colon-separated hex.
    ///   - addresses: The interface's addresses.
    ///   - traffic: The traffic counters.
    ///   - rates: The rates of the counters since an earlier reading.
    public init(
        index: Int, name: String, nameBytes: BytePath? = nil, kind: InterfaceKind, linkKind: String? = nil,
        flags: InterfaceFlags, operationalStatus: OperationalStatus, mtu: Int? = nil, hardwareAddress: String? = nil,
        addresses: [InterfaceAddress] = [], traffic: InterfaceTraffic? = nil, rates: TrafficRates? = nil
    ) {
        self.index = index
        self.name = name
        self.nameBytes = nameBytes ?? BytePath(name)
        self.kind = kind
        self.linkKind = linkKind
        self.flags = flags
        self.operationalStatus = operationalStatus
        self.mtu = mtu
        self.hardwareAddress = hardwareAddress
        self.addresses = addresses
        self.traffic = traffic
        self.rates = rates
    }

    /// Whether the interface is administratively up (`IFF_UP`).
    public var isUp: Bool { flags.contains(.up) }
    /// Whether the interface has carrier (`IFF_LOWER_UP`).
    public var hasCarrier: Bool { flags.contains(.lowerUp) }

    /// The systemd-networkd-like summary: off, no-carrier, dormant, carrier, degraded or routable.
    ///
    /// Host-scope addresses (loopback's) do not count, so `lo` is `carrier`, as networkd reports it.
    public var state: LinkState {
        guard isUp else { return .off }
        guard hasCarrier else { return .noCarrier }
        if operationalStatus == .dormant || flags.contains(.dormant) { return .dormant }
        let usable = addresses.filter(\.isUsable)
        if usable.contains(where: { $0.scope < .site }) { return .routable }
        if usable.contains(where: { $0.scope < .host }) { return .degraded }
        return .carrier
    }

    /// This interface without its traffic counters and rates: what it says about the link and its addresses.
    var withoutTraffic: NetworkInterface {
        var link = self
        link.traffic = nil
        link.rates = nil
        return link
    }

    /// For example `eth0 (#2 ethernet) routable UP,LOWER_UP mtu 1500 192.0.2.10/24`, then the rates when known
    /// (`rx 1.2 kB/s 10 pkt/s, tx 300 B/s 3 pkt/s`).
    public var description: String {
        var parts = ["\(name) (#\(index) \(linkKind ?? kind.description))", state.description]
        parts.append(flags.names.isEmpty ? "-" : flags.names.joined(separator: ","))
        if let mtu { parts.append("mtu \(mtu)") }
        parts += addresses.map { $0.address.description + "/" + String($0.prefixLength) }
        if let rates { parts.append(rates.description) }
        return parts.joined(separator: " ")
    }

    private enum CodingKeys: String, CodingKey {
        case index, name, kind, linkKind, state, flags, operationalStatus, mtu, hardwareAddress, addresses, traffic
        case rates
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(index, forKey: .index)
        // Its exact bytes: text when UTF-8, else the array of byte values (see BytePath), never a look-alike.
        try container.encode(nameBytes, forKey: .name)
        try container.encode(kind, forKey: .kind)
        try container.encodeIfPresent(linkKind, forKey: .linkKind)
        try container.encode(state, forKey: .state)
        try container.encode(flags, forKey: .flags)
        try container.encode(operationalStatus, forKey: .operationalStatus)
        try container.encodeIfPresent(mtu, forKey: .mtu)
        try container.encodeIfPresent(hardwareAddress, forKey: .hardwareAddress)
        try container.encode(addresses, forKey: .addresses)
        try container.encodeIfPresent(traffic, forKey: .traffic)
        try container.encodeIfPresent(rates, forKey: .rates)
    }
}
