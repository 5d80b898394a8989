import Glibc
import Testing
import Vigil
import VigilSensors
import VigilTestSupport

/// The source contract for ``DeviceMonitor``: errors travel in-band and the monitor recovers, the subject is never
/// failed, start/stop/start keeps publishing, and a released monitor stops.
@Suite(
    .serialized, .timeLimit(.minutes(10)),
    .enabled(if: NetlinkTestNamespace.isRoot, "needs root to create network namespaces (ip netns add)"))
struct DeviceMonitorContractTests {
    /// Every event and completion a subscription saw.
    private final class Recorder: Sendable {
        let events = FutexMutex<[DeviceEvent]>([])
        let completions = FutexMutex(0)
        var all: [DeviceEvent] { events.withLock { $0 } }

        func subscribe(to monitor: DeviceMonitor) -> Subscription {
            monitor.readings.subscribe(
                onNext: { event in self.events.withLock { $0.append(event) } },
                onCompletion: { _ in self.completions.withLock { $0 += 1 } })
        }

        func sawAdd(of interface: String) -> Bool {
            all.contains { event in
                guard case .event(let uevent) = event.kind else { return false }
                return uevent.action == .add && uevent.properties["INTERFACE"]?.string == interface
            }
        }
    }

    @Test func socketErrorIsPublishedInBandAndTheMonitorRecovers() async throws {
        let namespace = try NetlinkTestNamespace()
        defer { namespace.remove() }
        let monitor = DeviceMonitor(subsystems: ["net"], namespace: namespace.path)
        let recorder = Recorder()
        let subscription = recorder.subscribe(to: monitor)
        defer { subscription.dispose() }
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }

        monitor.simulateSocketError(.ioError)
        #expect(
            await eventually(within: 20) {
                recorder.all.contains { if case .unavailable = $0.kind { true } else { false } }
            })
        let reason = recorder.all.compactMap { event -> String? in
            if case .unavailable(let reason) = event.kind { return reason }
            return nil
        }.first
        #expect(reason?.contains("recvmsg") == true, "the reason names what failed: \(reason ?? "-")")
        #expect(await eventually(within: 20) { recorder.all.last?.kind == .overflow }, "after the reopen: rescan")
        try namespace.ip("link", "add", "rda", "type", "veth", "peer", "name", "rdb")
        #expect(await eventually(within: 20) { recorder.sawAdd(of: "rda") }, "events flow on the reopened socket")
        #expect(monitor.isMonitoring)
        #expect(recorder.completions.withLock { $0 } == 0, "the subject is never failed")
    }

    @Test func startStopStartKeepsPublishingIntoALiveSubject() async throws {
        let namespace = try NetlinkTestNamespace()
        defer { namespace.remove() }
        let monitor = DeviceMonitor(subsystems: ["net"], namespace: namespace.path)
        let recorder = Recorder()
        let subscription = recorder.subscribe(to: monitor)
        defer { subscription.dispose() }
        try monitor.startMonitoring()
        monitor.simulateSocketError(.ioError)
        try await EventLoop.shared.barrier()  // the simulated failure was handled on the loop
        monitor.stopMonitoring()
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        try namespace.ip("link", "add", "sda", "type", "veth", "peer", "name", "sdb")
        #expect(await eventually(within: 20) { recorder.sawAdd(of: "sda") })
        #expect(recorder.completions.withLock { $0 } == 0, "the subject is never failed")
    }

    @Test func releasedMonitorClosesItsSocketAndStopsPublishing() async throws {
        let namespace = try NetlinkTestNamespace()
        defer { namespace.remove() }
        let recorder = Recorder()
        weak var released: DeviceMonitor?
        var subscription: Subscription?
        var registrations: [EventLoop.Registration] = []
        do {
            let monitor = DeviceMonitor(subsystems: ["net"], namespace: namespace.path)
            released = monitor
            subscription = recorder.subscribe(to: monitor)
            try monitor.startMonitoring()
            #expect(try ueventSockets(in: namespace) == 1, "the monitor's own socket")
            registrations = monitor.loopRegistrations
            #expect(!registrations.isEmpty)
        }
        defer { subscription?.dispose() }
        #expect(await eventually(within: 20) { released == nil }, "nothing keeps a released monitor alive")
        #expect(await eventually(within: 20) { (try? ueventSockets(in: namespace)) == 0 }, "its socket is closed")
        let leftInTheLoop = registrations.filter { !$0.isCancelled }.count
        #expect(leftInTheLoop == 0, "a released monitor leaves nothing in the event loop")
        try namespace.ip("link", "add", "xda", "type", "veth", "peer", "name", "xdb")
        // The kernel queues the uevent before `ip` returns: a socket still registered would be handled by now.
        try await EventLoop.shared.barrier()
        #expect(recorder.all.isEmpty, "a released monitor publishes nothing")
    }

    /// The `NETLINK_KOBJECT_UEVENT` sockets user space holds in `namespace` (`/proc/net/netlink` rows with protocol
    /// 15 and a non-zero port); a fresh namespace has only the monitor's.
    private func ueventSockets(in namespace: NetlinkTestNamespace) throws -> Int {
        let table = try namespace.output("cat", "/proc/net/netlink")
        return table.split(separator: "\n").dropFirst().filter { line in
            let fields = line.split(separator: " ")
            return fields.count > 2 && fields[1] == "15" && fields[2] != "0"
        }.count
    }
}
