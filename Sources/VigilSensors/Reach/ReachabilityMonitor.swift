import CLinuxSupport
import Glibc
import Vigil

/// Watches whether hosts can be reached, and how: for each target, the kernel's own route lookup (`RTM_GETROUTE`, as
/// `ip route get` asks it, policy rules and an optional firewall mark included), ANDed with the out-interface's
/// carrier and a usable source address from a ``NetworkMonitor``'s mirror, and an optional TCP probe.
///
/// ``readings`` holds the latest ``ReachabilityReport``: `pending` from a start until the mirror's first dump and the
/// first round of lookups complete. Every target is looked up again when the kernel announces a link, address,
/// route or policy-rule change, when the mirror changes, after a wake from a suspend, and when a name resolves anew;
/// never by polling. A report is published only when it differs from the last one.
///
/// Names resolve off the event loop on one resolver thread of the monitor's own; each answer carries its generation,
/// and a stale one is dropped. They resolve again when `resolv.conf` (or the file its symbolic link points to) is
/// replaced or changed.
///
/// A target with a port is probed with a non-blocking TCP connect whenever its route changes, bounded by
/// ``probeTimeout`` on the event loop's clock; the socket is closed on every path (answer, refusal, timeout, stop,
/// release). Its answer is reported apart from the route: "can a packet leave" and "does it answer".
///
/// Errors travel in-band as for every source: ``startMonitoring()`` throws only when a socket cannot be opened at all;
/// after that, a failed socket gives an `unavailable` reading and is reopened after a delay. Readings are published on
/// the event-loop thread (the first `pending` on the thread that starts), never under a lock of the monitor.
public final class ReachabilityMonitor: Source, NetlinkDriven, Sendable {
    /// What the lookup socket listens to: links, addresses, routes and policy rules of both families; any of them
    /// may change a route lookup's answer.
    private static let groups: UInt32 = {
        let legacy = RTMGRP_LINK | RTMGRP_IPV4_IFADDR | RTMGRP_IPV6_IFADDR | RTMGRP_IPV4_ROUTE | RTMGRP_IPV6_ROUTE
        let rules = (1 << (RTNLGRP_IPV4_RULE.rawValue - 1)) | (1 << (RTNLGRP_IPV6_RULE.rawValue - 1))
        return UInt32(legacy) | UInt32(rules)
    }()
    /// How many datagrams one wake-up reads before yielding the loop thread.
    private static let datagramsPerWakeup = 64

    /// One target's name resolution.
    enum Resolution: Hashable, Sendable {
        case pending
        case resolved([IPAddress])
        case failed(String)
    }

    struct State {
        var generation: UInt64 = 0
        /// Each target's resolution, by target index.
        var resolutions: [Resolution]
        /// Each name's resolution generation, by target index.
        var resolveGenerations: [UInt64]
        /// The mirror's latest path; nil until the first dump, and while the mirror is unavailable.
        var path: NetworkPath?
        /// The latest answer for each address looked up.
        var lookups: [IPAddress: RouteLookup] = [:]
        /// Requests of the running round, by sequence number.
        var inFlight: [UInt32: IPAddress] = [:]
        /// Something changed while a round ran: run another when it ends.
        var dirty = false
        var nextSequence: UInt32 = 1
        var completedRounds = 0
        var lastPublished: ReachabilityReport?
        var probes: [Int: TCPProbe.State] = [:]
        var nextProbeSerial: UInt64 = 0
        var subscription: Subscription?
        var resolver: HostResolver?
        var resolvConfWatch: ResolvConfWatch?
    }

    /// The human name of the source.
    public let name = "Reachability"
    /// The latest report; `pending` until the first round after a start completes.
    public let readings = BehaviorSubject(SensorReading<ReachabilityReport>.pending)
    /// The targets, in the order given.
    public let targets: [ReachTarget]
    /// The firewall mark the lookups (`ip route get ADDR mark M`) and the TCP probes carry, or nil.
    public let mark: UInt32?
    /// The network namespace watched, as a path, or nil for the process's own.
    public let namespace: String?
    /// How long a TCP probe waits for an answer.
    public let probeTimeout: Duration

    /// The mirror of links and addresses the route answers are checked against.
    let network: NetworkMonitor
    let driver: NetlinkDriver
    let state: FutexMutex<State>
    let etcRoot: String
    let lookupName: HostResolver.Lookup

    /// Creates a monitor; it does nothing until ``startMonitoring()``.
    ///
    /// - Parameters:
    ///   - targets: The hosts to watch.
    ///   - mark: A firewall mark for the lookups, as `ip route get ADDR mark M`, so `ip rule fwmark` rules apply,
    ///     and for the TCP probes' sockets (`SO_MARK`, which needs `CAP_NET_ADMIN` or `CAP_NET_RAW`; without them a
    ///     probe answers ``TCPAnswer/failed(errno:)`` with `EPERM`).
    ///   - probeTimeout: How long a TCP probe waits for an answer; 5 seconds by default.
    ///   - namespace: A network namespace path (`/var/run/netns/NAME`, `/proc/PID/ns/net`) to watch instead of the
    ///     process's own; names are resolved from a thread inside it.
    ///   - root: Where sysfs is mounted, to tell Wi-Fi from Ethernet.
    ///   - etcRoot: Where `resolv.conf` is watched, `/etc` by default.
    ///   - eventLoop: The loop that watches the sockets and runs the probe timers.
    public convenience init(
        targets: [ReachTarget], mark: UInt32? = nil, probeTimeout: Duration = .seconds(5), namespace: String? = nil,
        root: String = "/sys", etcRoot: String = "/etc", eventLoop: EventLoop = .shared
    ) {
        self.init(
            targets: targets, mark: mark, probeTimeout: probeTimeout, namespace: namespace, root: root,
            etcRoot: etcRoot, eventLoop: eventLoop, lookup: HostResolver.getAddresses)
    }

    /// Creates a monitor whose names resolve through `lookup`, so tests can stand in for the resolver.
    package init(
        targets: [ReachTarget], mark: UInt32? = nil, probeTimeout: Duration = .seconds(5), namespace: String? = nil,
        root: String = "/sys", etcRoot: String = "/etc", eventLoop: EventLoop = .shared,
        lookup: @escaping @Sendable (String) -> HostResolver.Outcome
    ) {
        self.targets = targets
        self.mark = mark
        self.probeTimeout = max(probeTimeout, .milliseconds(1))
        self.namespace = namespace
        self.etcRoot = etcRoot
        lookupName = lookup
        // Links, addresses and routes only: refreshed counters would publish a path, and so ask every lookup
        // again, every second that traffic flows.
        network = NetworkMonitor(namespace: namespace, root: root, eventLoop: eventLoop, refreshesCounters: false)
        driver = NetlinkDriver(loop: eventLoop, bufferSize: 1 << 16)
        state = FutexMutex(
            State(
                resolutions: targets.map { $0.literalAddress.map { .resolved([$0]) } ?? .pending },
                resolveGenerations: targets.map { _ in 0 }))
    }

    deinit { stopMonitoring() }

    /// Whether rtnetlink (and the namespace, if one was given) can be opened here.
    public var availability: Availability {
        NetlinkAvailability.check(namespace: namespace, netlinkProtocol: NETLINK_ROUTE)
    }

    /// Whether the monitor is running.
    public var isMonitoring: Bool { driver.isRunning }

    /// Starts the mirror and the lookup socket, publishes `pending` and returns; the first report follows on the
    /// event loop. Concurrent calls start once.
    ///
    /// - Throws: ``SensorError`` when a socket or the namespace cannot be opened; the monitor then stays stopped.
    public func startMonitoring() throws(SensorError) {
        // The lookup socket first: the mirror's first path then finds it open and starts a round.
        do {
            try driver.start(self)
        } catch {
            // The socket was opened and the resolver started before the registration failed: release them too.
            stopMonitoring()
            throw error
        }
        // What asked for a round while the socket was being opened (a name resolved) asks now.
        evaluate()
        do {
            try network.startMonitoring()
        } catch {
            stopMonitoring()
            throw error
        }
        // Subscribed once the mirror has started (published `pending`): the path of an earlier run is not replayed.
        let subscription = network.readings.subscribe { [weak self] reading in self?.networkChanged(reading) }
        let kept = state.withLock { state -> Bool in
            guard state.generation != 0, state.subscription == nil else { return false }
            state.subscription = subscription
            return true
        }
        // A concurrent start subscribed first, or a stop came meanwhile.
        if !kept { subscription.dispose() }
    }

    /// Stops the lookups, probes, resolver and mirror; the last report stays in ``readings``.
    public func stopMonitoring() {
        driver.stop()
        network.stopMonitoring()
        let (subscription, resolver, watch, probes) = state.withLock { state in
            defer {
                // No work of the ended run (a probe being set up, a round's answer) is kept or published, and the
                // next run starts from what it finds itself: no path, answer or resolution of this one.
                state.generation = 0
                state.path = nil
                state.lookups = [:]
                state.resolutions = targets.map { $0.literalAddress.map { .resolved([$0]) } ?? .pending }
                state.subscription = nil
                state.resolver = nil
                state.resolvConfWatch = nil
                state.probes = [:]
                state.inFlight = [:]
            }
            return (state.subscription, state.resolver, state.resolvConfWatch, state.probes)
        }
        subscription?.dispose()
        resolver?.close()
        watch?.stop()
        for probe in probes.values { probe.cancel() }
    }

    /// Looks every target up again now and probes the ports again (the names are not resolved again).
    public func refresh() {
        restartProbes()
        evaluate()
    }

    /// The rounds of lookups completed since the socket opened, so tests can wait instead of sleeping.
    package var completedRounds: Int { state.withLock { $0.completedRounds } }

    /// How many times each name target has been asked for (its resolution generation), so tests can wait until a
    /// change was noticed before letting an older answer through.
    package var nameRequests: [UInt64] { state.withLock { $0.resolveGenerations } }

    /// How many TCP probes have a socket open, so tests can check that every path closes it.
    package var runningProbes: Int { probeDescriptors.count }

    /// The descriptor numbers of the TCP probes' open sockets, so tests can check that a release closes them.
    package var probeDescriptors: [Int32] {
        state.withLock { $0.probes.values.compactMap { $0.descriptor?.rawValue } }
    }

    /// The monitor's current registrations with the event loop, so tests can check that a released monitor leaves
    /// none behind.
    package var loopRegistrations: [EventLoop.Registration] {
        driver.registrations + network.loopRegistrations
            + state.withLock { $0.probes.values.compactMap(\.registration) }
    }

    // MARK: NetlinkDriven

    func openSocket() throws(SensorError) -> NetlinkSocket {
        try NetlinkSocket(
            netlinkProtocol: NETLINK_ROUTE, groups: Self.groups, namespace: namespace, receiveBufferSize: 1 << 20,
            passCredentials: false)
    }

    func socketOpened(_ socket: NetlinkSocket, generation: UInt64, isStart: Bool) throws(SensorError) {
        state.withLock { state in
            state.generation = generation
            state.inFlight = [:]
            state.dirty = false
            state.completedRounds = 0
            if isStart { state.lastPublished = nil }
        }
        if isStart { readings.publish(.pending) }
        driver.refreshAfterWake(generation: generation) { [weak self] in self?.evaluate() }
        if isStart { try startResolving() }
        // The driver keeps the socket once this returns: the first round goes out on it directly.
        evaluate(on: (socket, generation))
    }

    func drain(_ socket: NetlinkSocket, into buffer: inout [UInt8], generation: UInt64) throws(SensorError) {
        var changed = false
        var answered: [RouteLookup.Reply] = []
        reading: for _ in 0..<Self.datagramsPerWakeup {
            switch try socket.receive(into: &buffer) {
            case .wouldBlock:
                break reading
            case .overflow:
                // Answers or notifications were lost: ask every lookup again.
                state.withLock { $0.inFlight = [:] }
                changed = true
            case .datagram(let count, let sender, let truncated):
                guard sender.isKernel else { continue }
                if truncated {
                    // Perhaps an answer, cut: the kernel answers every lookup once, so a lost one is asked again (a
                    // round never waits on a timer for what overflow or truncation already said was lost).
                    state.withLock { $0.inFlight = [:] }
                    changed = true
                    continue
                }
                let parsed = buffer.withUnsafeBytes { bytes in
                    RouteLookup.parse(UnsafeRawBufferPointer(rebasing: bytes[..<count]), port: socket.port)
                }
                answered += parsed.replies
                if parsed.notified { changed = true }
            }
        }
        if !answered.isEmpty { receive(answered, generation: generation) }
        if changed { evaluate() }
    }

    func socketFailed(_ error: SensorError, retryingIn delay: Duration) {
        state.withLock { state in
            state.inFlight = [:]
            state.lastPublished = nil
        }
        readings.publish(.unavailable(reason: "\(error); trying again in \(delay)"))
    }

    /// The driver keeps the reopened socket now: a round asked for while it opened goes out.
    func socketReopened(generation: UInt64) { evaluate() }

    // MARK: Rounds

    /// Starts a round of lookups for every resolved address, or marks the running one to be followed by another.
    func evaluate() {
        guard let current = driver.current else { return }
        evaluate(on: current)
    }

    private func evaluate(on current: (socket: NetlinkSocket, generation: UInt64)) {
        let (socket, generation) = current
        let requests = state.withLock { state -> [(UInt32, IPAddress)]? in
            guard state.generation == generation else { return nil }
            guard state.inFlight.isEmpty else {
                state.dirty = true
                return nil
            }
            state.dirty = false
            var addresses: [IPAddress] = []
            for case .resolved(let list) in state.resolutions {
                for address in list where !addresses.contains(address) { addresses.append(address) }
            }
            var requests: [(UInt32, IPAddress)] = []
            for address in addresses {
                let sequence = state.nextSequence
                state.nextSequence = sequence == UInt32.max ? 1 : sequence + 1
                state.inFlight[sequence] = address
                requests.append((sequence, address))
            }
            return requests
        }
        guard let requests else { return }
        guard !requests.isEmpty else {
            roundEnded(generation: generation)
            return
        }
        do throws(SensorError) {
            for (sequence, address) in requests {
                try socket.send(RouteLookup.requestBytes(for: address, mark: mark, sequence: sequence))
            }
        } catch {
            driver.fail(self, generation: generation, error: error)
        }
    }

    private func receive(_ replies: [RouteLookup.Reply], generation: UInt64) {
        let ended = state.withLock { state -> Bool in
            guard state.generation == generation, !state.inFlight.isEmpty else { return false }
            for reply in replies {
                guard let address = state.inFlight.removeValue(forKey: reply.sequence) else { continue }
                state.lookups[address] = reply.lookup
            }
            return state.inFlight.isEmpty
        }
        if ended { roundEnded(generation: generation) }
    }

    /// Publishes the report when it changed, starts the probes it calls for, and runs the next round if one is due.
    private func roundEnded(generation: UInt64) {
        let (report, again) = state.withLock { state -> (ReachabilityReport?, Bool) in
            guard state.generation == generation else { return (nil, false) }
            state.completedRounds += 1
            return (state.path == nil ? nil : Self.report(state, targets: targets), state.dirty)
        }
        if let report { publishIfChanged(report) }
        if again { evaluate() }
    }

    /// Publishes `report` unless it says what the last one said; starts the TCP probes whose route changed.
    ///
    /// The first report after a start (or after the source was unavailable) waits for its probes, at most
    /// ``probeTimeout``, so a single reading (`vigil get`) says whether the ports answer.
    func publishIfChanged(_ report: ReachabilityReport) {
        let publishes = state.withLock { state -> Bool? in
            guard !report.hasSameContent(as: state.lastPublished) else { return nil }
            if state.lastPublished == nil && report.targets.contains(where: { $0.tcp == .probing }) { return false }
            state.lastPublished = report
            return true
        }
        guard let publishes else { return }
        if publishes { readings.publish(SensorReading(.value(report), time: report.time)) }
        probeChangedTargets(report)
    }

    /// The report the state gives now (the path must be known).
    static func report(_ state: State, targets: [ReachTarget]) -> ReachabilityReport {
        let answers = targets.indices.map { index in
            let target = targets[index]
            var answer: TargetReachability
            switch state.resolutions[index] {
            case .pending:
                answer = TargetReachability(target: target, problem: .resolving)
            case .failed(let reason):
                answer = TargetReachability(target: target, problem: .dnsFailed(reason: reason))
            case .resolved(let addresses):
                let verdicts = addresses.map { address in
                    (address, state.lookups[address].map { verdict($0, path: state.path ?? NetworkPath()) })
                }
                let chosen = verdicts.first { $0.1?.problem == nil && $0.1?.route != nil } ?? verdicts.first
                answer = TargetReachability(
                    target: target, address: chosen?.0, addresses: addresses, route: chosen?.1?.route,
                    problem: chosen.map { $0.1 == nil ? ReachProblem.resolving : $0.1?.problem } ?? .noRoute)
            }
            if target.port != nil, answer.isReachable, let address = answer.address, let route = answer.route {
                let probe = state.probes[index]
                answer.tcp = probe?.key == probeKey(address, route) ? probe?.answer ?? .probing : .probing
            }
            return answer
        }
        return ReachabilityReport(targets: answers)
    }

    /// What a TCP probe probes: a change of address or route starts a new one.
    static func probeKey(_ address: IPAddress, _ route: ReachRoute) -> String { "\(address) \(route)" }

    /// What the kernel's answer and the mirror say about one address.
    static func verdict(_ lookup: RouteLookup, path: NetworkPath) -> (route: ReachRoute?, problem: ReachProblem?) {
        let answer: RouteLookup.Answer
        switch lookup {
        case .error(let errno):
            switch errno.rawValue {
            case ENETUNREACH: return (nil, .noRoute)
            case EHOSTUNREACH: return (nil, .unreachableRoute)
            case EACCES: return (nil, .prohibitedRoute)
            case EINVAL: return (nil, .blackholed)
            default: return (nil, .lookupFailed(errno: errno))
            }
        case .route(let found):
            answer = found
        }
        switch answer.type {
        case .unreachable: return (nil, .unreachableRoute)
        case .prohibit: return (nil, .prohibitedRoute)
        case .blackhole: return (nil, .blackholed)
        case .throw: return (nil, .noRoute)
        default: break
        }
        guard let index = answer.interfaceIndex else { return (nil, .noRoute) }
        let interface = path.interface(index: index)
        let name = interface?.name ?? "#\(index)"
        let route = ReachRoute(
            type: answer.type, gateway: answer.gateway, interface: name, interfaceIndex: index,
            medium: interface.map(LinkMedium.init) ?? .other, sourceAddress: answer.sourceAddress, table: answer.table)
        guard let interface, interface.isUp else { return (route, .interfaceDown(interface: name)) }
        guard answer.type == .local || interface.hasCarrier else { return (route, .noCarrier(interface: name)) }
        // A packet that leaves needs a source beyond this host: while the interface's own address is tentative the
        // kernel offers a loopback one (`src ::1`), which no peer can answer.
        let usable =
            answer.sourceAddress.map { source in
                path.interfaces.contains { candidate in
                    candidate.addresses.contains { address in
                        address.address == source && address.isUsable
                            && (answer.type == .local || address.scope.rawValue < AddressScope.host.rawValue)
                    }
                }
            } ?? false
        guard usable else { return (route, .noUsableSourceAddress(interface: name)) }
        return (route, nil)
    }

    // MARK: The mirror

    private func networkChanged(_ reading: SensorReading<NetworkPath>) {
        switch reading.status {
        case .pending:
            state.withLock { $0.path = nil }
        case .unavailable(let reason):
            let running = state.withLock { state -> Bool in
                guard state.generation != 0 else { return false }
                state.path = nil
                state.lastPublished = nil
                return true
            }
            guard running else { return }
            readings.publish(.unavailable(reason: "network: \(reason)"))
        case .value(let path):
            // Counters moved by traffic change no answer: only links, addresses and routes ask the lookups again.
            let changed = state.withLock { state -> Bool in
                guard state.generation != 0 else { return false }
                defer { state.path = path }
                return !path.hasSameState(as: state.path)
            }
            if changed { evaluate() }
        }
    }
}

extension ReachabilityReport {
    /// Whether the answers are the same (the time aside).
    func hasSameContent(as other: ReachabilityReport?) -> Bool { targets == other?.targets }
}
