/// The `IFA_F_*` flags of an interface address (`linux/if_addr.h`).
public struct AddressFlags: OptionSet, Hashable, Sendable, Encodable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// `IFA_F_SECONDARY` (IPv4) or `IFA_F_TEMPORARY` (IPv6 privacy address).
    public static let temporary = AddressFlags(rawValue: 0x01)
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
        (.temporary, "temporary"), (.noDuplicateDetection, "nodad"), (.optimistic, "optimistic"),
        (.duplicateDetectionFailed, "dadfailed"), (.homeAddress, "home"), (.deprecated, "deprecated"),
        (.tentative, "tentative"), (.permanent, "permanent"),
    ]

    /// The names of the flags that are set, as `ip addr` prints them.
    public var names: [String] { Self.names.filter { contains($0.0) }.map(\.1) }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(names)
    }
}
