import CLinuxSupport

/// The decisions of ``NetworkMonitor``: which dump to request next, which messages belong to it, and when the mirror
/// is complete enough to publish.
///
/// A dump runs links, then addresses, then routes, each as one request on the same socket that already listens to
/// the groups, so no change between them is lost. Its replies go into a fresh `staging` mirror; notifications go into
/// both mirrors. When the route dump ends, `staging` becomes `live`. A dump the kernel marks interrupted
/// (`NLM_F_DUMP_INTR`), or during which the kernel dropped messages (`ENOBUFS`), is run again from the start. While a
/// dump runs after an overflow, nothing is published: the live mirror may be stale. When a link comes up or gets
/// carrier back, the tables are dumped again, since the kernel revives multipath routes through it silently.
struct NetworkMonitorStateMachine {
    /// One request of a dump, or the refresh of the traffic counters (a link dump of its own).
    enum Step: CaseIterable {
        case links, addresses, routes, counters

        /// The requests of a full dump, in order.
        static let fullDump: [Step] = [.links, .addresses, .routes]

        /// The `RTM_GET*` type and the size of the family header that follows `nlmsghdr`.
        var request: (type: UInt16, headerSize: Int) {
            switch self {
            case .links, .counters: return (UInt16(RTM_GETLINK), 16)
            case .addresses: return (UInt16(RTM_GETADDR), 8)
            case .routes: return (UInt16(RTM_GETROUTE), 12)
            }
        }
    }

    /// What the monitor must do after a decision.
    enum Action: Equatable {
        /// Send this dump request.
        case request(Step, sequence: UInt32)
        /// The kernel refused dumps too often; give up with this errno.
        case fail(errno: Int32)
    }

    private struct Dump {
        var step: Step
        var sequence: UInt32
        var interrupted = false
        /// For a refresh of the counters: the refreshes asked for since, while it went unanswered.
        var skippedRefreshes = 0
    }

    /// The dump restarts this many times in a row after kernel errors before the monitor fails.
    static let failureLimit = 5

    /// How many refreshes of the counters an unanswered one holds back before it is given up and sent again. Its
    /// replies are lost only with dropped messages, which give it up at once (``overflow()``); this is the backstop,
    /// patient enough that a slow dump at a 1 ms interval is not abandoned for a new one that the kernel, still
    /// dumping, refuses.
    static let counterRefreshPatience = 5

    /// `EBUSY`, which the kernel answers to a dump request while another dump runs on the same socket.
    static let busy: Int32 = 16

    private(set) var live: NetworkMirror
    private var staging: NetworkMirror?
    private var dump: Dump?
    private var redoAfterDump = false
    private var nextSequence: UInt32 = 1
    private var failures = 0
    /// How many dumps ran to their end.
    private(set) var completedDumps = 0
    /// How many refreshes of the counters ran to their end.
    private(set) var completedCounterRefreshes = 0
    private let port: UInt32
    private let sysfsRoot: String?

    init(port: UInt32, sysfsRoot: String?) {
        self.port = port
        self.sysfsRoot = sysfsRoot
        live = NetworkMirror(sysfsRoot: sysfsRoot)
    }

    /// Whether a dump is running (the live mirror is not yet, or no longer, known to be complete).
    var isSynchronizing: Bool { staging != nil }

    /// The path to publish, or `nil` while a dump runs.
    var publishablePath: NetworkPath? { staging == nil ? live.path : nil }

    /// The sequence number of the dump request awaiting replies, if any.
    var pendingSequence: UInt32? { dump?.sequence }

    /// Abandons the running dump (its answer never came) and starts a fresh one.
    mutating func restart() -> [Action] { begin() }

    /// Dumps the links again for their traffic counters (the kernel announces no change of a counter), unless a dump
    /// or refresh is running: a full dump brings the counters too. Only the counters of the replies are taken.
    ///
    /// A refresh has no watchdog timer of its own (the next one is due soon anyway): one that went unanswered through
    /// ``counterRefreshPatience`` later calls is given up for a new one, or for the full dump asked for meanwhile.
    mutating func refreshCounters() -> [Action] {
        guard var current = dump else { return request(.counters) }
        guard current.step == .counters else { return [] }
        current.skippedRefreshes += 1
        guard current.skippedRefreshes > Self.counterRefreshPatience else {
            dump = current
            return []
        }
        return redoAfterDump ? begin() : request(.counters)
    }

    /// Starts a full dump, or, if one is running, makes it start over when it ends.
    mutating func synchronize() -> [Action] {
        guard dump == nil else {
            redoAfterDump = true
            return []
        }
        return begin()
    }

    /// The kernel dropped messages: the live mirror may be stale, so rebuild it.
    mutating func overflow() -> [Action] {
        if staging == nil { staging = NetworkMirror(sysfsRoot: sysfsRoot) }
        // A refresh of the counters may have lost its end: give it up, the full dump brings the counters too.
        if dump?.step == .counters { dump = nil }
        return synchronize()
    }

    /// Handles one message from the kernel.
    mutating func receive(_ envelope: RouteEnvelope) -> [Action] {
        let header = envelope.header
        guard header.port == port, header.sequence != 0 else {
            let revives = revivesRoutes(envelope.message)
            live.apply(envelope.message)
            staging?.apply(envelope.message)
            return revives ? synchronize() : []
        }
        // A reply to one of our requests: the running dump's, or a leftover of an abandoned one.
        guard var current = dump, header.sequence == current.sequence else { return [] }
        if header.isDumpInterrupted { current.interrupted = true }
        dump = current
        if current.step == .counters { return receiveCounters(envelope.message) }
        switch envelope.message {
        case .done:
            if current.interrupted || redoAfterDump { return begin() }
            guard let index = Step.fullDump.firstIndex(of: current.step), index + 1 < Step.fullDump.count else {
                live = staging ?? live
                staging = nil
                dump = nil
                failures = 0
                completedDumps += 1
                return []
            }
            return request(Step.fullDump[index + 1])
        case .error(let errno):
            guard errno != 0 else { return [] }
            // EBUSY: the kernel is still running an earlier dump on this socket (one whose end we lost in an
            // overflow). That is no failure: its replies drain as we read, and the request's watchdog asks again.
            guard errno != Self.busy else { return [] }
            failures += 1
            if failures > Self.failureLimit {
                dump = nil
                return [.fail(errno: errno)]
            }
            return begin()
        default:
            staging?.apply(envelope.message)
            return []
        }
    }

    /// Handles one reply of a refresh of the counters: an interrupted one is not run again (the next refresh comes
    /// soon), and an error ends it without counting as a failed dump.
    private mutating func receiveCounters(_ message: RouteMessage) -> [Action] {
        switch message {
        case .newLink(let link):
            live.updateTraffic(from: link)
            staging?.updateTraffic(from: link)
            return []
        case .done:
            completedCounterRefreshes += 1
            return endCounters()
        case .error(let errno) where errno != 0 && errno != Self.busy:
            return endCounters()
        default:
            return []
        }
    }

    /// Ends a refresh of the counters; a full dump asked for meanwhile starts now.
    private mutating func endCounters() -> [Action] {
        dump = nil
        return redoAfterDump ? begin() : []
    }

    /// Whether `message` brings a known link up, or gives it carrier or operational state again. The kernel then revives the multipath
    /// paths through it (`fib_sync_up`, `rt6_sync_up`) without announcing them, so only a fresh dump shows them.
    private func revivesRoutes(_ message: RouteMessage) -> Bool {
        guard case .newLink(let link) = message, let old = live.linkFlags(index: link.index) else { return false }
        // IPv4 revives a path when its link comes up; IPv6 once the link is operational (carrier, `IFF_RUNNING`).
        let gained = link.flags.subtracting(old)
        return !gained.isDisjoint(with: [.up, .lowerUp, .running])
    }

    private mutating func begin() -> [Action] {
        staging = NetworkMirror(sysfsRoot: sysfsRoot)
        redoAfterDump = false
        return request(.links)
    }

    private mutating func request(_ step: Step) -> [Action] {
        let sequence = nextSequence
        nextSequence = nextSequence == UInt32.max ? 1 : nextSequence + 1
        dump = Dump(step: step, sequence: sequence)
        return [.request(step, sequence: sequence)]
    }

    /// The bytes of a dump request: `nlmsghdr` with `NLM_F_REQUEST | NLM_F_DUMP`, then a zeroed family header
    /// (family `AF_UNSPEC`: every family).
    static func requestBytes(_ step: Step, sequence: UInt32) -> [UInt8] {
        let (type, headerSize) = step.request
        let length = UInt32(NetlinkMessageHeader.size + headerSize)
        let flags = UInt16(NLM_F_REQUEST | NLM_F_DUMP)
        var bytes: [UInt8] = []
        for value in [length] { withUnsafeBytes(of: value) { bytes += $0 } }
        for value in [type, flags] { withUnsafeBytes(of: value) { bytes += $0 } }
        for value in [sequence, UInt32(0)] { withUnsafeBytes(of: value) { bytes += $0 } }
        return bytes + [UInt8](repeating: 0, count: headerSize)
    }
}
