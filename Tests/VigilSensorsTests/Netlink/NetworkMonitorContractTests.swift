import Dispatch
import Glibc
import Synchronization
import Testing
import Vigil
import VigilSensors
import VigilTestSupport

/// The source contract for ``NetworkMonitor``: readings begin pending, start never waits for the kernel, errors
/// travel in-band and the monitor recovers, the subject is never failed, and a released monitor stops.
@Suite(
    .serialized, .timeLimit(.minutes(10)),
    .enabled(if: NetlinkTestNamespace.isRoot, "needs root to create network namespaces (ip netns add)"))
struct NetworkMonitorContractTests {
    /// Every value and completion a subscription saw.
    private final class Recorder: Sendable {
        let values = FutexMutex<[SensorReading<NetworkPath>]>([])
        let completions = FutexMutex(0)
        var all: [SensorReading<NetworkPath>] { values.withLock { $0 } }
        var last: SensorReading<NetworkPath>? { all.last }

        func subscribe(to monitor: NetworkMonitor) -> Subscription {
            monitor.readings.subscribe(
                onNext: { path in self.values.withLock { $0.append(path) } },
                onCompletion: { _ in self.completions.withLock { $0 += 1 } })
        }
    }

    @Test func readingsBeginPendingNeverNoNetworkBeforeTheFirstDump() async throws {
        let namespace = try NetlinkTestNamespace()
        defer { namespace.remove() }
        try namespace.ip("link", "set", "lo", "up")
        let monitor = NetworkMonitor(namespace: namespace.path)
        let recorder = Recorder()
        let subscription = recorder.subscribe(to: monitor)
        defer { subscription.dispose() }
        #expect(recorder.all.first?.status == .pending, "a handler installed before start sees pending")
        #expect(recorder.all.first?.value == nil)
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        #expect(await eventually(within: 20) { recorder.last?.value?.interface(named: "lo") != nil })
        let history = recorder.all
        let firstKnown = try #require(history.firstIndex { $0.value != nil })
        #expect(history[..<firstKnown].allSatisfy { $0.status == .pending }, "\(history.map(\.status))")
        #expect(history[firstKnown].value?.interface(named: "lo") != nil, "the first known path is a complete dump")
        #expect(history[firstKnown].value?.status == .unsatisfied(reason: .noInterfaceUp))
    }

    @Test func startReturnsWithoutWaitingForTheEventLoopOrTheKernel() async throws {
        let namespace = try NetlinkTestNamespace()
        defer { namespace.remove() }
        let loop = EventLoop()
        defer { loop.shutdown() }
        // Keep the loop thread busy, as another source's slow handler would.
        let release = DispatchSemaphore(value: 0)
        let busyNow = Atomic(false)
        let busy = try loop.schedule(after: .zero) {
            busyNow.store(true, ordering: .releasing)
            release.wait()
        }
        defer { busy.cancel() }
        #expect(await eventually { busyNow.load(ordering: .acquiring) })
        let monitor = NetworkMonitor(namespace: namespace.path, eventLoop: loop)
        let started = ContinuousClock.now
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        let elapsed = ContinuousClock.now - started
        #expect(monitor.readings.value.status == .pending, "the dump runs on the loop, after start returned")
        #expect(elapsed < .seconds(1), "start took \(elapsed)")
        release.signal()
        #expect(await eventually(within: 20) { monitor.readings.value.value?.interface(named: "lo") != nil })
    }

    @Test func socketErrorIsPublishedInBandAndTheMonitorRecovers() async throws {
        let namespace = try NetlinkTestNamespace()
        defer { namespace.remove() }
        let monitor = NetworkMonitor(namespace: namespace.path)
        let recorder = Recorder()
        let subscription = recorder.subscribe(to: monitor)
        defer { subscription.dispose() }
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        #expect(await eventually(within: 20) { monitor.readings.value.value?.interface(named: "lo") != nil })

        monitor.simulateSocketError(.ioError)
        #expect(
            await eventually(within: 20) {
                recorder.all.contains { if case .unavailable = $0.status { true } else { false } }
            })
        let unavailable = try #require(recorder.all.first { if case .unavailable = $0.status { true } else { false } })
        #expect(unavailable.value == nil)
        #expect("\(unavailable.status)".contains("recvmsg"), "the reason names what failed: \(unavailable)")
        // A change made while the socket was closed reaches the mirror through the dump after the reopen.
        try namespace.ip("link", "add", "rva", "type", "veth", "peer", "name", "rvb")
        #expect(await eventually(within: 20) { monitor.readings.value.value?.interface(named: "rva") != nil })
        #expect(monitor.isMonitoring)
        #expect(recorder.completions.withLock { $0 } == 0, "the subject is never failed")
        try namespace.ip("link", "set", "rva", "up")
        #expect(
            await eventually(within: 20) { monitor.readings.value.value?.interface(named: "rva")?.isUp == true },
            "notifications flow on the reopened socket")
    }

    @Test func startStopStartKeepsPublishingIntoALiveSubject() async throws {
        let namespace = try NetlinkTestNamespace()
        defer { namespace.remove() }
        let monitor = NetworkMonitor(namespace: namespace.path)
        let recorder = Recorder()
        let subscription = recorder.subscribe(to: monitor)
        defer { subscription.dispose() }
        try monitor.startMonitoring()
        #expect(await eventually(within: 20) { monitor.readings.value.value?.interface(named: "lo") != nil })
        monitor.simulateSocketError(.ioError)
        monitor.stopMonitoring()
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        try namespace.ip("link", "add", "sva", "type", "veth", "peer", "name", "svb")
        #expect(await eventually(within: 20) { recorder.last?.value?.interface(named: "sva") != nil })
        #expect(recorder.completions.withLock { $0 } == 0, "the subject is never failed")
    }

    @Test func releasedMonitorClosesItsSocketAndStopsPublishing() async throws {
        let namespace = try NetlinkTestNamespace()
        defer { namespace.remove() }
        let recorder = Recorder()
        weak var released: NetworkMonitor?
        var subscription: Subscription?
        var registrations: [EventLoop.Registration] = []
        do {
            let monitor = NetworkMonitor(namespace: namespace.path)
            released = monitor
            subscription = recorder.subscribe(to: monitor)
            try monitor.startMonitoring()
            #expect(await eventually(within: 20) { monitor.readings.value.value?.interface(named: "lo") != nil })
            #expect(try routeSockets(in: namespace) == 1, "the monitor's own socket")
            registrations = monitor.loopRegistrations
            #expect(!registrations.isEmpty)
        }
        defer { subscription?.dispose() }
        #expect(await eventually(within: 20) { released == nil }, "nothing keeps a released monitor alive")
        #expect(await eventually(within: 20) { (try? routeSockets(in: namespace)) == 0 }, "its socket is closed")
        let leftInTheLoop = registrations.filter { !$0.isCancelled }.count
        #expect(leftInTheLoop == 0, "a released monitor leaves nothing in the event loop")
        let count = recorder.all.count
        try namespace.ip("link", "add", "xva", "type", "veth", "peer", "name", "xvb")
        // The kernel queues the notification before `ip` returns: a socket still registered would be handled by now.
        try await EventLoop.shared.barrier()
        #expect(recorder.all.count == count, "a released monitor publishes nothing more")
    }

    /// The `NETLINK_ROUTE` sockets user space holds in `namespace` (`/proc/net/netlink` rows with protocol 0 and a
    /// non-zero port); a fresh namespace has only the monitor's.
    private func routeSockets(in namespace: NetlinkTestNamespace) throws -> Int {
        let table = try namespace.output("cat", "/proc/net/netlink")
        return table.split(separator: "\n").dropFirst().filter { line in
            let fields = line.split(separator: " ")
            return fields.count > 2 && fields[1] == "0" && fields[2] != "0"
        }.count
    }
}
