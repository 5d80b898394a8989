import CLinuxSupport
import Glibc
import Vigil

/// Watches the kernel's network interfaces, addresses and default routes over rtnetlink, and says whether the
/// machine is connected.
///
/// ``readings`` always holds the latest ``NetworkPath``. ``startMonitoring()`` joins the link, address and route
/// groups and then dumps the kernel's tables on the same socket, so no change is lost; it returns once the first
/// complete path is published. After that, every change the kernel announces updates the mirror, and a new path is
/// published only when it differs from the last one (a burst of messages from one `ip` command becomes few
/// emissions, the last one current). When the kernel drops messages (`ENOBUFS`), the monitor dumps again and
/// publishes the corrected path; it never keeps a stale mirror silently. Only messages the kernel sent are trusted.
///
/// Readings are published on the event-loop thread (and, for the first path, on the thread that called
/// ``startMonitoring()``), never under a lock of the monitor. Subscribe with a queue if your handler is slow.
/// If the socket fails for good (an error other than dropped messages), ``readings`` fails with the
/// ``SensorError`` and the monitor stops.
public final class NetworkMonitor: Source, Sendable {
    /// The groups joined: links, IPv4 and IPv6 addresses and routes (`RTMGRP_*`).
    private static let groups = UInt32(
        RTMGRP_LINK | RTMGRP_IPV4_IFADDR | RTMGRP_IPV6_IFADDR | RTMGRP_IPV4_ROUTE | RTMGRP_IPV6_ROUTE)
    /// How many datagrams one wake-up reads before yielding the loop thread to other sources.
    private static let datagramsPerWakeup = 256
    /// How long ``startMonitoring()`` waits for the first complete dump.
    private static let startTimeoutMilliseconds = 10_000
    /// How long a dump request may go unanswered before it is sent again (the kernel's answer can be lost when the
    /// receive buffer is full).
    private static let dumpTimeout = Duration.seconds(5)

    private struct State {
        var socket: NetlinkSocket?
        var registration: EventLoop.Registration?
        /// One-shot timers that resend an unanswered dump request; all are cancelled on stop.
        var watchdogs: [EventLoop.Registration] = []
        var machine: NetworkMonitorStateMachine?
        var lastPublished: NetworkPath?
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
    }

    /// The human name of the source.
    public let name = "Network"
    /// The latest path; ``NetworkPath/init(interfaces:defaultRoutes:)`` (empty) until the monitor first starts.
    public let readings = BehaviorSubject(NetworkPath())
    /// The network namespace watched, as a path, or `nil` for the process's own.
    public let namespace: String?

    private let receiveBufferSize: Int
    private let sysfsRoot: String
    private let loop: EventLoop
    private let counters = NetlinkCounters()
    private let state = Mutex(State())

    /// Creates a monitor; it does nothing until ``startMonitoring()``.
    ///
    /// - Parameters:
    ///   - namespace: A network namespace to watch instead of the process's own: `/var/run/netns/NAME` (as
    ///     `ip netns add` creates) or `/proc/PID/ns/net`. The socket is created inside it on a short-lived thread of
    ///     the monitor's own; no other thread changes namespace.
    ///   - receiveBufferSize: The socket's receive buffer in bytes. The default (8 MiB) rarely overflows; a small
    ///     one makes the kernel drop messages sooner, which the monitor repairs with a fresh dump.
    ///   - sysfsRoot: Where sysfs is mounted, to tell Wi-Fi from Ethernet; not consulted for another namespace,
    ///     whose interfaces sysfs does not show.
    ///   - eventLoop: The loop that watches the socket.
    public init(
        namespace: String? = nil, receiveBufferSize: Int = 8 << 20, sysfsRoot: String = "/sys",
        eventLoop: EventLoop = .shared
    ) {
        self.namespace = namespace
        self.receiveBufferSize = receiveBufferSize
        self.sysfsRoot = sysfsRoot
        self.loop = eventLoop
    }

    /// Whether rtnetlink (and the namespace, if one was given) can be opened here.
    public var availability: Availability {
        NetlinkAvailability.check(namespace: namespace, netlinkProtocol: NETLINK_ROUTE)
    }

    /// Whether the monitor is running.
    public var isMonitoring: Bool { state.withLock { $0.socket != nil } }

    /// Counters of what the monitor received, skipped and repaired.
    public var statistics: NetlinkStatistics { counters.snapshot }

    /// Opens the socket, joins the groups, dumps the kernel's tables and publishes the first path.
    ///
    /// - Throws: ``SensorError`` when the socket or the namespace cannot be opened, or the first dump does not
    ///   complete within 10 seconds.
    public func startMonitoring() throws {
        let started = try state.withLock { state throws(SensorError) -> (NetlinkSocket, NetworkPath)? in
            guard state.socket == nil else { return nil }
            let socket = try NetlinkSocket(
                netlinkProtocol: NETLINK_ROUTE, groups: Self.groups, namespace: namespace,
                receiveBufferSize: receiveBufferSize, passCredentials: false)
            var machine = NetworkMonitorStateMachine(port: socket.port, sysfsRoot: namespace == nil ? sysfsRoot : nil)
            let actions = machine.synchronize()
            state.socket = socket
            state.machine = machine
            state.lastPublished = nil
            do throws(SensorError) {
                try perform(actions, on: socket, &state)
                try synchronize(&state, socket: socket)
            } catch {
                socket.close()
                state.socket = nil
                state.machine = nil
                throw error
            }
            return state.lastPublished.map { (socket, $0) }
        }
        guard let (socket, path) = started else { return }
        readings.publish(path)
        try state.withLock { state throws(SensorError) in
            guard state.socket === socket, state.registration == nil else { return }
            do throws(SensorError) {
                state.registration = try loop.register(fileDescriptor: socket.rawValue, interest: .readable) {
                    [weak self] _ in self?.handleReadable()
                }
            } catch {
                socket.close()
                state.socket = nil
                state.machine = nil
                throw error
            }
        }
    }

    /// Stops watching and closes the socket; the last path stays in ``readings``.
    public func stopMonitoring() {
        let (registration, watchdogs, socket) = state.withLock { state in
            defer {
                state.registration = nil
                state.watchdogs = []
                state.socket = nil
                state.machine = nil
            }
            return (state.registration, state.watchdogs, state.socket)
        }
        registration?.cancel()
        for watchdog in watchdogs { watchdog.cancel() }
        socket?.close()
    }

    /// Reads the first dump synchronously, so the first path is complete when ``startMonitoring()`` returns.
    private func synchronize(_ state: inout State, socket: NetlinkSocket) throws(SensorError) {
        var waited = 0
        while state.machine?.isSynchronizing == true {
            guard waited < Self.startTimeoutMilliseconds else {
                throw SensorError.unavailable(source: socket.target, reason: "the kernel did not complete a dump")
            }
            var descriptor = pollfd(fd: socket.rawValue, events: Int16(POLLIN), revents: 0)
            _ = poll(&descriptor, 1, 100)
            waited += 100
            _ = try drain(&state)
        }
        _ = try drain(&state)
    }

    private func handleReadable() {
        let outcome = state.withLock { state -> Result<NetworkPath?, SensorError> in
            Result { () throws(SensorError) -> NetworkPath? in try drain(&state) }
        }
        deliver(outcome)
    }

    /// Sends the dump again if the request with `sequence` is still unanswered.
    private func checkDump(sequence: UInt32) {
        let outcome = state.withLock { state -> Result<NetworkPath?, SensorError> in
            Result { () throws(SensorError) -> NetworkPath? in
                guard let socket = state.socket, var machine = state.machine, machine.pendingSequence == sequence
                else { return nil }
                let actions = machine.restart()
                state.machine = machine
                try perform(actions, on: socket, &state)
                return nil
            }
        }
        deliver(outcome)
    }

    private func deliver(_ outcome: Result<NetworkPath?, SensorError>) {
        switch outcome {
        case .success(let path):
            if let path { readings.publish(path) }
        case .failure(let error):
            stopMonitoring()
            readings.fail(error)
        }
    }

    /// Reads what is pending, feeds the state machine, sends the requests it asks for, and returns the path to
    /// publish, if it changed.
    private func drain(_ state: inout State) throws(SensorError) -> NetworkPath? {
        guard let socket = state.socket, var machine = state.machine else { return nil }
        defer { state.machine = machine }
        for _ in 0..<Self.datagramsPerWakeup {
            var actions: [NetworkMonitorStateMachine.Action] = []
            switch try socket.receive(into: &state.buffer) {
            case .wouldBlock:
                return publishable(machine, &state)
            case .overflow:
                counters.add(.overflows)
                actions = machine.overflow()
            case .datagram(let count, let sender, let truncated):
                counters.add(.datagrams)
                if truncated {
                    // Part of the datagram is lost: treat it as dropped messages.
                    counters.add(.malformed)
                    actions = machine.overflow()
                } else {
                    let result = state.buffer.withUnsafeBytes { bytes in
                        RouteMessageParser.parse(UnsafeRawBufferPointer(rebasing: bytes[..<count]), from: sender)
                    }
                    counters.add(result)
                    for envelope in result.envelopes { actions += machine.receive(envelope) }
                }
            }
            state.machine = machine
            try perform(actions, on: socket, &state)
        }
        return publishable(machine, &state)
    }

    private func publishable(_ machine: NetworkMonitorStateMachine, _ state: inout State) -> NetworkPath? {
        guard let path = machine.publishablePath, path != state.lastPublished else { return nil }
        state.lastPublished = path
        return path
    }

    /// Sends the requests the state machine asked for, each watched by a one-shot timer that resends the dump if no
    /// answer comes; an expired timer whose request was answered does nothing.
    private func perform(
        _ actions: [NetworkMonitorStateMachine.Action], on socket: NetlinkSocket, _ state: inout State
    ) throws(SensorError) {
        for action in actions {
            switch action {
            case .request(let step, let sequence):
                if step == .links { counters.add(.dumps) }
                try socket.send(NetworkMonitorStateMachine.requestBytes(step, sequence: sequence))
                // Fired one-shot timers are unregistered already; keep only those still pending.
                state.watchdogs.removeAll { $0.isCancelled }
                state.watchdogs.append(
                    try loop.schedule(after: Self.dumpTimeout) { [weak self] in
                        self?.checkDump(sequence: sequence)
                    })
            case .fail(let errno):
                throw SensorError.systemCall(
                    name: "rtnetlink dump", target: socket.target, errno: Errno(rawValue: errno))
            }
        }
    }
}
