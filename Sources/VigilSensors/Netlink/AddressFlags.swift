/// The `IFA_F_*` flags of an interface address (`linux/if_addr.h`).
///
/// One bit means two things: `IFA_F_SECONDARY` for IPv4 and `IFA_F_TEMPORARY` for IPv6 share `0x01`, so
/// ``secondary`` and ``temporary`` are the same value and only the address's family tells them apart; use
/// ``names(for:)``, ``InterfaceAddress/isSecondary`` or ``InterfaceAddress/isTemporary``.
public struct AddressFlags: OptionSet, Hashable, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// `IFA_F_TEMPORARY`: an IPv6 privacy address. For IPv4 the same bit means ``secondary``.
    public static let temporary = AddressFlags(rawValue: 0x01)
    /// `IFA_F_SECONDARY`: an IPv4 address in a subnet another address of the interface already covers. For IPv6 the
    /// same bit means ``temporary``.
    public static let secondary = AddressFlags(rawValue: 0x01)
    /// `IFA_F_NODAD`: duplicate address detection is off.
    public static let noDuplicateDetection = AddressFlags(rawValue: 0x02)
    /// `IFA_F_OPTIMISTIC`: optimistic duplicate address detection.
    public static let optimistic = AddressFlags(rawValue: 0x04)
    /// `IFA_F_DADFAILED`: duplicate address detection failed; the address is not usable.
    public static let duplicateDetectionFailed = AddressFlags(rawValue: 0x08)
    /// `IFA_F_HOMEADDRESS`: Mobile IPv6 home address.
    public static let homeAddress = AddressFlags(rawValue: 0x10)
    /// `IFA_F_DEPRECATED`: the preferred lifetime expired; usable, not chosen for new connections.
    public static let deprecated = AddressFlags(rawValue: 0x20)
    /// `IFA_F_TENTATIVE`: duplicate address detection is still running; not usable yet.
    public static let tentative = AddressFlags(rawValue: 0x40)
    /// `IFA_F_PERMANENT`: configured, not learned.
    public static let permanent = AddressFlags(rawValue: 0x80)

    private static let names: [(AddressFlags, String)] = [
        (.noDuplicateDetection, "nodad"), (.optimistic, "optimistic"),
        (.duplicateDetectionFailed, "dadfailed"), (.homeAddress, "home"), (.deprecated, "deprecated"),
        (.tentative, "tentative"), (.permanent, "permanent"),
    ]

    /// The names of the flags that are set on an address of `family`, as `ip addr` prints them: bit `0x01` is
    /// `secondary` for IPv4 and `temporary` for IPv6.
    public func names(for family: IPAddress.Family) -> [String] {
        let shared = contains(.temporary) ? [family == .ipv4 ? "secondary" : "temporary"] : []
        return shared + Self.names.filter { contains($0.0) }.map(\.1)
    }
}
