/// The RFC 2863 operational status of an interface (`IFLA_OPERSTATE`, `IF_OPER_*`).
public enum OperationalStatus: UInt8, Hashable, Sendable, Encodable, CustomStringConvertible {
    /// `IF_OPER_UNKNOWN`: the driver does not report it (loopback, many virtual devices).
    case unknown = 0
    /// `IF_OPER_NOTPRESENT`: a component is missing.
    case notPresent = 1
    /// `IF_OPER_DOWN`.
    case down = 2
    /// `IF_OPER_LOWERLAYERDOWN`: a device it stacks on is down.
    case lowerLayerDown = 3
    /// `IF_OPER_TESTING`.
    case testing = 4
    /// `IF_OPER_DORMANT`: waiting for an external event.
    case dormant = 5
    /// `IF_OPER_UP`.
    case up = 6

    /// The name `ip link` prints, for example `UP` or `LOWERLAYERDOWN`.
    public var description: String {
        switch self {
        case .unknown: return "UNKNOWN"
        case .notPresent: return "NOTPRESENT"
        case .down: return "DOWN"
        case .lowerLayerDown: return "LOWERLAYERDOWN"
        case .testing: return "TESTING"
        case .dormant: return "DORMANT"
        case .up: return "UP"
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
