/// How far an address or route reaches (`RT_SCOPE_*`, rtnetlink(7)).
public struct AddressScope: RawRepresentable, Hashable, Sendable, Comparable, Encodable, CustomStringConvertible {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// `RT_SCOPE_UNIVERSE`: global, routable.
    public static let global = AddressScope(rawValue: 0)
    /// `RT_SCOPE_SITE`: inside the site (deprecated IPv6 site-local).
    public static let site = AddressScope(rawValue: 200)
    /// `RT_SCOPE_LINK`: on this link only (link-local).
    public static let link = AddressScope(rawValue: 253)
    /// `RT_SCOPE_HOST`: this host only (loopback).
    public static let host = AddressScope(rawValue: 254)
    /// `RT_SCOPE_NOWHERE`: nowhere.
    public static let nowhere = AddressScope(rawValue: 255)

    public var description: String {
        switch self {
        case .global: return "global"
        case .site: return "site"
        case .link: return "link"
        case .host: return "host"
        case .nowhere: return "nowhere"
        default: return String(rawValue)
        }
    }

    public static func < (lhs: AddressScope, rhs: AddressScope) -> Bool { lhs.rawValue < rhs.rawValue }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
