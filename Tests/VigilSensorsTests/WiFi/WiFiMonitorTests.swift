import Testing
import Vigil
import VigilSensors
import VigilTestSupport

/// The `wifi` source against this kernel (which may have no nl80211) and against a replayed nl80211 whose events are
/// the captures of `Tests/Fixtures/nl80211`.
@Suite(.timeLimit(.minutes(5)))
struct WiFiMonitorTests {
    static func monitor(_ kernel: ReplayNL80211Kernel, loop: EventLoop, interval: Duration = .seconds(3600))
        -> WiFiMonitor
    {
        WiFiMonitor(
            namespace: nil, updateInterval: interval, eventLoop: loop, joinsGroups: false,
            client: { () throws(SensorError) in kernel.client() })
    }

    static func status(_ monitor: WiFiMonitor) -> WiFiStatus? { monitor.readings.value.value }

    /// Waits until a timer of `delay` has fired on `loop`, so every earlier timer of the loop has run.
    static func pass(_ delay: Duration, on loop: EventLoop) async throws {
        let fired = FutexMutex(false)
        let timer = try loop.schedule(after: delay) { fired.withLock { $0 = true } }
        #expect(await eventually(within: 20) { fired.withLock { $0 } })
        timer.cancel()
    }

    @Test func withoutNL80211TheSourceSaysWhatIsMissing() throws {
        let client = try GenericNetlinkClient.open()
        guard try client.family(named: "nl80211") == nil else {
            try skip(
                "this kernel has nl80211 (cfg80211 is loaded): the missing-driver path cannot be seen",
                expectedUnderCI: true)
        }
        let monitor = WiFiMonitor()
        guard case .unavailable(let reason, let detail) = monitor.availability else {
            Issue.record("available without nl80211")
            return
        }
        #expect(reason == .missingDevice)
        #expect(detail.contains("nl80211") && detail.contains("no Wi-Fi driver"), "\(detail)")
        let published = FutexMutex(0)
        let subscription = monitor.readings.subscribe { _ in published.withLock { $0 += 1 } }
        defer { subscription.dispose() }
        #expect(throws: SensorError.self) { try monitor.startMonitoring() }
        #expect(!monitor.isMonitoring)
        #expect(published.withLock { $0 } == 1, "only the initial pending reading, nothing from the failed start")
        #expect(monitor.loopRegistrations.isEmpty)
    }

    @Test func readsTheConnectionAndTheStationWhileSubscribed() async throws {
        let loop = EventLoop()
        defer { loop.shutdown() }
        let kernel = ReplayNL80211Kernel(connected: true)
        let monitor = Self.monitor(kernel, loop: loop)
        #expect(monitor.availability == .available)
        let subscription = monitor.readings.subscribe { _ in }
        defer { subscription.dispose() }
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        #expect(await eventually(within: 20) { Self.status(monitor) != nil })
        let status = try #require(Self.status(monitor))
        let interface = try #require(status.interfaces.first)
        #expect(status.interfaces.count == 1)
        #expect(interface.name == "wlan0" && interface.index == 467 && interface.type == .station)
        #expect(interface.frequency == 2412 && interface.channelWidth?.megahertz == 20)
        let connection = try #require(interface.connection)
        #expect(connection.bssid == "02:00:00:00:01:00" && connection.ssid == "Test-WIFI")
        #expect(connection.frequency == 2412 && connection.signal == -30)
        #expect(connection.station?.signal == -42 && connection.station?.averageSignal == -44)
        #expect(connection.station?.transmitBitrate == 866.7 && connection.station?.connectedSeconds == 120)
        #expect(status.isConnected)
        // Only unprivileged reads, and never SET_CQM or anything else that changes the radio.
        let commands = Set(kernel.requests.filter { $0.header.type == ReplayNL80211Kernel.familyID }.map(\.command))
        #expect(
            commands.isSubset(of: [NL80211.Command.getInterface, NL80211.Command.getScan, NL80211.Command.getStation]))
    }

    @Test func stationStatisticsArePolledOnlyWhileSomeoneSubscribes() async throws {
        let loop = EventLoop()
        defer { loop.shutdown() }
        let kernel = ReplayNL80211Kernel(connected: true)
        let monitor = Self.monitor(kernel, loop: loop, interval: .milliseconds(20))
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        #expect(await eventually(within: 20) { monitor.completedReads >= 1 })
        let stationReads = { kernel.requests.filter { $0.command == NL80211.Command.getStation }.count }
        let idle = kernel.requests.count
        // Unsubscribed: the timer reads nothing however long it runs (ten intervals pass on the loop).
        try await Self.pass(.milliseconds(200), on: loop)
        #expect(kernel.requests.count == idle && stationReads() == 0)
        let subscription = monitor.readings.subscribe { _ in }
        #expect(await eventually(within: 20) { stationReads() >= 2 })
        kernel.setConnected(true, signal: -70)
        #expect(
            await eventually(within: 20) { Self.status(monitor)?.interfaces.first?.connection?.station?.signal == -70 })
        subscription.dispose()
    }

    @Test func eventsUpdateTheStatusAndArePublished() async throws {
        let loop = EventLoop()
        defer { loop.shutdown() }
        let kernel = ReplayNL80211Kernel(connected: false)
        let monitor = Self.monitor(kernel, loop: loop)
        let events = FutexMutex<[WiFiEvent]>([])
        let eventSubscription = monitor.events.subscribe { event in events.withLock { $0.append(event) } }
        defer { eventSubscription.dispose() }
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        #expect(await eventually(within: 20) { Self.status(monitor) != nil })
        #expect(Self.status(monitor)?.isConnected == false)

        // The supplicant connects: the captured CONNECT event arrives, and the status is read again.
        kernel.setConnected(true)
        monitor.inject(datagram: try #require(Fixtures.bytes("nl80211/msg-connect-event.bin")))
        #expect(await eventually(within: 20) { Self.status(monitor)?.isConnected == true })
        let connected = try #require(Self.status(monitor)?.lastEvent)
        #expect(connected.kind == .connected(bssid: "02:00:00:00:01:00", status: 0, timedOut: false))
        #expect(connected.interfaceName == "wlan0", "named from the interfaces read")

        // A forged event from a process is ignored.
        kernel.setConnected(false)
        monitor.inject(
            datagram: try #require(Fixtures.bytes("nl80211/msg-disconnect-event-reason3.bin")),
            from: NetlinkSender(port: 31337))
        try await Self.pass(.milliseconds(5), on: loop)
        #expect(Self.status(monitor)?.isConnected == true)

        monitor.inject(datagram: try #require(Fixtures.bytes("nl80211/msg-disconnect-event-reason3.bin")))
        #expect(await eventually(within: 20) { Self.status(monitor)?.isConnected == false })
        #expect(Self.status(monitor)?.lastEvent?.kind == .disconnected(reason: 3, byAccessPoint: false))
        #expect(events.withLock { $0.map(\.kind) }.count == 2)
    }

    @Test func aMultiLinkConnectionKeepsEachLink() async throws {
        let loop = EventLoop()
        defer { loop.shutdown() }
        let kernel = ReplayNL80211Kernel()
        func link(_ id: UInt8, _ bssid: UInt8, _ frequency: UInt32, signal: Int32) -> [UInt8] {
            ReplayNL80211Kernel.associatedBSS(
                interface: 9, bssid: [2, 0, 0, 0, 2, bssid], ssid: Array("MLO".utf8), frequency: frequency,
                signalMBm: signal, linkID: id, mldAddress: [2, 0, 0, 0, 2, 0])
        }
        kernel.set(
            interfaces: [
                ReplayNL80211Kernel.interface(index: 9, name: "wlan1", ssid: true, links: [(0, 5180), (1, 6115)])
            ],
            scan: [link(1, 0x11, 6115, signal: -6100), link(0, 0x10, 5180, signal: -4800)], stations: [])
        let monitor = Self.monitor(kernel, loop: loop)
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        #expect(await eventually(within: 20) { Self.status(monitor) != nil })
        let interface = try #require(Self.status(monitor)?.interfaces.first)
        #expect(interface.links.map(\.frequency) == [5180, 6115])
        let connection = try #require(interface.connection)
        #expect(connection.bssid == "02:00:00:00:02:10" && connection.mldAddress == "02:00:00:00:02:00")
        #expect(connection.links.map(\.address) == ["02:00:00:00:02:10", "02:00:00:00:02:11"])
        #expect(connection.links.map(\.signal) == [-48, -61])
        #expect(connection.ssid == "MLO")
    }

    @Test func aFailingKernelIsAnUnavailableReadingNotACrash() async throws {
        let loop = EventLoop()
        defer { loop.shutdown() }
        let kernel = ReplayNL80211Kernel()
        // A dump answer whose length field lies: the read fails with a reason, and recovers when answers are sane.
        kernel.set(interfaces: [[0xFF, 0xFF, 3, 0]], scan: [], stations: [])
        let monitor = Self.monitor(kernel, loop: loop)
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        #expect(await eventually(within: 20) { monitor.completedReads >= 1 })
        let status = Self.status(monitor)
        #expect(status == nil || status?.interfaces.isEmpty == true, "\(monitor.readings.value)")
        kernel.setConnected(true)
        monitor.refresh()
        #expect(await eventually(within: 20) { Self.status(monitor)?.isConnected == true })
    }
}
