/// A default route (destination `0.0.0.0/0` or `::/0`), as `RTM_NEWROUTE` reports it.
public struct DefaultRoute: Hashable, Sendable, Encodable, CustomStringConvertible {
    /// One path of a route: an output interface and, unless the route is on-link, a gateway.
    public struct NextHop: Hashable, Sendable, Encodable, CustomStringConvertible {
        /// The gateway (`RTA_GATEWAY`); `nil` for an on-link route.
        public var gateway: IPAddress?
        /// The output interface index (`RTA_OIF` or the nexthop's `rtnh_ifindex`); `nil` when not given.
        public var interfaceIndex: Int?
        /// The weight of this path in a multipath route (`rtnh_hops + 1`); 1 for a single path.
        public var weight: Int

        /// Creates a path.
        public init(gateway: IPAddress?, interfaceIndex: Int?, weight: Int = 1) {
            self.gateway = gateway
            self.interfaceIndex = interfaceIndex
            self.weight = weight
        }

        /// For example `via 192.0.2.1 dev #2`.
        public var description: String { description(naming: { _ in nil }) }

        /// Whether `other` is the same path of a route (gateway and interface; the weight may differ).
        func isSamePath(as other: NextHop) -> Bool {
            gateway == other.gateway && interfaceIndex == other.interfaceIndex
        }

        func description(naming name: (Int) -> String?) -> String {
            var parts: [String] = []
            if let gateway { parts.append("via \(gateway)") }
            if let interfaceIndex { parts.append("dev " + (name(interfaceIndex) ?? "#\(interfaceIndex)")) }
            if weight != 1 { parts.append("weight \(weight)") }
            return parts.joined(separator: " ")
        }
    }

    /// The address family of the route.
    public var family: IPAddress.Family
    /// The routing table (`RTA_TABLE` or `rtm_table`), 254 for `main`.
    public var table: Int
    /// The metric (`RTA_PRIORITY`); lower wins.
    public var metric: Int
    /// The IPv4 type of service the route is for (`rtm_tos`), 0 for any; always 0 for IPv6.
    public var typeOfService: Int
    /// The paths: one for an ordinary route, several for a multipath (`RTA_MULTIPATH`) route.
    public var nextHops: [NextHop]

    /// Creates a route record.
    public init(
        family: IPAddress.Family, table: Int = 254, metric: Int = 0, typeOfService: Int = 0, nextHops: [NextHop]
    ) {
        self.family = family
        self.table = table
        self.metric = metric
        self.typeOfService = typeOfService
        self.nextHops = nextHops
    }

    /// The output interfaces of all paths.
    public var interfaceIndexes: [Int] { nextHops.compactMap(\.interfaceIndex) }

    /// Whether `other` has the kernel's key of this route: what `NLM_F_REPLACE` replaces and what a delete matches.
    ///
    /// The destination is always the default one. IPv4 keys a fib alias by destination, type of service, priority
    /// and table; IPv6 keys a fib6 entry by destination, source, metric and table (Vigil reads source-specific
    /// IPv6 default routes as plain ones).
    func hasSameKey(as other: DefaultRoute) -> Bool {
        family == other.family && table == other.table && metric == other.metric
            && typeOfService == other.typeOfService
    }

    /// Whether the kernel merges this IPv6 route with another of the same key into one multipath route: every path
    /// has a gateway (`rt6_qualify_for_ecmp`).
    var isMultipathCapable: Bool { family == .ipv6 && nextHops.allSatisfy { $0.gateway != nil } }

    /// For example `default ipv4 via 192.0.2.1 dev #2 metric 100`.
    public var description: String { description(naming: { _ in nil }) }

    /// The description with interface names from `name` where it knows them.
    func description(naming name: (Int) -> String?) -> String {
        var parts = ["default", family.description]
        parts += nextHops.map { $0.description(naming: name) }
        if typeOfService != 0 { parts.append("tos \(typeOfService)") }
        if metric != 0 { parts.append("metric \(metric)") }
        if table != 254 { parts.append("table \(table)") }
        return parts.joined(separator: " ")
    }
}
