import CLinuxSupport

/// The type of a route the kernel chose (`rtm_type`, the `RTN_*` values of `linux/rtnetlink.h`).
public enum RouteType: Hashable, Sendable, Encodable, CustomStringConvertible {
    /// An ordinary route to a gateway or a directly attached network.
    case unicast
    /// An address of this machine.
    case local
    /// A broadcast address of an attached network.
    case broadcast
    /// An anycast address of this machine.
    case anycast
    /// A multicast route.
    case multicast
    /// A route that drops packets silently.
    case blackhole
    /// A route that answers "host unreachable".
    case unreachable
    /// A route that answers "communication administratively prohibited".
    case prohibit
    /// A route that sends the lookup on to the next policy rule.
    case `throw`
    /// Any other `RTN_*` value, kept as the number.
    case other(UInt8)

    /// Maps an `RTN_*` value.
    public init(rawValue: UInt8) {
        switch Int(rawValue) {
        case Int(RTN_UNICAST): self = .unicast
        case Int(RTN_LOCAL): self = .local
        case Int(RTN_BROADCAST): self = .broadcast
        case Int(RTN_ANYCAST): self = .anycast
        case Int(RTN_MULTICAST): self = .multicast
        case Int(RTN_BLACKHOLE): self = .blackhole
        case Int(RTN_UNREACHABLE): self = .unreachable
        case Int(RTN_PROHIBIT): self = .prohibit
        case Int(RTN_THROW): self = .throw
        default: self = .other(rawValue)
        }
    }

    /// The name `ip route` prints, for example `unicast` or `blackhole`.
    public var description: String {
        switch self {
        case .unicast: return "unicast"
        case .local: return "local"
        case .broadcast: return "broadcast"
        case .anycast: return "anycast"
        case .multicast: return "multicast"
        case .blackhole: return "blackhole"
        case .unreachable: return "unreachable"
        case .prohibit: return "prohibit"
        case .throw: return "throw"
        case .other(let value): return "type \(value)"
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
