import Testing
import Vigil
import VigilSensors
import VigilTestSupport

/// What the `wifi` source does when the kernel's answers or events do not arrive whole: a dump interrupted
/// (`NLM_F_DUMP_INTR`) is run again, an event datagram cut to the buffer (`MSG_TRUNC`) or lost events (`ENOBUFS`)
/// make it read everything again, and none of them makes it publish a state the kernel does not have.
@Suite(.timeLimit(.minutes(10)))
struct WiFiMonitorResyncTests {
    typealias Kernel = ReplayNL80211Kernel

    /// Every reading a monitor publishes while the recording's subscription is held.
    final class Recording: Sendable {
        let readings = FutexMutex<[SensorReading<WiFiStatus>]>([])
        var all: [SensorReading<WiFiStatus>] { readings.withLock { $0 } }
    }

    /// Records what `monitor` publishes from now on (and its current reading), until the subscription is disposed.
    static func record(_ monitor: WiFiMonitor) -> (Recording, Subscription) {
        let recording = Recording()
        let subscription = monitor.readings.subscribe { reading in recording.readings.withLock { $0.append(reading) } }
        return (recording, subscription)
    }

    /// Runs `body` with a running monitor of a kernel whose `wlan0` is connected, once the monitor has read so, and
    /// the recording of what it publishes from then on.
    static func withConnectedMonitor(_ body: (Kernel, WiFiMonitor, Recording) async throws -> Void) async throws {
        let loop = EventLoop()
        defer { loop.shutdown() }
        let kernel = Kernel(connected: true)
        let monitor = WiFiMonitorTests.monitor(kernel, loop: loop)
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        #expect(await eventually(within: 20) { WiFiMonitorTests.status(monitor)?.isConnected == true })
        let (published, subscription) = record(monitor)
        defer { subscription.dispose() }
        try await body(kernel, monitor, published)
    }

    @Test(arguments: [NL80211.Command.getInterface, NL80211.Command.getScan, NL80211.Command.getStation])
    func anInterruptedDumpIsRunAgainAndTheStatusIsWhole(command: UInt8) async throws {
        let loop = EventLoop()
        defer { loop.shutdown() }
        let kernel = Kernel(connected: true)
        // The interrupted answer is torn (it has none of its parts): a monitor that took it would publish no
        // interface, no connection or no statistics.
        kernel.interruptDumps(of: command)
        let monitor = WiFiMonitorTests.monitor(kernel, loop: loop)
        let (published, subscription) = Self.record(monitor)
        defer { subscription.dispose() }
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        #expect(await eventually(within: 20) { monitor.completedReads >= 1 })

        let interface = try #require(WiFiMonitorTests.status(monitor)?.interfaces.first)
        #expect(interface.name == "wlan0")
        #expect(interface.connection?.bssid == "02:00:00:00:01:00" && interface.connection?.ssid == "Test-WIFI")
        #expect(interface.connection?.station?.signal == -42)
        let runs = kernel.requests.filter { $0.command == command }
        #expect(runs.count == 2, "the interrupted dump and its rerun")
        #expect(Set(runs.map(\.header.sequence)).count == runs.count)
        #expect(published.all.allSatisfy { $0.status == .pending || $0.value?.isConnected == true })
    }

    @Test func aScanThatStaysInterruptedIsUnavailableNotDisconnected() async throws {
        try await Self.withConnectedMonitor { kernel, monitor, published in
            // The scan table changes under every run the client makes: the connection cannot be read, which is not the
            // same as no connection.
            kernel.interruptDumps(of: NL80211.Command.getScan, times: GenericNetlinkClient.maximumDumpAttempts)
            monitor.refresh()
            #expect(await eventually(within: 20) { monitor.completedReads >= 2 })
            guard case .unavailable(let reason) = monitor.readings.value.status else {
                Issue.record("a scan that could not be read was published as \(monitor.readings.value)")
                return
            }
            #expect(reason.contains("NLM_F_DUMP_INTR"), "\(reason)")
            #expect(!published.all.contains { $0.value?.isConnected == false })

            // Once the scan can be read again, so can the connection.
            monitor.refresh()
            #expect(await eventually(within: 20) { WiFiMonitorTests.status(monitor)?.isConnected == true })
        }
    }

    /// An interface removed between the interface dump and its scan dump (`ENODEV`) is left out, as the next read
    /// would leave it, rather than making the whole reading unavailable.
    @Test func anInterfaceGoneBeforeItsScanIsLeftOut() async throws {
        let loop = EventLoop()
        defer { loop.shutdown() }
        let kernel = Kernel(connected: true)
        kernel.failDumps(of: NL80211.Command.getScan, errno: 19)
        let monitor = WiFiMonitorTests.monitor(kernel, loop: loop)
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        #expect(await eventually(within: 20) { monitor.completedReads >= 1 })
        #expect(WiFiMonitorTests.status(monitor)?.interfaces.isEmpty == true, "\(monitor.readings.value)")
        // Any other error is no proof the interface went: the reading is unavailable, not "not connected".
        kernel.failDumps(of: NL80211.Command.getScan, errno: 16)
        monitor.refresh()
        #expect(await eventually(within: 20) { monitor.completedReads >= 2 })
        guard case .unavailable = monitor.readings.value.status else {
            Issue.record("a scan that failed was published as \(monitor.readings.value)")
            return
        }
    }

    @Test func anEventDatagramCutToTheBufferIsReadAgainNotParsed() async throws {
        let loop = EventLoop()
        defer { loop.shutdown() }
        let kernel = Kernel(connected: false)
        let monitor = WiFiMonitorTests.monitor(kernel, loop: loop)
        let events = FutexMutex<[WiFiEvent]>([])
        let eventSubscription = monitor.events.subscribe { event in events.withLock { $0.append(event) } }
        defer { eventSubscription.dispose() }
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        #expect(await eventually(within: 20) { WiFiMonitorTests.status(monitor)?.isConnected == false })

        // The captured DISCONNECT and CONNECT in one datagram, cut inside the CONNECT (MSG_TRUNC): the whole first
        // message is no proof of what happened last, so nothing of it is published, and the status is read again.
        kernel.setConnected(true)
        let disconnect = try #require(Fixtures.bytes("nl80211/msg-disconnect-event-reason3.bin"))
        let connect = try #require(Fixtures.bytes("nl80211/msg-connect-event.bin"))
        let cut = Array((disconnect + connect).prefix(disconnect.count + 24))
        monitor.inject(.datagram(count: cut.count, sender: NetlinkSender(port: 0), truncated: true), buffer: cut)

        #expect(await eventually(within: 20) { WiFiMonitorTests.status(monitor)?.isConnected == true })
        #expect(WiFiMonitorTests.status(monitor)?.lastEvent == nil)
        #expect(events.withLock { $0 }.isEmpty)
    }

    @Test func anOverflowedEventSocketIsReadAgainNotFailed() async throws {
        try await Self.withConnectedMonitor { kernel, monitor, published in
            // The station disconnects while the socket's buffer is full: the event is lost (ENOBUFS), the state is not.
            kernel.setConnected(false)
            monitor.inject(.overflow)

            #expect(await eventually(within: 20) { WiFiMonitorTests.status(monitor)?.isConnected == false })
            #expect(monitor.isMonitoring)
            #expect(!published.all.contains { if case .unavailable = $0.status { true } else { false } })
        }
    }
}
