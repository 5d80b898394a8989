/// A one-word summary of an interface, in the spirit of systemd-networkd's operational state.
public enum LinkState: String, Hashable, Sendable, Comparable, Encodable, CustomStringConvertible {
    /// Administratively down.
    case off
    /// Up, but no carrier.
    case noCarrier = "no-carrier"
    /// Up, waiting for an external event (802.1X, …).
    case dormant
    /// Carrier, but no usable address beyond host scope.
    case carrier
    /// Carrier and a usable link-local or site address, no global one.
    case degraded
    /// Carrier and a usable global address.
    case routable

    public var description: String { rawValue }

    private var order: Int {
        switch self {
        case .off: return 0
        case .noCarrier: return 1
        case .dormant: return 2
        case .carrier: return 3
        case .degraded: return 4
        case .routable: return 5
        }
    }

    public static func < (lhs: LinkState, rhs: LinkState) -> Bool { lhs.order < rhs.order }
}
