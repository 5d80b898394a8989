/// What a wireless interface is for (`enum nl80211_iftype`): a station that joins networks, an access point, a
/// monitor, …
public struct WiFiInterfaceType: RawRepresentable, Hashable, Sendable, Encodable, CustomStringConvertible {
    /// The kernel's number (`NL80211_IFTYPE_*`).
    public let rawValue: UInt32

    /// Wraps the kernel's number; a number this version does not know is kept and shown as such.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// An ad-hoc (IBSS) member.
    public static let adHoc = WiFiInterfaceType(rawValue: 1)
    /// A client that joins networks (managed mode): a laptop's usual interface.
    public static let station = WiFiInterfaceType(rawValue: 2)
    /// An access point.
    public static let accessPoint = WiFiInterfaceType(rawValue: 3)
    /// A VLAN of an access point.
    public static let accessPointVLAN = WiFiInterfaceType(rawValue: 4)
    /// A wireless distribution system link.
    public static let wds = WiFiInterfaceType(rawValue: 5)
    /// A monitor that captures frames.
    public static let monitor = WiFiInterfaceType(rawValue: 6)
    /// A mesh point.
    public static let meshPoint = WiFiInterfaceType(rawValue: 7)
    /// A Wi-Fi Direct client.
    public static let p2pClient = WiFiInterfaceType(rawValue: 8)
    /// A Wi-Fi Direct group owner.
    public static let p2pGroupOwner = WiFiInterfaceType(rawValue: 9)
    /// A Wi-Fi Direct device (no network interface of its own).
    public static let p2pDevice = WiFiInterfaceType(rawValue: 10)
    /// Outside the context of a BSS (802.11p).
    public static let ocb = WiFiInterfaceType(rawValue: 11)
    /// Neighbor awareness networking.
    public static let nan = WiFiInterfaceType(rawValue: 12)

    private static let names: [UInt32: String] = [
        0: "unspecified", 1: "IBSS", 2: "managed", 3: "AP", 4: "AP/VLAN", 5: "WDS", 6: "monitor", 7: "mesh point",
        8: "P2P-client", 9: "P2P-GO", 10: "P2P-device", 11: "outside context of a BSS", 12: "NAN",
    ]

    /// The name `iw dev` prints (`managed`, `AP`, `monitor`, …), or `type N` for a number this version does not know.
    public var description: String { Self.names[rawValue] ?? "type \(rawValue)" }

    /// Encodes the type as its ``description``.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
