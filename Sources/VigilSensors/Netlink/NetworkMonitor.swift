import CLinuxSupport
import Glibc
import Vigil

/// Watches the kernel's network interfaces (with their traffic counters), addresses and default routes over
/// rtnetlink, and says whether the machine is connected.
///
/// ``readings`` always holds the latest ``SensorReading`` of a ``NetworkPath``: `pending` (not connected, but not
/// "no network" either) from a start until the first dump completes.
/// ``startMonitoring()`` opens the socket, joins the link, address and route groups and returns; the event loop then
/// dumps the kernel's tables on the same socket, so no change is lost, and publishes the first complete path. After
/// that, every change the kernel announces updates the mirror, and a new path is published only when it differs from
/// the last one (a burst of messages from one `ip` command becomes few emissions, the last one current). When the
/// kernel drops messages (`ENOBUFS`), or a link comes back up (the kernel revives multipath routes through it
/// silently), the monitor dumps again and publishes the corrected path; it never keeps a stale mirror silently. Only
/// messages the kernel sent are trusted.
///
/// Traffic counters (``NetworkInterface/traffic``) come with every link message, but the kernel sends none when only
/// a counter moves; so every ``updateInterval`` while someone subscribes to ``readings``, the monitor dumps the links
/// (`RTM_GETLINK`) and takes their counters, nothing else: links, addresses and routes still change only with the
/// kernel's notifications. With no subscriber the tick sends nothing. A path whose counters moved is published like
/// any change, and once more when a refresh finds them still, so rates computed from readings fall to zero.
///
/// One contract for errors, as for every source: ``startMonitoring()`` throws only when the socket (or the namespace)
/// cannot be opened at all, and then publishes nothing and stays stopped. After a start, errors travel in-band: when
/// the socket fails (an error other than dropped messages), or the kernel keeps refusing dumps, ``readings`` gets an
/// `unavailable` reading with the error, and the monitor reopens the socket and dumps again after a delay that doubles
/// up to 30 seconds. ``readings`` never completes or fails. A released monitor stops and closes its socket.
///
/// Readings are published on the event-loop thread (the first `pending` on the thread that called
/// ``startMonitoring()``), never under a lock of the monitor. Subscribe with a queue if your handler is slow.
public final class NetworkMonitor: Source, NetlinkDriven, Sendable {
    /// The groups joined: links, IPv4 and IPv6 addresses and routes (`RTMGRP_*`).
    private static let groups = UInt32(
        RTMGRP_LINK | RTMGRP_IPV4_IFADDR | RTMGRP_IPV6_IFADDR | RTMGRP_IPV4_ROUTE | RTMGRP_IPV6_ROUTE)
    /// How many datagrams one wake-up reads before yielding the loop thread to other sources.
    private static let datagramsPerWakeup = 256
    /// How long a dump request may go unanswered before it is sent again (the kernel's answer can be lost when the
    /// receive buffer is full).
    static let dumpTimeout = Duration.seconds(5)

    struct State {
        /// The socket generation the machine mirrors; work of another generation does nothing.
        var generation: UInt64 = 0
        var machine: NetworkMonitorStateMachine?
        var lastPublished: NetworkPath?
        /// The dumps completed, counted once what they found has been published (or found unchanged).
        var settledDumps = 0
        /// The refreshes of the counters completed, counted once what they found has been published (or found
        /// unchanged).
        var settledCounterRefreshes = 0
        /// Whether the last path published had other counters than the one before it.
        var trafficMoved = false
        /// How often the counters are refreshed.
        var updateInterval: Duration
        /// The timer that refreshes the counters, of the socket generation `generation`.
        var countersTimer: EventLoop.Registration?
    }

    /// The human name of the source.
    public let name = "Network"
    /// The latest path; `pending` until the first dump after a start completes.
    public let readings = BehaviorSubject(SensorReading<NetworkPath>.pending)
    /// The network namespace watched, as a path, or `nil` for the process's own.
    public let namespace: String?

    private let receiveBufferSize: Int
    private let root: String
    /// Whether the traffic counters are refreshed on ``updateInterval``.
    let refreshesCounters: Bool
    let driver: NetlinkDriver
    let counters = NetlinkCounters()
    let state: FutexMutex<State>

    /// Creates a monitor; it does nothing until ``startMonitoring()``.
    ///
    /// - Parameters:
    ///   - namespace: A network namespace to watch instead of the process's own: `/var/run/netns/NAME` (as
    ///     `ip netns add` creates) or `/proc/PID/ns/net`. The socket is created inside it on a short-lived thread of
    ///     the monitor's own; no other thread changes namespace.
    ///   - receiveBufferSize: The socket's receive buffer in bytes. The default (8 MiB) rarely overflows; a small
    ///     one makes the kernel drop messages sooner, which the monitor repairs with a fresh dump.
    ///   - root: Where sysfs is mounted, to tell Wi-Fi from Ethernet; not consulted for another namespace,
    ///     whose interfaces sysfs does not show.
    ///   - updateInterval: How often the traffic counters are refreshed while someone subscribes; below 1 ms (zero
    ///     and negative included) it is raised to 1 ms.
    ///   - eventLoop: The loop that watches the socket.
    public convenience init(
        namespace: String? = nil, receiveBufferSize: Int = 8 << 20, root: String = "/sys",
        updateInterval: Duration = .seconds(1), eventLoop: EventLoop = .shared
    ) {
        self.init(
            namespace: namespace, receiveBufferSize: receiveBufferSize, root: root, updateInterval: updateInterval,
            eventLoop: eventLoop, refreshesCounters: true)
    }

    /// A monitor whose counters are refreshed only when `refreshesCounters`: a mirror kept for its links, addresses
    /// and routes alone (as the reach source's) would otherwise dump the links every interval and publish a new path
    /// whenever traffic flows.
    package init(
        namespace: String? = nil, receiveBufferSize: Int = 8 << 20, root: String = "/sys",
        updateInterval: Duration = .seconds(1), eventLoop: EventLoop = .shared, refreshesCounters: Bool
    ) {
        self.namespace = namespace
        self.receiveBufferSize = receiveBufferSize
        self.root = root
        self.refreshesCounters = refreshesCounters
        state = FutexMutex(State(updateInterval: updateInterval.clampedUpdateInterval))
        driver = NetlinkDriver(loop: eventLoop, bufferSize: 1 << 16)
    }

    deinit { stopMonitoring() }

    /// Whether rtnetlink (and the namespace, if one was given) can be opened here.
    public var availability: Availability {
        NetlinkAvailability.check(namespace: namespace, netlinkProtocol: NETLINK_ROUTE)
    }

    /// Whether the monitor is running (also while it waits to reopen a failed socket).
    public var isMonitoring: Bool { driver.isRunning }

    /// How often the traffic counters are refreshed while someone subscribes to ``readings``.
    public var updateInterval: Duration? { state.withLock { $0.updateInterval } }

    /// Changes how often the traffic counters are refreshed; a running monitor replaces its timer at once.
    ///
    /// - Parameter interval: The new interval, at least 1 ms.
    /// - Throws: ``SensorError/invalidArgument(name:value:reason:)`` below 1 ms; a ``SensorError`` when the event loop
    ///   refuses the new timer.
    public func setUpdateInterval(_ interval: Duration) throws(SensorError) {
        let interval = try interval.validatedUpdateInterval()
        state.withLock { $0.updateInterval = interval }
        guard let (_, generation) = driver.current else { return }
        try scheduleCounterRefresh(generation: generation)
    }

    /// Counters of what the monitor received, skipped and repaired.
    public var statistics: NetlinkStatistics { counters.snapshot }

    /// Opens the socket, joins the groups, publishes `pending` and returns; the event loop dumps the kernel's tables
    /// and publishes the first complete path. Concurrent calls start once.
    ///
    /// - Throws: ``SensorError`` when the socket or the namespace cannot be opened; the monitor then stays stopped
    ///   and has published nothing.
    public func startMonitoring() throws(SensorError) { try driver.start(self) }

    /// Stops watching and closes the socket; the last path stays in ``readings``.
    public func stopMonitoring() {
        driver.stop()
        state.withLock { $0.machine = nil }
    }

    /// Dumps the kernel's links, addresses and routes again, as after a dropped message, and publishes the path if
    /// the dump shows a change; while the dump runs the last path stays. Does nothing when stopped or while the
    /// socket is being reopened (the reopen dumps anyway). A dump already running is run again once it ends.
    ///
    /// The request is sent on the calling thread, outside the lock; the path is published on the event-loop thread.
    public func refresh() {
        guard let (socket, generation) = driver.current else { return }
        let actions = state.withLock { state -> [NetworkMonitorStateMachine.Action]? in
            guard state.generation == generation, var machine = state.machine else { return nil }
            defer { state.machine = machine }
            return machine.synchronize()
        }
        guard let actions else { return }
        do throws(SensorError) {
            try perform(actions, on: socket, generation)
        } catch {
            driver.fail(self, generation: generation, error: error)
        }
    }

    /// The monitor's current registrations with the event loop (the socket and pending timers), so tests can check
    /// that a released monitor leaves none behind.
    package var loopRegistrations: [EventLoop.Registration] { driver.registrations }

    /// How many dumps of the current socket have completed and had what they found published (or found unchanged),
    /// so tests can wait for a refresh to be over instead of sleeping.
    package var settledDumps: Int { state.withLock { $0.settledDumps } }

    /// How many refreshes of the counters of the current socket have completed and had what they found published (or
    /// found unchanged), so tests can wait for one instead of sleeping.
    package var settledCounterRefreshes: Int { state.withLock { $0.settledCounterRefreshes } }

    /// Makes the next read of the socket fail with `errno`, as if `recvmsg(2)` had, so tests can watch the monitor
    /// publish the error and recover.
    package func simulateSocketError(_ errno: Errno) { driver.simulateSocketError(errno, for: self) }

    func openSocket() throws(SensorError) -> NetlinkSocket {
        try NetlinkSocket(
            netlinkProtocol: NETLINK_ROUTE, groups: Self.groups, namespace: namespace,
            receiveBufferSize: receiveBufferSize, passCredentials: false)
    }

    /// Installs a fresh mirror for the socket and asks for the first dump; a start publishes `pending` first, before
    /// anything the socket reads is published, while a reopen keeps the unavailable reading until the dump completes.
    func socketOpened(_ socket: NetlinkSocket, generation: UInt64, isStart: Bool) throws(SensorError) {
        var machine = NetworkMonitorStateMachine(port: socket.port, sysfsRoot: namespace == nil ? root : nil)
        let actions = machine.synchronize()
        state.withLock { state in
            state.generation = generation
            state.machine = machine
            state.settledDumps = 0
            state.settledCounterRefreshes = 0
            if isStart { state.lastPublished = nil }
        }
        try scheduleCounterRefresh(generation: generation)
        if isStart { readings.publish(.pending) }
        // Links, addresses and routes may have changed unseen while the machine slept: dump again after a wake.
        driver.refreshAfterWake(generation: generation) { [weak self] in self?.refresh() }
        try perform(actions, on: socket, generation)
    }

    /// Reads what is pending, feeds the state machine under the lock, sends the requests it asks for after the lock,
    /// and publishes the path if it changed.
    func drain(_ socket: NetlinkSocket, into buffer: inout [UInt8], generation: UInt64) throws(SensorError) {
        reading: for _ in 0..<Self.datagramsPerWakeup {
            let input: Input
            switch try socket.receive(into: &buffer) {
            case .wouldBlock:
                break reading
            case .overflow:
                counters.add(.overflows)
                input = .overflow
            case .datagram(let count, let sender, let truncated):
                counters.add(.datagrams)
                if truncated {
                    // Part of the datagram is lost: treat it as dropped messages.
                    counters.add(.malformed)
                    input = .overflow
                } else {
                    let result = buffer.withUnsafeBytes { bytes in
                        RouteMessageParser.parse(UnsafeRawBufferPointer(rebasing: bytes[..<count]), from: sender)
                    }
                    counters.add(result)
                    input = .envelopes(result.envelopes)
                }
            }
            let actions = state.withLock { state -> [NetworkMonitorStateMachine.Action]? in
                guard state.generation == generation, var machine = state.machine else { return nil }
                defer { state.machine = machine }
                switch input {
                case .overflow: return machine.overflow()
                case .envelopes(let envelopes): return envelopes.flatMap { machine.receive($0) }
                }
            }
            guard let actions else { return }
            try perform(actions, on: socket, generation)
        }
        let (current, changed, dumps, refreshes) = state.withLock { state -> (Bool, NetworkPath?, Int, Int) in
            guard state.generation == generation, let machine = state.machine, let path = machine.publishablePath
            else { return (false, nil, 0, 0) }
            let (dumps, refreshes) = (machine.completedDumps, machine.completedCounterRefreshes)
            if path.hasSameContent(as: state.lastPublished) {
                // Counters that moved before and are still now: once more, so a rate falls to zero.
                guard state.trafficMoved, refreshes > state.settledCounterRefreshes else {
                    return (true, nil, dumps, refreshes)
                }
                state.trafficMoved = false
            } else {
                state.trafficMoved = !path.hasSameTraffic(as: state.lastPublished)
            }
            state.lastPublished = path
            return (true, path, dumps, refreshes)
        }
        guard current else { return }
        driver.succeeded()
        if let changed { readings.publish(SensorReading(.value(changed), time: changed.time)) }
        state.withLock { state in
            guard state.generation == generation else { return }
            state.settledDumps = max(state.settledDumps, dumps)
            state.settledCounterRefreshes = max(state.settledCounterRefreshes, refreshes)
        }
    }

    /// Publishes the failure as an unavailable reading; the mirror starts over with the reopened socket's dump.
    func socketFailed(_ error: SensorError, retryingIn delay: Duration) {
        state.withLock { state in
            state.machine = nil
            state.lastPublished = nil
        }
        readings.publish(.unavailable(reason: "\(error); trying again in \(delay)"))
    }

    /// Nothing to do: the reopened socket's dump publishes the corrected path.
    func socketReopened(generation: UInt64) {}

    /// What one datagram gave the state machine.
    private enum Input {
        case overflow
        case envelopes([RouteEnvelope])
    }
}
