import Glibc
import Testing
import Vigil
import VigilSensors
import VigilTestSupport

@Suite(
    .timeLimit(.minutes(10)),
    .enabled(if: NetlinkTestNamespace.isRoot, "needs root to create network namespaces (ip netns add)"))
struct DeviceMonitorTests {
    @Test func receivesVethUeventsInsideTheNamespace() async throws {
        let namespace = try NetlinkTestNamespace()
        defer { namespace.remove() }
        let monitor = DeviceMonitor(subsystems: ["net"], namespace: namespace.path)
        let events = FutexMutex<[Uevent]>([])
        let subscription = monitor.readings.subscribe { event in
            if case .event(let uevent) = event.kind { events.withLock { $0.append(uevent) } }
        }
        defer { subscription.dispose() }
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }

        func seen(_ action: Uevent.Action, _ interface: String) -> Bool {
            events.withLock { list in
                list.contains { $0.action == action && $0.properties["INTERFACE"]?.string == interface }
            }
        }

        try namespace.ip("link", "add", "dva", "type", "veth", "peer", "name", "dvb")
        #expect(await eventually(within: 20) { seen(.add, "dva") && seen(.add, "dvb") })
        try namespace.shell("echo change > /sys/class/net/dva/uevent")
        #expect(await eventually(within: 20) { seen(.change, "dva") })
        try namespace.ip("link", "del", "dva")
        #expect(await eventually(within: 20) { seen(.remove, "dva") && seen(.remove, "dvb") })

        let all = events.withLock { $0 }
        #expect(all.allSatisfy { $0.subsystem == "net" }, "the subsystem filter lets only net events through")
        let added = try #require(all.first { $0.action == .add && $0.properties["INTERFACE"] == "dva" })
        #expect(added.devpath.string?.hasSuffix("/net/dva") == true && added.seqnum != nil)
        #expect(monitor.statistics.rejected == 0 && monitor.statistics.malformed == 0)
    }

    @Test func reportsOverflowWhenTheKernelDropsEvents() async throws {
        let namespace = try NetlinkTestNamespace()
        defer { namespace.remove() }
        let loop = EventLoop()
        defer { loop.shutdown() }
        let monitor = DeviceMonitor(namespace: namespace.path, receiveBufferSize: 1, eventLoop: loop)
        let overflows = FutexMutex(0)
        let subscription = monitor.readings.subscribe { event in
            if event.kind == .overflow { overflows.withLock { $0 += 1 } }
            usleep(20_000)  // a slow consumer on the loop thread lets the socket fill up
        }
        defer { subscription.dispose() }
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        try namespace.ipBatch((0..<40).map { "link add ov\($0) type veth peer name op\($0)" })
        #expect(await eventually(within: 30) { overflows.withLock { $0 } > 0 })
        #expect(monitor.statistics.overflows > 0)
    }

    @Test func filtersOtherSubsystems() async throws {
        let namespace = try NetlinkTestNamespace()
        defer { namespace.remove() }
        let monitor = DeviceMonitor(subsystems: ["power_supply"], namespace: namespace.path)
        let count = FutexMutex(0)
        let subscription = monitor.readings.subscribe { _ in count.withLock { $0 += 1 } }
        defer { subscription.dispose() }
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        try namespace.ip("link", "add", "fva", "type", "veth", "peer", "name", "fvb")
        #expect(await eventually(within: 20) { monitor.statistics.ignored >= 2 })
        #expect(count.withLock { $0 } == 0)
    }
}
