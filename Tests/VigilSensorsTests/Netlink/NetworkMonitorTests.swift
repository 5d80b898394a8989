import Foundation
import Testing
import Vigil
import VigilSensors
import VigilTestSupport

@Suite(
    .timeLimit(.minutes(10)),
    .enabled(if: NetlinkTestNamespace.isRoot, "needs root to create network namespaces (ip netns add)"))
struct NetworkMonitorTests {
    @Test func followsLinksAddressesAndRoutesAndFlipsStatus() async throws {
        let namespace = try NetlinkTestNamespace()
        defer { namespace.remove() }
        let monitor = NetworkMonitor(namespace: namespace.path)
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        var path: NetworkPath { monitor.readings.value.value ?? NetworkPath() }
        let emitted = FutexMutex<[SensorReading<NetworkPath>]>([])
        let recorder = monitor.readings.subscribe { next in emitted.withLock { $0.append(next) } }
        defer { recorder.dispose() }

        #expect(await eventually(within: 20) { path.interface(named: "lo") != nil }, "the first dump completes")
        #expect(path.interface(named: "lo")?.kind == .loopback)
        #expect(path.status == .unsatisfied(reason: .noInterfaceUp))

        try namespace.ip("link", "add", "va", "type", "veth", "peer", "name", "vb")
        #expect(
            await eventually(within: 20) { path.interface(named: "va") != nil && path.interface(named: "vb") != nil })
        #expect(path.interface(named: "va")?.kind == .virtual && path.interface(named: "va")?.linkKind == "veth")
        let index = try #require(path.interface(named: "va")?.index)

        try namespace.ip("link", "set", "va", "up")
        try namespace.ip("link", "set", "vb", "up")
        // Carrier and operational state reach the kernel's tables in two steps (link watch); wait for both.
        #expect(
            await eventually(within: 20) {
                path.interface(named: "va")?.hasCarrier == true && path.interface(named: "va")?.operationalStatus == .up
            })
        #expect(path.status == .unsatisfied(reason: .noRoutableAddress))

        try namespace.ip("addr", "add", "192.0.2.10/24", "dev", "va")
        try namespace.ip("addr", "add", "2001:db8::10/64", "dev", "va", "nodad")
        #expect(
            await eventually(within: 20) {
                path.interface(named: "va")?.addresses.map(\.address.description).contains("2001:db8::10") == true
                    && path.interface(named: "va")?.addresses.map(\.address.description).contains("192.0.2.10") == true
            })
        #expect(path.status == .unsatisfied(reason: .noDefaultRoute))
        #expect(path.interface(named: "va")?.state == .routable)

        try namespace.ip("route", "add", "default", "via", "192.0.2.1", "dev", "va", "metric", "50")
        #expect(await eventually(within: 20) { path.status == .satisfied })
        #expect(path.isConnected && path.connectedInterfaces.map(\.name) == ["va"])
        let route = try #require(path.defaultRoutes.first { $0.family == .ipv4 })
        #expect(route.metric == 50 && route.nextHops.first?.gateway?.description == "192.0.2.1")
        #expect(route.nextHops.first?.interfaceIndex == index)

        try namespace.ip("-6", "route", "add", "default", "via", "2001:db8::1", "dev", "va")
        #expect(await eventually(within: 20) { path.defaultRoutes.contains { $0.family == .ipv6 } })
        try namespace.ip("route", "del", "default", "via", "192.0.2.1", "dev", "va")
        #expect(await eventually(within: 20) { !path.defaultRoutes.contains { $0.family == .ipv4 } })
        #expect(path.status == .satisfied, "the IPv6 default route still carries traffic")
        try namespace.ip("-6", "route", "del", "default", "via", "2001:db8::1", "dev", "va")
        #expect(await eventually(within: 20) { path.status == .unsatisfied(reason: .noDefaultRoute) })

        try namespace.ip("link", "set", "va", "down")
        #expect(await eventually(within: 20) { path.interface(index: index)?.state == .off })
        // The kernel follows the link change with address and route removals; wait for the mirror to settle.
        #expect(await eventually(within: 20) { path.status == .unsatisfied(reason: .noCarrier) }, "\(path.status)")
        try namespace.ip("link", "set", "va", "name", "wan0")
        #expect(await eventually(within: 20) { path.interface(index: index)?.name == "wan0" })
        #expect(path.interface(named: "va") == nil)

        try namespace.ip("addr", "del", "192.0.2.10/24", "dev", "wan0")
        #expect(
            await eventually(within: 20) {
                path.interface(index: index)?.addresses.contains { $0.address.family == .ipv4 } == false
            })

        try namespace.ip("link", "del", "wan0")
        #expect(
            await eventually(within: 20) { path.interface(index: index) == nil && path.interface(named: "vb") == nil })
        #expect(monitor.statistics.rejected == 0 && monitor.statistics.malformed == 0)
        let history = emitted.withLock { $0 }
        #expect(history.last?.value == path, "the last emission is the current path")
        #expect(zip(history, history.dropFirst()).allSatisfy { $0 != $1 }, "only real changes are published")
    }

    @Test func rootNamespaceMonitorDoesNotSeeTheTestNamespace() async throws {
        let namespace = try NetlinkTestNamespace()
        defer { namespace.remove() }
        let inside = NetworkMonitor(namespace: namespace.path)
        let root = NetworkMonitor()
        try inside.startMonitoring()
        defer { inside.stopMonitoring() }
        try root.startMonitoring()
        defer { root.stopMonitoring() }
        let name = "vt" + String(UInt32.random(in: 0...UInt32.max), radix: 36)
        try namespace.ip("link", "add", name, "type", "veth", "peer", "name", name + "p")
        #expect(await eventually(within: 20) { inside.readings.value.value?.interface(named: name) != nil })
        #expect(root.readings.value.value?.interface(named: name) == nil)
        #expect(root.readings.value.value?.interface(named: name + "p") == nil)
    }

    @Test func burstWithTinyBufferAndSlowConsumerEndsEqualToIp() async throws {
        let namespace = try NetlinkTestNamespace()
        defer { namespace.remove() }
        let pairs = 10
        try namespace.ipBatch((0..<pairs).map { "link add b\($0) type veth peer name p\($0)" })

        let loop = EventLoop()
        defer { loop.shutdown() }
        let monitor = NetworkMonitor(namespace: namespace.path, receiveBufferSize: 4096, eventLoop: loop)
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        let slow = monitor.readings.subscribe { _ in usleep(5_000) }
        defer { slow.dispose() }

        var lines: [String] = []
        var random = SeededRandom(seed: 2026)
        for step in 0..<1_000 {
            let name = (Bool.random(using: &random) ? "b" : "p") + String(Int.random(in: 0..<pairs, using: &random))
            switch step % 4 {
            case 0: lines.append("link set \(name) up")
            case 1: lines.append("link set \(name) mtu \(Int.random(in: 1280 ... 9000, using: &random))")
            case 2: lines.append("link set \(name) down")
            default: lines.append("addr add 10.\(step / 250).\(step % 250).1/32 dev \(name)")
            }
        }
        try namespace.ipBatch(lines)

        // The kernel's view is read again each time: after the batch, the kernel still moves links to their final
        // operational state (and adds their link-local addresses) a moment later, on its own.
        var expected = try kernelView(namespace)
        var matched = false
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            if monitorView(monitor.readings.value.value ?? NetworkPath()) == expected {
                matched = true
                break
            }
            try await Task.sleep(for: .milliseconds(50))
            expected = try kernelView(namespace)
        }
        // A test task starved past the deadline (a slow sanitizer build) looks once more before it gives up.
        let mirrored = { monitorView(monitor.readings.value.value ?? NetworkPath()) }
        expected = try kernelView(namespace)
        matched = matched || mirrored() == expected
        #expect(matched, "mirror \(mirrored()) != ip \(expected)")
        #expect(monitor.statistics.overflows > 0, "a tiny buffer and a slow consumer should make the kernel drop")
        #expect(monitor.statistics.dumps > 1, "an overflow is repaired with a fresh dump")
    }

    @Test func unknownNamespaceIsUnavailableAndStartThrows() {
        let monitor = NetworkMonitor(namespace: "/var/run/netns/vigil-test-does-not-exist")
        #expect(!monitor.availability.isAvailable)
        #expect(throws: SensorError.self) { try monitor.startMonitoring() }
        #expect(!monitor.isMonitoring)
    }

    /// What the test compares: per interface, index, name, MTU, up flag, operstate and sorted addresses.
    private struct View: Equatable, CustomStringConvertible {
        var index: Int
        var name: String
        var mtu: Int
        var up: Bool
        var operstate: String
        var addresses: [String]
        var description: String { "\(index):\(name) mtu \(mtu) up \(up) \(operstate) \(addresses)" }
    }

    private func kernelView(_ namespace: NetlinkTestNamespace) throws -> [View] {
        let links = try namespace.json("link", "show")
        let addresses = try namespace.json("addr", "show")
        var byIndex: [Int: [String]] = [:]
        for entry in addresses {
            guard let index = entry["ifindex"] as? Int, let info = entry["addr_info"] as? [[String: Any]] else {
                continue
            }
            byIndex[index] = info.compactMap { address in
                guard let local = address["local"] as? String, let prefix = address["prefixlen"] as? Int else {
                    return nil
                }
                return "\(local)/\(prefix)"
            }.sorted()
        }
        return links.compactMap { link -> View? in
            guard let index = link["ifindex"] as? Int, let name = link["ifname"] as? String,
                let mtu = link["mtu"] as? Int, let flags = link["flags"] as? [String],
                let operstate = link["operstate"] as? String
            else { return nil }
            return View(
                index: index, name: name, mtu: mtu, up: flags.contains("UP"), operstate: operstate,
                addresses: byIndex[index] ?? [])
        }.sorted { $0.index < $1.index }
    }

    private func monitorView(_ path: NetworkPath) -> [View] {
        path.interfaces.map { interface in
            View(
                index: interface.index, name: interface.name, mtu: interface.mtu ?? -1, up: interface.isUp,
                operstate: interface.operationalStatus.description,
                addresses: interface.addresses.map { "\($0.address)/\($0.prefixLength)" }.sorted())
        }
    }
}
