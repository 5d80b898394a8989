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
    /// The paths: one for an ordinary route, several for a multipath (`RTA_MULTIPATH`) route.
    public var nextHops: [NextHop]

    /// Creates a route record.
    public init(family: IPAddress.Family, table: Int = 254, metric: Int = 0, nextHops: [NextHop]) {
        self.family = family
        self.table = table
        self.metric = metric
        self.nextHops = nextHops
    }

    /// The output interfaces of all paths.
    public var interfaceIndexes: [Int] { nextHops.compactMap(\.interfaceIndex) }

    /// Whether `other` is the same kernel route for replacement purposes: family, table and metric.
    func hasSameKey(as other: DefaultRoute) -> Bool {
        family == other.family && table == other.table && metric == other.metric
    }

    /// For example `default ipv4 via 192.0.2.1 dev #2 metric 100`.
    public var description: String { description(naming: { _ in nil }) }

    /// The description with interface names from `name` where it knows them.
    func description(naming name: (Int) -> String?) -> String {
        var parts = ["default", family.description]
        parts += nextHops.map { $0.description(naming: name) }
        if metric != 0 { parts.append("metric \(metric)") }
        if table != 254 { parts.append("table \(table)") }
        return parts.joined(separator: " ")
    }
}
