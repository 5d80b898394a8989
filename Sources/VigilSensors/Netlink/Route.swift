/// A unicast route outside the `local` table, as `RTM_NEWROUTE` reports it: a default route (destination `0.0.0.0/0`
/// or `::/0`) or one to a narrower destination.
public struct Route: Hashable, Sendable, Encodable, CustomStringConvertible {
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
    /// The destination network (`RTA_DST`), all zeros for a default route.
    public var destination: IPAddress
    /// The destination's prefix length (`rtm_dst_len`), 0 for a default route.
    public var prefixLength: Int
    /// The routing table (`RTA_TABLE` or `rtm_table`), 254 for `main`.
    public var table: Int
    /// The metric (`RTA_PRIORITY`); lower wins.
    public var metric: Int
    /// The IPv4 type of service the route is for (`rtm_tos`), 0 for any; always 0 for IPv6.
    public var typeOfService: Int
    /// The paths: one for an ordinary route, several for a multipath (`RTA_MULTIPATH`) route.
    public var nextHops: [NextHop]

    /// Creates a route record.
    ///
    /// - Parameters:
    ///   - family: The address family.
    ///   - destination: The destination network; the default route's (all zeros) when `nil` or of another family.
    ///   - prefixLength: The destination's prefix length, 0 for a default route.
    ///   - table: The routing table, `main` (254) by default.
    ///   - metric: The metric.
    ///   - typeOfService: The IPv4 type of service, 0 for any.
    ///   - nextHops: The paths.
    public init(
        family: IPAddress.Family, destination: IPAddress? = nil, prefixLength: Int = 0, table: Int = 254,
        metric: Int = 0, typeOfService: Int = 0, nextHops: [NextHop]
    ) {
        self.family = family
        self.destination =
            destination.flatMap { $0.family == family ? $0 : nil }
            ?? IPAddress(family: family, bytes: [UInt8](repeating: 0, count: family.byteCount))!
        self.prefixLength = prefixLength
        self.table = table
        self.metric = metric
        self.typeOfService = typeOfService
        self.nextHops = nextHops
    }

    /// Whether this is a default route (prefix length 0).
    public var isDefault: Bool { prefixLength == 0 }

    /// The output interfaces of all paths.
    public var interfaceIndexes: [Int] { nextHops.compactMap(\.interfaceIndex) }

    /// Whether `other` has the kernel's key of this route: what `NLM_F_REPLACE` replaces and what a delete matches.
    ///
    /// IPv4 keys a fib alias by destination, type of service, priority and table; IPv6 keys a fib6 entry by
    /// destination, source, metric and table (Vigil reads source-specific IPv6 routes as plain ones).
    func hasSameKey(as other: Route) -> Bool {
        family == other.family && destination == other.destination && prefixLength == other.prefixLength
            && table == other.table && metric == other.metric && typeOfService == other.typeOfService
    }

    /// Whether the kernel merges this IPv6 route with another of the same key into one multipath route: every path
    /// has a gateway (`rt6_qualify_for_ecmp`).
    var isMultipathCapable: Bool { family == .ipv6 && nextHops.allSatisfy { $0.gateway != nil } }

    /// For example `default ipv4 via 192.0.2.1 dev #2 metric 100` or `10.1.0.0/16 via 10.0.0.254 dev #2`.
    public var description: String { description(naming: { _ in nil }) }

    /// The description with interface names from `name` where it knows them.
    func description(naming name: (Int) -> String?) -> String {
        var parts = isDefault ? ["default", family.description] : ["\(destination)/\(prefixLength)"]
        parts += nextHops.map { $0.description(naming: name) }
        if typeOfService != 0 { parts.append("tos \(typeOfService)") }
        if metric != 0 { parts.append("metric \(metric)") }
        if table != 254 { parts.append("table \(table)") }
        return parts.joined(separator: " ")
    }
}

/// The name ``Route`` had while Vigil mirrored default routes only; ``NetworkPath/defaultRoutes`` still holds just
/// those.
public typealias DefaultRoute = Route
