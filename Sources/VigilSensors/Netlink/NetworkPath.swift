/// A snapshot of the machine's network: every interface with its addresses, every route, and the answer to "am I
/// connected?".
///
/// A ``NetworkMonitor`` publishes paths as the values of its ``SensorReading``s, like every state source: the reading
/// is `pending` until the monitor's first dump of the kernel's tables completes, and `unavailable` with a reason while
/// it cannot read the kernel; neither is connected, and neither says "no network".
///
/// ``time`` is when the path was taken: when the monitor's mirror changed (the reading carries the same time). A
/// monitor publishes a path only when something other than its time differs from the last one (traffic counters
/// included), and once more after a refresh of the counters finds them still, so a rate computed from two readings
/// falls to zero instead of staying at the last one.
public struct NetworkPath: Hashable, Sendable, Encodable, CustomStringConvertible {
    /// Every interface, in index order.
    public var interfaces: [NetworkInterface]
    /// Every unicast route (IPv4 and IPv6, any table but `local`), IPv4 first, then by metric, table and
    /// destination.
    public var routes: [Route]
    /// Routes left out of ``routes`` because the mirror holds at most ``routeLimit`` routes that are not default
    /// routes (a router with a full BGP table has about a million): 0 on every ordinary machine. Default routes are
    /// always kept, so ``status`` never depends on this.
    public var omittedRoutes: Int
    /// When the path was published: when the mirror it reflects changed.
    public var time: ReadingTime

    /// Creates a path from interfaces and routes.
    ///
    /// - Parameters:
    ///   - interfaces: The interfaces, with their addresses.
    ///   - routes: The routes, default or not.
    ///   - omittedRoutes: Routes left out of `routes` for the limit.
    ///   - time: When the path was taken; now by default.
    public init(
        interfaces: [NetworkInterface] = [], routes: [Route] = [], omittedRoutes: Int = 0, time: ReadingTime = .now()
    ) {
        self.interfaces = interfaces
        self.routes = routes
        self.omittedRoutes = omittedRoutes
        self.time = time
    }

    /// The most routes other than default routes a ``NetworkMonitor`` keeps; more are counted in ``omittedRoutes``.
    public static let routeLimit = 4096

    /// The default routes among ``routes``, in the same order: the ones ``status`` looks at.
    public var defaultRoutes: [Route] { routes.filter(\.isDefault) }

    /// Whether this path says the same as `other`: everything but the time is equal.
    func hasSameContent(as other: NetworkPath?) -> Bool {
        guard let other else { return false }
        return interfaces == other.interfaces && routes == other.routes && omittedRoutes == other.omittedRoutes
    }

    /// Whether this path says the same as `other` about links, addresses and routes: all but the time and the
    /// traffic counters and rates, which move with every packet.
    func hasSameState(as other: NetworkPath?) -> Bool {
        guard let other, routes == other.routes, omittedRoutes == other.omittedRoutes else { return false }
        return interfaces.elementsEqual(other.interfaces) { $0.withoutTraffic == $1.withoutTraffic }
    }

    /// Whether every interface of this path has the same traffic counters as in `other`.
    func hasSameTraffic(as other: NetworkPath?) -> Bool {
        guard let other else { return false }
        return interfaces.elementsEqual(other.interfaces) { $0.index == $1.index && $0.traffic == $1.traffic }
    }

    /// The interface with this index, if any.
    public func interface(index: Int) -> NetworkInterface? { interfaces.first { $0.index == index } }

    /// The interface with this name, if any.
    public func interface(named name: String) -> NetworkInterface? { interfaces.first { $0.name == name } }

    /// The interfaces that satisfy the path: up with carrier, a usable global address, and a default route of that
    /// address's family out through them.
    public var connectedInterfaces: [NetworkInterface] {
        let defaultRoutes = defaultRoutes
        return interfaces.filter { interface in
            let families = Self.routableFamilies(of: interface)
            return defaultRoutes.contains { route in
                families.contains(route.family) && route.interfaceIndexes.contains(interface.index)
            }
        }
    }

    /// Whether the machine can reach the network, and if not, the first missing condition.
    public var status: NetworkStatus {
        let candidates = interfaces.filter { $0.kind != .loopback && !$0.flags.contains(.loopback) }
        let up = candidates.filter(\.isUp)
        guard !up.isEmpty else { return .unsatisfied(reason: .noInterfaceUp) }
        let carrying = up.filter(\.hasCarrier)
        guard !carrying.isEmpty else { return .unsatisfied(reason: .noCarrier) }
        guard carrying.contains(where: { !Self.routableFamilies(of: $0).isEmpty }) else {
            return .unsatisfied(reason: .noRoutableAddress)
        }
        return connectedInterfaces.isEmpty ? .unsatisfied(reason: .noDefaultRoute) : .satisfied
    }

    /// Whether ``status`` is ``NetworkStatus/satisfied``.
    public var isConnected: Bool { status == .satisfied }

    private static func routableFamilies(of interface: NetworkInterface) -> Set<IPAddress.Family> {
        guard interface.kind != .loopback, interface.isUp, interface.hasCarrier else { return [] }
        return Set(interface.addresses.filter { $0.isUsable && $0.scope == .global }.map(\.address.family))
    }

    /// For example `satisfied via eth0; lo: carrier; eth0: routable 192.0.2.10/24; default ipv4 via 192.0.2.1 dev eth0`
    /// (the default routes only: the rest would drown the summary); an interface with ``NetworkInterface/rates`` ends
    /// with them (`eth0: routable 192.0.2.10/24 rx 1.2 kB/s 10 pkt/s, tx 300 B/s 3 pkt/s`).
    public var description: String {
        var parts: [String] = [status.description]
        let connected = connectedInterfaces.map(\.name)
        if !connected.isEmpty { parts[0] += " via " + connected.joined(separator: ",") }
        for interface in interfaces {
            let addresses = interface.addresses.map { $0.address.description + "/" + String($0.prefixLength) }
            let rates = interface.rates.map { [$0.description] } ?? []
            parts.append(
                ([interface.name + ": " + interface.state.description] + addresses + rates).joined(separator: " "))
        }
        for route in defaultRoutes {
            parts.append(route.description(naming: { index in self.interface(index: index)?.name }))
        }
        if omittedRoutes > 0 { parts.append("\(omittedRoutes) more routes not kept") }
        return parts.joined(separator: "; ")
    }

    private enum CodingKeys: String, CodingKey {
        case status, isConnected, interfaces, defaultRoutes, routes, omittedRoutes, time
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(status, forKey: .status)
        try container.encode(isConnected, forKey: .isConnected)
        try container.encode(interfaces, forKey: .interfaces)
        try container.encode(defaultRoutes, forKey: .defaultRoutes)
        try container.encode(routes, forKey: .routes)
        if omittedRoutes > 0 { try container.encode(omittedRoutes, forKey: .omittedRoutes) }
        try container.encode(time, forKey: .time)
    }
}
