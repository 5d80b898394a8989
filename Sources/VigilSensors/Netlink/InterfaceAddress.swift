/// One address of an interface, as `RTM_NEWADDR` reports it.
public struct InterfaceAddress: Hashable, Sendable, Encodable, CustomStringConvertible {
    /// The index of the interface that holds the address.
    public var interfaceIndex: Int
    /// The local address (`IFA_LOCAL`, or `IFA_ADDRESS` when there is no separate local address).
    public var address: IPAddress
    /// The prefix length, for example 24 for a `/24`.
    public var prefixLength: Int
    /// How far the address reaches.
    public var scope: AddressScope
    /// The `IFA_F_*` flags (`IFA_FLAGS` when present, else the 8-bit header flags).
    public var flags: AddressFlags

    /// Creates an address record.
    public init(interfaceIndex: Int, address: IPAddress, prefixLength: Int, scope: AddressScope, flags: AddressFlags) {
        self.interfaceIndex = interfaceIndex
        self.address = address
        self.prefixLength = prefixLength
        self.scope = scope
        self.flags = flags
    }

    /// Whether duplicate address detection is still running (the address cannot be used yet).
    public var isTentative: Bool { flags.contains(.tentative) }
    /// Whether the address's preferred lifetime expired.
    public var isDeprecated: Bool { flags.contains(.deprecated) }
    /// Whether this is an IPv4 secondary address (`IFA_F_SECONDARY`): another address of the interface already
    /// covers its subnet.
    public var isSecondary: Bool { address.family == .ipv4 && flags.contains(.secondary) }
    /// Whether this is an IPv6 temporary (privacy) address (`IFA_F_TEMPORARY`).
    public var isTemporary: Bool { address.family == .ipv6 && flags.contains(.temporary) }
    /// Whether the address can carry traffic: not tentative and duplicate address detection did not fail.
    public var isUsable: Bool { !flags.contains(.tentative) && !flags.contains(.duplicateDetectionFailed) }

    /// Whether two records name the same address (the kernel's identity: interface, address and prefix).
    func isSameAddress(as other: InterfaceAddress) -> Bool {
        interfaceIndex == other.interfaceIndex && address == other.address && prefixLength == other.prefixLength
    }

    /// For example `192.0.2.10/24 global` or `fe80::1/64 link tentative`.
    public var description: String {
        ([address.description + "/" + String(prefixLength), scope.description] + flags.names(for: address.family))
            .joined(separator: " ")
    }

    private enum CodingKeys: String, CodingKey {
        case address, prefixLength, family, scope, flags
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(address, forKey: .address)
        try container.encode(prefixLength, forKey: .prefixLength)
        try container.encode(address.family, forKey: .family)
        try container.encode(scope, forKey: .scope)
        try container.encode(flags.names(for: address.family), forKey: .flags)
    }
}
