/// Why a packet to a target cannot leave, in words a user can act on.
public enum ReachProblem: Hashable, Sendable, Encodable, CustomStringConvertible {
    /// The name is being resolved.
    case resolving
    /// The name did not resolve; `reason` is the resolver's (`gai_strerror(3)`).
    case dnsFailed(reason: String)
    /// No route matches (`ENETUNREACH`, or a `throw` route with no rule after it that matches).
    case noRoute
    /// An `unreachable` route matches (`EHOSTUNREACH`).
    case unreachableRoute
    /// A `prohibit` route matches (`EACCES`).
    case prohibitedRoute
    /// A `blackhole` route matches (`EINVAL`): packets are dropped silently.
    case blackholed
    /// The route's interface is down.
    case interfaceDown(interface: String)
    /// The route's interface has no carrier (cable out, peer down, not associated).
    case noCarrier(interface: String)
    /// No usable source address: none of the family, or only tentative or duplicate ones.
    case noUsableSourceAddress(interface: String)
    /// The kernel refused the lookup with another error.
    case lookupFailed(errno: Errno)

    /// For example `no route`, `no carrier on eth0`, `DNS failed: Name or service not known`.
    public var description: String {
        switch self {
        case .resolving: return "resolving"
        case .dnsFailed(let reason): return "DNS failed: \(reason)"
        case .noRoute: return "no route"
        case .unreachableRoute: return "unreachable route"
        case .prohibitedRoute: return "prohibited route"
        case .blackholed: return "blackholed"
        case .interfaceDown(let interface): return "\(interface) is down"
        case .noCarrier(let interface): return "no carrier on \(interface)"
        case .noUsableSourceAddress(let interface): return "no usable source address on \(interface)"
        case .lookupFailed(let errno): return "route lookup failed: \(errno)"
        }
    }

    /// A short stable word for metrics and automations: `resolving`, `dns_failed`, `no_route`, `unreachable_route`,
    /// `prohibited_route`, `blackholed`, `interface_down`, `no_carrier`, `no_source_address` or `lookup_failed`.
    public var code: String {
        switch self {
        case .resolving: return "resolving"
        case .dnsFailed: return "dns_failed"
        case .noRoute: return "no_route"
        case .unreachableRoute: return "unreachable_route"
        case .prohibitedRoute: return "prohibited_route"
        case .blackholed: return "blackholed"
        case .interfaceDown: return "interface_down"
        case .noCarrier: return "no_carrier"
        case .noUsableSourceAddress: return "no_source_address"
        case .lookupFailed: return "lookup_failed"
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// How a packet to a target leaves: the kernel's route, its interface and the source address.
public struct ReachRoute: Hashable, Sendable, Encodable, CustomStringConvertible {
    /// The route's type.
    public var type: RouteType
    /// The gateway, or nil when the target is on a directly attached network (or local).
    public var gateway: IPAddress?
    /// The output interface's name (`lo` for a local address).
    public var interface: String
    /// The output interface's index.
    public var interfaceIndex: Int
    /// What the interface is.
    public var medium: LinkMedium
    /// The source address the kernel would use.
    public var sourceAddress: IPAddress?
    /// The routing table the route came from (254 is `main`, 255 `local`).
    public var table: Int

    /// Creates a route description.
    public init(
        type: RouteType, gateway: IPAddress?, interface: String, interfaceIndex: Int, medium: LinkMedium,
        sourceAddress: IPAddress?, table: Int
    ) {
        self.type = type
        self.gateway = gateway
        self.interface = interface
        self.interfaceIndex = interfaceIndex
        self.medium = medium
        self.sourceAddress = sourceAddress
        self.table = table
    }

    /// Whether the target is on a directly attached network: no gateway.
    public var isDirect: Bool { gateway == nil }
    /// Whether the target is an address of this machine.
    public var isLocal: Bool { type == .local }

    /// For example `via 10.0.0.1 dev eth0 (wired) src 10.0.0.5` or `direct dev wlan0 (wi-fi) src 192.168.1.20`.
    public var description: String {
        var parts = [isLocal ? "local" : gateway.map { "via \($0)" } ?? "direct", "dev \(interface) (\(medium))"]
        if let sourceAddress { parts.append("src \(sourceAddress)") }
        if table != 254 && table != 255 { parts.append("table \(table)") }
        if type != .unicast && type != .local { parts.append(type.description) }
        return parts.joined(separator: " ")
    }

    private enum CodingKeys: String, CodingKey {
        case type, direct, gateway, interface, interfaceIndex, medium, local, sourceAddress, table
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(type, forKey: .type)
        try container.encode(isDirect, forKey: .direct)
        try container.encodeIfPresent(gateway, forKey: .gateway)
        try container.encode(interface, forKey: .interface)
        try container.encode(interfaceIndex, forKey: .interfaceIndex)
        try container.encode(medium, forKey: .medium)
        try container.encode(isLocal, forKey: .local)
        try container.encodeIfPresent(sourceAddress, forKey: .sourceAddress)
        try container.encode(table, forKey: .table)
    }
}

/// What a TCP connect to a target's port answered: "does it answer", apart from "can a packet leave".
public enum TCPAnswer: Hashable, Sendable, Encodable, CustomStringConvertible {
    /// The connect is under way.
    case probing
    /// The connect completed: something listens.
    case answered
    /// The connect was refused (`ECONNREFUSED`: nothing listens, or a reject rule answered).
    case refused
    /// No answer came before the probe's timeout (a drop rule, a host that is down).
    case timedOut
    /// The connect failed otherwise (`ENETUNREACH`, `EHOSTUNREACH`, …).
    case failed(errno: Errno)

    /// For example `TCP answered`, `TCP refused`, `TCP timed out`.
    public var description: String {
        switch self {
        case .probing: return "TCP probing"
        case .answered: return "TCP answered"
        case .refused: return "TCP refused"
        case .timedOut: return "TCP timed out"
        case .failed(let errno): return "TCP failed: \(errno)"
        }
    }

    /// `probing`, `answered`, `refused`, `timed_out` or `failed`.
    public var code: String {
        switch self {
        case .probing: return "probing"
        case .answered: return "answered"
        case .refused: return "refused"
        case .timedOut: return "timed_out"
        case .failed: return "failed"
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(code)
    }
}

/// Whether one target can be reached, and how or why not.
public struct TargetReachability: Hashable, Sendable, Encodable, CustomStringConvertible {
    /// The target as given.
    public var target: ReachTarget
    /// The address the answer is about: the first reachable one of those the name resolved to, else the first.
    public var address: IPAddress?
    /// Every address the name resolved to (the literal itself for an address).
    public var addresses: [IPAddress]
    /// How a packet leaves, when the kernel has a route.
    public var route: ReachRoute?
    /// Why a packet cannot leave; nil when it can.
    public var problem: ReachProblem?
    /// What a TCP connect to the target's port answered; nil without a port.
    public var tcp: TCPAnswer?

    /// Creates an answer.
    public init(
        target: ReachTarget, address: IPAddress? = nil, addresses: [IPAddress] = [], route: ReachRoute? = nil,
        problem: ReachProblem? = nil, tcp: TCPAnswer? = nil
    ) {
        self.target = target
        self.address = address
        self.addresses = addresses
        self.route = route
        self.problem = problem
        self.tcp = tcp
    }

    /// Whether a packet to the target can leave: a route, an interface up with carrier, a usable source address.
    public var isReachable: Bool { problem == nil && route != nil }

    /// For example `example.org:443 (93.184.216.34): reachable via 10.0.0.1 dev eth0 (wired) src 10.0.0.5, TCP
    /// answered` or `10.0.0.1: not reachable: no carrier on eth0`.
    public var description: String {
        var text = target.description
        if let address, address.description != target.host { text += " (\(address))" }
        if let route, problem == nil {
            text += ": reachable " + route.description
        } else {
            text += ": not reachable: " + (problem?.description ?? "no route")
        }
        if let tcp { text += ", " + tcp.description }
        return text
    }

    private enum CodingKeys: String, CodingKey {
        case target, reachable, address, addresses, route, problem, problemCode, tcp
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(target, forKey: .target)
        try container.encode(isReachable, forKey: .reachable)
        try container.encodeIfPresent(address, forKey: .address)
        try container.encode(addresses, forKey: .addresses)
        try container.encodeIfPresent(route, forKey: .route)
        try container.encodeIfPresent(problem, forKey: .problem)
        try container.encodeIfPresent(problem?.code, forKey: .problemCode)
        try container.encodeIfPresent(tcp, forKey: .tcp)
    }
}

/// What a ``ReachabilityMonitor`` publishes: every target's answer, in the order given.
public struct ReachabilityReport: Hashable, Sendable, Encodable, CustomStringConvertible {
    /// The targets' answers, in the order the targets were given.
    public var targets: [TargetReachability]
    /// When the report was taken.
    public var time: ReadingTime

    /// Creates a report.
    public init(targets: [TargetReachability], time: ReadingTime = .now()) {
        self.targets = targets
        self.time = time
    }

    /// The answers joined by `; `.
    public var description: String { targets.map(\.description).joined(separator: "; ") }

    /// The answer for the target written as `text` (`example.org:443`), if it is watched.
    public func target(_ text: String) -> TargetReachability? { targets.first { $0.target.description == text } }

    private enum CodingKeys: String, CodingKey { case targets, time }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(targets, forKey: .targets)
        try container.encode(time, forKey: .time)
    }
}
