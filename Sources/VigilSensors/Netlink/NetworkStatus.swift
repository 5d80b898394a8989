/// Whether the machine can reach the network, in the spirit of `NWPath.Status`.
public enum NetworkStatus: Hashable, Sendable, Encodable, CustomStringConvertible {
    /// Why the status is unsatisfied; the first condition that is not met, in order.
    public enum Reason: String, Hashable, Sendable, Encodable, CustomStringConvertible {
        /// No interface other than loopback is administratively up.
        case noInterfaceUp = "no interface is up"
        /// Interfaces are up but none has carrier.
        case noCarrier = "no interface has carrier"
        /// No interface with carrier has a usable (non-tentative) global address.
        case noRoutableAddress = "no interface with carrier has a usable global address"
        /// No default route goes out through an interface that has carrier and a global address of its family.
        case noDefaultRoute = "no default route through a connected interface"

        public var description: String { rawValue }
    }

    /// Some non-loopback interface is up with carrier, holds a usable global address, and a default route of that
    /// address's family goes out through it.
    case satisfied
    /// Not connected; `reason` says which condition is missing.
    case unsatisfied(reason: Reason)

    public var description: String {
        switch self {
        case .satisfied: return "satisfied"
        case .unsatisfied(let reason): return "unsatisfied (\(reason))"
        }
    }

    private enum CodingKeys: String, CodingKey { case status, reason }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .satisfied:
            try container.encode("satisfied", forKey: .status)
        case .unsatisfied(let reason):
            try container.encode("unsatisfied", forKey: .status)
            try container.encode(reason, forKey: .reason)
        }
    }
}
