import CLinuxSupport
import Glibc
import Vigil

/// Watches the kernel's network interfaces, addresses and default routes over rtnetlink, and says whether the
/// machine is connected.
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
/// One contract for errors, as for every source: ``startMonitoring()`` throws only when the socket (or the namespace)
/// cannot be opened at all, and then publishes nothing and stays stopped. After a start, errors travel in-band: when
/// the socket fails (an error other than dropped messages), or the kernel keeps refusing dumps, ``readings`` gets an
/// `unavailable` reading with the error, and the monitor reopens the socket and dumps again after a delay that doubles
/// up to 30 seconds. ``readings`` never completes or fails. A released monitor stops and closes its socket.
///
/// Readings are published on the event-loop thread (the first `pending` on the thread that called
/// ``startMonitoring()``), never under a lock of the monitor. Subscribe with a queue if your handler is slow.
public final class NetworkMonitor: Source, Sendable {
    /// The groups joined: links, IPv4 and IPv6 addresses and routes (`RTMGRP_*`).
    private static let groups = UInt32(
        RTMGRP_LINK | RTMGRP_IPV4_IFADDR | RTMGRP_IPV6_IFADDR | RTMGRP_IPV4_ROUTE | RTMGRP_IPV6_ROUTE)
    /// How many datagrams one wake-up reads before yielding the loop thread to other sources.
    private static let datagramsPerWakeup = 256
    /// How long a dump request may go unanswered before it is sent again (the kernel's answer can be lost when the
    /// receive buffer is full).
    static let dumpTimeout = Duration.seconds(5)

    struct State {
        var isRunning = false
        /// Counts starts, stops and reopens; a loop callback of an older generation does nothing.
        var generation: UInt64 = 0
        var socket: NetlinkSocket?
        var registration: EventLoop.Registration?
        /// One-shot timers: watchdogs that resend an unanswered dump request, and the reopen after a failure. All
        /// are cancelled on stop.
        var timers: [EventLoop.Registration] = []
        var machine: NetworkMonitorStateMachine?
        var lastPublished: NetworkPath?
        /// The receive buffer, taken out by the loop thread while it reads.
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var backoff = RetryBackoff()
        /// An error the next read reports instead of reading (``simulateSocketError(_:)``).
        var injectedError: Errno?
    }

    /// The human name of the source.
    public let name = "Network"
    /// The latest path; `pending` until the first dump after a start completes.
    public let readings = BehaviorSubject(SensorReading<NetworkPath>.pending)
    /// The network namespace watched, as a path, or `nil` for the process's own.
    public let namespace: String?

    private let receiveBufferSize: Int
    private let root: String
    let loop: EventLoop
    let counters = NetlinkCounters()
    let state = FutexMutex(State())

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
    ///   - eventLoop: The loop that watches the socket.
    public init(
        namespace: String? = nil, receiveBufferSize: Int = 8 << 20, root: String = "/sys",
        eventLoop: EventLoop = .shared
    ) {
        self.namespace = namespace
        self.receiveBufferSize = receiveBufferSize
        self.root = root
        self.loop = eventLoop
    }

    deinit { stopMonitoring() }

    /// Whether rtnetlink (and the namespace, if one was given) can be opened here.
    public var availability: Availability {
        NetlinkAvailability.check(namespace: namespace, netlinkProtocol: NETLINK_ROUTE)
    }

    /// Whether the monitor is running (also while it waits to reopen a failed socket).
    public var isMonitoring: Bool { state.withLock { $0.isRunning } }

    /// Counters of what the monitor received, skipped and repaired.
    public var statistics: NetlinkStatistics { counters.snapshot }

    /// Opens the socket, joins the groups, publishes `pending` and returns; the event loop dumps the kernel's tables
    /// and publishes the first complete path. Concurrent calls start once.
    ///
    /// - Throws: ``SensorError`` when the socket or the namespace cannot be opened; the monitor then stays stopped
    ///   and has published nothing.
    public func startMonitoring() throws(SensorError) {
        let generation: UInt64? = state.withLock { state in
            guard !state.isRunning else { return nil }
            state.isRunning = true
            state.generation &+= 1
            state.lastPublished = nil
            state.backoff.reset()
            return state.generation
        }
        guard let generation else { return }
        do throws(SensorError) {
            try open(generation, announcing: true)
        } catch {
            state.withLock { state in
                if state.generation == generation { state.isRunning = false }
            }
            throw error
        }
    }

    /// Stops watching and closes the socket; the last path stays in ``readings``.
    public func stopMonitoring() {
        let (registration, timers, socket) = state.withLock { state in
            state.isRunning = false
            state.generation &+= 1
            defer {
                state.registration = nil
                state.timers = []
                state.socket = nil
                state.machine = nil
            }
            return (state.registration, state.timers, state.socket)
        }
        registration?.cancel()
        for timer in timers { timer.cancel() }
        socket?.close()
    }

    /// Dumps the kernel's links, addresses and routes again, as after a dropped message, and publishes the path if
    /// the dump shows a change; while the dump runs the last path stays. Does nothing when stopped or while the
    /// socket is being reopened (the reopen dumps anyway). A dump already running is run again once it ends.
    ///
    /// The request is sent on the calling thread, outside the lock; the path is published on the event-loop thread.
    public func refresh() {
        let decided = state.withLock { state -> (NetlinkSocket, UInt64, [NetworkMonitorStateMachine.Action])? in
            guard state.isRunning, let socket = state.socket, var machine = state.machine else { return nil }
            defer { state.machine = machine }
            return (socket, state.generation, machine.synchronize())
        }
        guard let (socket, generation, actions) = decided else { return }
        do throws(SensorError) {
            try perform(actions, on: socket, generation)
        } catch {
            handleFailure(generation, error)
        }
    }

    /// The monitor's current registrations with the event loop (the socket and pending timers), so tests can check
    /// that a released monitor leaves none behind.
    package var loopRegistrations: [EventLoop.Registration] {
        state.withLock { state in (state.registration.map { [$0] } ?? []) + state.timers }
    }

    /// Makes the next read of the socket fail with `errno`, as if `recvmsg(2)` had, so tests can watch the monitor
    /// publish the error and recover.
    package func simulateSocketError(_ errno: Errno) {
        let generation: UInt64? = state.withLock { state in
            guard state.socket != nil else { return nil }
            state.injectedError = errno
            return state.generation
        }
        guard let generation else { return }
        do throws(SensorError) {
            try addTimer(generation, loop.schedule(after: .zero) { [weak self] in self?.handleReadable(generation) })
        } catch {
            handleFailure(generation, error)
        }
    }

    /// Opens a socket for `generation`, registers it with the loop and asks for the first dump.
    ///
    /// - Parameter announcing: Publish `pending` once the socket is open, before anything it reads is published (a
    ///   start); a reopen keeps the unavailable reading until the dump completes.
    func open(_ generation: UInt64, announcing: Bool = false) throws(SensorError) {
        let socket = try NetlinkSocket(
            netlinkProtocol: NETLINK_ROUTE, groups: Self.groups, namespace: namespace,
            receiveBufferSize: receiveBufferSize, passCredentials: false)
        if announcing { readings.publish(.pending) }
        var machine = NetworkMonitorStateMachine(port: socket.port, sysfsRoot: namespace == nil ? root : nil)
        let actions = machine.synchronize()
        let installed = state.withLock { state in
            guard state.isRunning, state.generation == generation, state.socket == nil else { return false }
            state.socket = socket
            state.machine = machine
            return true
        }
        guard installed else {
            socket.close()
            return
        }
        let registration: EventLoop.Registration
        do throws(SensorError) {
            registration = try loop.register(fileDescriptor: socket.rawValue, interest: .readable) {
                [weak self] _ in self?.handleReadable(generation)
            }
        } catch {
            state.withLock { state in
                if state.socket === socket {
                    state.socket = nil
                    state.machine = nil
                }
            }
            socket.close()
            throw error
        }
        let kept = state.withLock { state in
            guard state.generation == generation, state.socket === socket else { return false }
            state.registration = registration
            return true
        }
        guard kept else {
            registration.cancel()
            return
        }
        do throws(SensorError) {
            try perform(actions, on: socket, generation)
        } catch {
            handleFailure(generation, error)
        }
    }

    /// Reads what is pending (outside the lock), feeds the state machine under the lock, sends the requests it asks
    /// for after the lock, and publishes the path if it changed.
    private func handleReadable(_ generation: UInt64) {
        let taken = state.withLock { state -> (NetlinkSocket, [UInt8], Errno?)? in
            guard state.generation == generation, let socket = state.socket else { return nil }
            defer {
                state.buffer = []
                state.injectedError = nil
            }
            return (socket, state.buffer, state.injectedError)
        }
        guard let (socket, taken, injected) = taken else { return }
        var buffer = taken.isEmpty ? [UInt8](repeating: 0, count: 1 << 16) : taken
        defer {
            let buffer = buffer
            state.withLock { state in state.buffer = buffer }
        }
        do throws(SensorError) {
            if let injected { throw SensorError.from(injected, call: "recvmsg", path: socket.target) }
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
        } catch {
            handleFailure(generation, error)
            return
        }
        let path = state.withLock { state -> NetworkPath? in
            guard state.generation == generation, let path = state.machine?.publishablePath else { return nil }
            state.backoff.reset()
            guard !path.hasSameContent(as: state.lastPublished) else { return nil }
            state.lastPublished = path
            return path
        }
        if let path { readings.publish(SensorReading(.value(path), time: path.time)) }
    }

    /// What one datagram gave the state machine.
    private enum Input {
        case overflow
        case envelopes([RouteEnvelope])
    }
}
