import CLinuxSupport
import Vigil

/// Watches Wi-Fi through nl80211: the wireless interfaces, the network each station is connected to, the link's
/// statistics, and what the kernel announces (connect, disconnect, roam, new scan results, interfaces added and
/// removed).
///
/// ``readings`` holds the latest ``WiFiStatus``: `pending` from a start until the first read. The monitor resolves the
/// `nl80211` generic netlink family and its `mlme`, `scan` and `config` groups by name (their numbers differ between
/// machines), listens to them, and re-reads the interfaces (`NL80211_CMD_GET_INTERFACE`), the associated access point
/// (`NL80211_CMD_GET_SCAN`: its SSID, BSSID, frequency and signal) and the station statistics
/// (`NL80211_CMD_GET_STATION`: signal, average signal, bitrates, connected time) after each such event. The
/// statistics change without events, so they are polled every ``updateInterval``, and only while someone subscribes
/// to ``readings``. Only unprivileged reads are made; the monitor never changes the radio's configuration (no scan is
/// triggered, no signal threshold set). Only messages the kernel sent are trusted.
///
/// A machine without a Wi-Fi driver has no nl80211 family (cfg80211 is not loaded): ``availability`` says so, and
/// ``startMonitoring()`` throws. After a start, errors travel in-band as an `unavailable` reading and the monitor
/// reopens its sockets after a delay that doubles up to 30 seconds. A released monitor stops and closes its sockets.
///
/// Readings are published on the event-loop thread (the first `pending` on the thread that called
/// ``startMonitoring()``), never under a lock of the monitor.
public final class WiFiMonitor: Source, NetlinkDriven, Sendable {
    private static let datagramsPerWakeup = 256

    private struct State {
        var generation: UInt64 = 0
        /// The request client and the family of the current generation (set by ``openSocket()``, taken by
        /// ``socketOpened(_:generation:isStart:)``).
        var opened: (client: GenericNetlinkClient, family: GenericNetlinkFamily)?
        var current: (client: GenericNetlinkClient, family: GenericNetlinkFamily)?
        var interval: Duration
        var pollTimer: EventLoop.Registration?
        var lastEvent: WiFiEvent?
        var lastPublished: SensorReading<WiFiStatus>.Status?
        var publishesEveryRead = false
        /// Reads completed for the current generation, so tests can wait for one.
        var reads = 0
    }

    /// The human name of the source.
    public let name = "Wi-Fi"
    /// The latest status; `pending` until the first read after a start.
    public let readings = BehaviorSubject(SensorReading<WiFiStatus>.pending)
    /// The events the kernel announces, as they come (also reflected in ``WiFiStatus/lastEvent``).
    public let events = PublishSubject<WiFiEvent>()
    /// The network namespace watched, as a path, or `nil` for the process's own.
    public let namespace: String?

    private let driver: NetlinkDriver
    private let makeClient: @Sendable () throws(SensorError) -> GenericNetlinkClient
    private let joinsGroups: Bool
    private let state: FutexMutex<State>

    /// Creates a monitor; it does nothing until ``startMonitoring()``.
    ///
    /// - Parameters:
    ///   - namespace: A network namespace (`/var/run/netns/NAME`, `/proc/PID/ns/net`) whose wireless interfaces to
    ///     watch, or `nil` for the process's own.
    ///   - updateInterval: How often the station statistics are read while someone subscribes (below 1 ms is raised
    ///     to 1 ms).
    ///   - eventLoop: The loop that watches the socket and runs the timer.
    public convenience init(
        namespace: String? = nil, updateInterval: Duration = .seconds(5), eventLoop: EventLoop = .shared
    ) {
        self.init(
            namespace: namespace, updateInterval: updateInterval, eventLoop: eventLoop, joinsGroups: true,
            client: { () throws(SensorError) in try GenericNetlinkClient.open(namespace: namespace) })
    }

    /// Creates a monitor whose requests go through the clients `client` makes (a replay in tests); `joinsGroups`
    /// false leaves the event socket out of every group, for events injected with ``inject(datagram:from:)``.
    package init(
        namespace: String?, updateInterval: Duration, eventLoop: EventLoop, joinsGroups: Bool,
        client: @escaping @Sendable () throws(SensorError) -> GenericNetlinkClient
    ) {
        self.namespace = namespace
        self.joinsGroups = joinsGroups
        makeClient = client
        driver = NetlinkDriver(loop: eventLoop, bufferSize: GenericNetlinkClient.bufferSize)
        state = FutexMutex(State(interval: updateInterval.clampedUpdateInterval))
    }

    deinit { stopMonitoring() }

    /// Whether nl80211 can be reached here: unavailable for a ``UnavailabilityReason/missingDevice`` when the kernel
    /// has no such family (no Wi-Fi driver is loaded, as on a machine without Wi-Fi).
    public var availability: Availability {
        do throws(SensorError) {
            _ = try resolve(makeClient())
            return .available
        } catch {
            switch error {
            case .unsupported: return .unavailable(reason: .missingDevice, detail: "\(error)")
            case .permissionDenied: return .unavailable(reason: .permissionDenied, detail: "\(error)")
            default: return .unavailable(reason: .kernelLacksInterface, detail: "\(error)")
            }
        }
    }

    /// Whether the monitor is running (also while it waits to reopen a failed socket).
    public var isMonitoring: Bool { driver.isRunning }

    /// How often the station statistics are read while someone subscribes.
    public var updateInterval: Duration? { state.withLock { $0.interval } }

    /// Resolves nl80211, opens the sockets, joins the groups, publishes `pending` and returns; the event loop reads
    /// the interfaces and publishes the first status. Concurrent calls start once.
    ///
    /// - Throws: ``SensorError`` when nl80211 is missing (no Wi-Fi driver) or a socket cannot be opened; the monitor
    ///   then stays stopped and has published nothing.
    public func startMonitoring() throws(SensorError) { try driver.start(self) }

    /// Stops watching and closes the sockets; the last status stays in ``readings``.
    public func stopMonitoring() {
        driver.stop()
        state.withLock { state in
            state.current = nil
            state.opened = nil
            state.pollTimer = nil
        }
    }

    /// Reads everything again on the event loop, and publishes the status if it changed. Does nothing when stopped.
    public func refresh() {
        guard let (_, generation) = driver.current else { return }
        schedule(after: .zero, generation: generation) { [weak self] in self?.read(generation) }
    }

    /// Changes how often the statistics are read; a running monitor reschedules its timer at once.
    ///
    /// - Throws: ``SensorError/invalidArgument(name:value:reason:)`` for an interval below 1 ms.
    public func setUpdateInterval(_ interval: Duration) throws(SensorError) {
        let interval = try interval.validatedUpdateInterval()
        let old = state.withLock { state -> EventLoop.Registration? in
            state.interval = interval
            defer { state.pollTimer = nil }
            return state.pollTimer
        }
        guard let old else { return }
        old.cancel()
        if let (_, generation) = driver.current { startPolling(generation) }
    }

    /// Makes every read publish its status, or (the default) only one that differs from the last.
    public func setPublishesEveryRead(_ every: Bool) throws(SensorError) {
        state.withLock { $0.publishesEveryRead = every }
    }

    /// The monitor's current registrations with the event loop (the socket and pending timers), so tests can check
    /// that a released monitor leaves none behind.
    package var loopRegistrations: [EventLoop.Registration] { driver.registrations }

    /// How many reads the current run has completed, so tests can wait for one instead of sleeping.
    package var completedReads: Int { state.withLock { $0.reads } }

    /// Handles `datagram` on the event loop as if the event socket had received it from `sender`, for tests whose
    /// kernel has no nl80211.
    package func inject(datagram: [UInt8], from sender: NetlinkSender = NetlinkSender(port: 0)) {
        inject(.datagram(count: datagram.count, sender: sender, truncated: false), buffer: datagram)
    }

    /// Handles `received` on the event loop as if a receive from the event socket had returned it with `buffer` in
    /// its buffer, for tests whose kernel has no nl80211: a datagram, one cut to the buffer (`MSG_TRUNC`), or lost
    /// events (``NetlinkReceived/overflow``, `ENOBUFS`). Goes through the same handling as the socket's reads.
    package func inject(_ received: NetlinkReceived, buffer: [UInt8] = []) {
        guard let (_, generation) = driver.current else { return }
        schedule(after: .zero, generation: generation) { [weak self] in
            self?.take(received, in: buffer, generation: generation)
        }
    }

    /// Makes the next read of the socket fail with `errno`, as if `recvmsg(2)` had.
    package func simulateSocketError(_ errno: Errno) { driver.simulateSocketError(errno, for: self) }

    // MARK: the netlink driver's side

    func openSocket() throws(SensorError) -> NetlinkSocket {
        let client = try makeClient()
        let family = try resolve(client)
        let socket = try NetlinkSocket(
            netlinkProtocol: NETLINK_GENERIC, groups: 0, namespace: namespace, receiveBufferSize: 1 << 20,
            passCredentials: false)
        do throws(SensorError) {
            if joinsGroups {
                for group in NL80211.groups {
                    if let number = family.groups[group] { try socket.joinGroup(number) }
                }
            }
        } catch {
            socket.close()
            throw error
        }
        state.withLock { $0.opened = (client, family) }
        return socket
    }

    func socketOpened(_ socket: NetlinkSocket, generation: UInt64, isStart: Bool) throws(SensorError) {
        state.withLock { state in
            state.generation = generation
            state.current = state.opened
            state.opened = nil
            state.reads = 0
            if isStart {
                state.lastPublished = nil
                state.lastEvent = nil
            }
        }
        if isStart { readings.publish(.pending) }
        driver.refreshAfterWake(generation: generation) { [weak self] in self?.refresh() }
        try scheduleOrThrow(after: .zero, generation: generation) { [weak self] in self?.read(generation) }
        startPolling(generation)
    }

    func drain(_ socket: NetlinkSocket, into buffer: inout [UInt8], generation: UInt64) throws(SensorError) {
        for _ in 0..<Self.datagramsPerWakeup {
            let received = try socket.receive(into: &buffer)
            guard received != .wouldBlock else { return }
            take(received, in: buffer, generation: generation)
        }
    }

    func socketFailed(_ error: SensorError, retryingIn delay: Duration) {
        state.withLock { state in
            state.current = nil
            state.lastPublished = nil
            state.pollTimer = nil
        }
        readings.publish(.unavailable(reason: "\(error); trying again in \(delay)"))
    }

    func socketReopened(generation: UInt64) {}

    // MARK: reading

    /// Resolves nl80211 through `client`, or says what is missing.
    private func resolve(_ client: GenericNetlinkClient) throws(SensorError) -> GenericNetlinkFamily {
        guard let family = try client.family(named: NL80211.familyName) else {
            throw .unsupported(
                interface: "nl80211",
                reason:
                    "the kernel has no nl80211 generic netlink family: no Wi-Fi driver is loaded (cfg80211 and a "
                    + "wireless driver are needed)")
        }
        return family
    }

    /// Acts on one receive from the event socket: publishes a datagram's events, and reads everything again when
    /// events were lost (`ENOBUFS`) or a datagram was cut to the buffer (`MSG_TRUNC`, never parsed).
    private func take(_ received: NetlinkReceived, in buffer: [UInt8], generation: UInt64) {
        switch received {
        case .wouldBlock:
            return
        case .overflow:
            // Events were lost: what they would have changed is read again.
            read(generation)
        case .datagram(let count, let sender, let truncated):
            if truncated {
                read(generation)
            } else {
                handle(Array(buffer.prefix(count)), from: sender, generation: generation)
            }
        }
    }

    /// Decodes the events of one datagram, publishes them, and reads again if one of them can change the status.
    private func handle(_ datagram: [UInt8], from sender: NetlinkSender, generation: UInt64) {
        guard sender.isKernel, let family = state.withLock({ $0.generation == generation ? $0.current?.family : nil })
        else { return }
        let parsed = GenericNetlinkParser.parse(datagram)
        var decoded: [WiFiEvent] = []
        for case .message(let message) in parsed.parts where message.header.type == family.id {
            if let event = NL80211.event(from: message) { decoded.append(event) }
        }
        guard !decoded.isEmpty || parsed.malformed > 0 else { return }
        let names = Dictionary(
            (readings.value.value?.interfaces ?? []).map { ($0.index, $0.name) },
            uniquingKeysWith: { first, _ in first })
        decoded = decoded.map { event in
            var named = event
            if named.interfaceName == nil, let index = named.interfaceIndex { named.interfaceName = names[index] }
            return named
        }
        if let last = decoded.last { state.withLock { $0.lastEvent = last } }
        for event in decoded { events.publish(event) }
        if parsed.malformed > 0 || decoded.contains(where: { $0.kind != .scanStarted }) { read(generation) }
    }

    /// Reads the interfaces, their connections and (while someone subscribes) the station statistics, and publishes
    /// the status if it changed. Runs on the loop thread.
    private func read(_ generation: UInt64) {
        guard let (client, family) = state.withLock({ $0.generation == generation ? $0.current : nil }) else { return }
        let withStatistics = readings.subscriberCount > 0
        let status: SensorReading<WiFiStatus>.Status
        do throws(SensorError) {
            let interfaces = try Self.readInterfaces(client, family, withStatistics: withStatistics)
            status = .value(WiFiStatus(interfaces: interfaces, lastEvent: state.withLock { $0.lastEvent }))
        } catch {
            status = .unavailable(reason: "\(error)")
        }
        let publish = state.withLock { state -> Bool in
            guard state.generation == generation, state.current != nil else { return false }
            state.reads += 1
            guard state.publishesEveryRead || state.lastPublished != status else { return false }
            state.lastPublished = status
            return true
        }
        if publish { readings.publish(SensorReading(status, time: .now())) }
    }

    /// Polls while someone subscribes; the timer belongs to `generation`.
    private func startPolling(_ generation: UInt64) {
        let interval = state.withLock { $0.interval }
        do throws(SensorError) {
            let timer = try driver.loop.schedule(every: interval) { [weak self] in
                guard let self, self.readings.subscriberCount > 0 else { return }
                self.read(generation)
            }
            let kept = state.withLock { state -> Bool in
                guard state.generation == generation, state.pollTimer == nil else { return false }
                state.pollTimer = timer
                return true
            }
            guard kept else {
                timer.cancel()
                return
            }
            driver.addTimer(timer, generation: generation)
        } catch {
            readings.publish(.unavailable(reason: "\(error)"))
        }
    }

    private func schedule(after delay: Duration, generation: UInt64, _ body: @escaping @Sendable () -> Void) {
        do throws(SensorError) {
            try scheduleOrThrow(after: delay, generation: generation, body)
        } catch {
            driver.fail(self, generation: generation, error: error)
        }
    }

    private func scheduleOrThrow(after delay: Duration, generation: UInt64, _ body: @escaping @Sendable () -> Void)
        throws(SensorError)
    {
        let timer = try driver.loop.schedule(after: delay, handler: body)
        driver.addTimer(timer, generation: generation)
    }

    /// The interfaces with their connections; an interface whose station cannot be read is shown without its
    /// statistics.
    ///
    /// - Throws: ``SensorError`` when the interfaces, or a station interface's scan, cannot be read (an interface
    ///   shown without its connection would say it is not connected); an interface removed in between
    ///   (`ENODEV`) is left out instead.
    static func readInterfaces(
        _ client: GenericNetlinkClient, _ family: GenericNetlinkFamily, withStatistics: Bool
    ) throws(SensorError) -> [WiFiInterface] {
        let version = UInt8(truncatingIfNeeded: family.version)
        var interfaces = try client.dump(family: family.id, command: NL80211.Command.getInterface, version: version)
            .compactMap(NL80211.interface(from:))
        interfaces.sort { $0.index < $1.index }
        var gone: Set<Int> = []
        for position in interfaces.indices where interfaces[position].type.isClient {
            var filter = NetlinkAttributeWriter()
            filter.append(NL80211.Attribute.interfaceIndex, uint32: UInt32(interfaces[position].index))
            let scan: [GenericNetlinkMessage]
            do {
                scan = try client.dump(
                    family: family.id, command: NL80211.Command.getScan, version: version, attributes: filter.bytes)
            } catch .systemCall(_, _, let errno) where errno == .noSuchDevice {
                // Removed since the interface dump: left out, as the next dump would (its removal event follows).
                gone.insert(interfaces[position].index)
                continue
            }
            let associated = scan.compactMap(NL80211.scannedBSS(from:)).filter { bss in
                bss.isAssociated && (bss.interfaceIndex ?? interfaces[position].index) == interfaces[position].index
            }
            guard var connection = connection(of: associated, interface: interfaces[position]) else { continue }
            if withStatistics,
                let stations = try? client.dump(
                    family: family.id, command: NL80211.Command.getStation, version: version, attributes: filter.bytes)
            {
                let all = stations.compactMap(NL80211.station(from:))
                let peer = connection.mldAddress ?? connection.bssid
                connection.station = (all.first { $0.address == peer } ?? all.first)?.1
            }
            interfaces[position].connection = connection
        }
        return interfaces.filter { !gone.contains($0.index) }
    }

    /// The connection the associated BSS entries describe: one entry, or one per link of a multi-link connection.
    static func connection(of associated: [NL80211.ScannedBSS], interface: WiFiInterface) -> WiFiConnection? {
        let ordered = associated.sorted { ($0.linkID ?? -1) < ($1.linkID ?? -1) }
        guard let primary = ordered.first else { return nil }
        let isMultiLink = ordered.count > 1 || primary.linkID != nil || primary.mldAddress != nil
        let links =
            isMultiLink
            ? ordered.map { bss in
                WiFiLink(
                    id: bss.linkID ?? 0, address: bss.bssid, frequency: bss.frequency,
                    channelWidth: interface.links.first { $0.id == bss.linkID }?.channelWidth, signal: bss.signal)
            } : []
        return WiFiConnection(
            bssid: primary.bssid, mldAddress: primary.mldAddress, ssid: primary.ssid ?? interface.ssid,
            frequency: primary.frequency, signal: primary.signal, links: links)
    }
}

extension WiFiInterfaceType {
    /// Whether the interface joins networks (a station or a Wi-Fi Direct client), so has a connection to read.
    var isClient: Bool { self == .station || self == .p2pClient }
}
