import Foundation
import Testing
import Vigil
import VigilSensors
import VigilTestSupport

/// Default routes and addresses the kernel treats specially (multipath built hop by hop, revived paths, keys that
/// differ only in TOS, IPv4 secondary addresses): the mirror must equal `ip -j` after every step.
@Suite(
    .serialized, .timeLimit(.minutes(10)),
    .enabled(if: NetlinkTestNamespace.isRoot, "needs root to create network namespaces (ip netns add)"))
struct NetworkMonitorRouteTests {
    /// A namespace with two veth pairs, `va`–`pa` and `vb`–`pb`, up, with IPv4 and IPv6 addresses on `va` and `vb`,
    /// and a monitor inside it whose first dump is complete.
    private struct Bench {
        let namespace: NetlinkTestNamespace
        let monitor: NetworkMonitor

        init() async throws {
            namespace = try NetlinkTestNamespace()
            try namespace.ipBatch([
                "link add va type veth peer name pa", "link add vb type veth peer name pb",
                "link set lo up", "link set va up", "link set pa up", "link set vb up", "link set pb up",
                "addr add 192.0.2.2/24 dev va", "addr add 198.51.100.2/24 dev vb",
                "addr add 2001:db8:a::2/64 dev va nodad", "addr add 2001:db8:b::2/64 dev vb nodad",
            ])
            monitor = NetworkMonitor(namespace: namespace.path)
            try monitor.startMonitoring()
            let monitor = monitor
            _ = await eventually(within: 20) {
                monitor.readings.value.value?.interface(named: "vb")?.hasCarrier == true
            }
        }

        func remove() {
            monitor.stopMonitoring()
            namespace.remove()
        }

        /// The main table's default routes as `ip -j` lists them, one line per route, paths sorted.
        func kernelRoutes(_ family: IPAddress.Family) throws -> [String] {
            let entries = try namespace.json(family == .ipv4 ? "-4" : "-6", "route", "show", "default")
            return entries.map { entry in
                let paths: [[String: Any]] = (entry["nexthops"] as? [[String: Any]]) ?? [entry]
                let hops = paths.filter { !(($0["flags"] as? [String]) ?? []).contains("dead") }.map { path in
                    "\(path["gateway"] as? String ?? "-") \(path["dev"] as? String ?? "-")"
                }.sorted()
                let tos = (entry["tos"] as? String).flatMap { Int($0.dropFirst(2), radix: 16) } ?? 0
                return "metric \(entry["metric"] as? Int ?? 0) tos \(tos) \(hops)"
            }.sorted()
        }

        /// The mirror's default routes of the main table, in the form of ``kernelRoutes(_:)``.
        func mirroredRoutes(_ family: IPAddress.Family) -> [String] {
            guard let path = monitor.readings.value.value else { return [] }
            return path.defaultRoutes.filter { $0.family == family && $0.table == 254 }.map { route in
                let hops = route.nextHops.map { hop in
                    let device = hop.interfaceIndex.flatMap { path.interface(index: $0)?.name } ?? "-"
                    return "\(hop.gateway?.description ?? "-") \(device)"
                }.sorted()
                return "metric \(route.metric) tos \(route.typeOfService) \(hops)"
            }.sorted()
        }

        /// Waits until the mirror's routes of `family` equal the kernel's, and says whether they did.
        func routesMatch(_ family: IPAddress.Family) async throws -> Bool {
            let expected = try kernelRoutes(family)
            return await eventually(within: 20) { mirroredRoutes(family) == expected }
        }
    }

    @Test func ipv6MultipathBuiltByAppendAndDeletedHopByHop() async throws {
        let bench = try await Bench()
        defer { bench.remove() }
        try bench.namespace.ip("-6", "route", "add", "default", "via", "2001:db8:a::1", "dev", "va", "metric", "100")
        try bench.namespace.ip(
            "-6", "route", "append", "default", "via", "2001:db8:b::1", "dev", "vb", "metric", "100")
        #expect(try bench.kernelRoutes(.ipv6).count == 1, "the kernel merged the two into one multipath route")
        #expect(try await bench.routesMatch(.ipv6), "after append: \(bench.mirroredRoutes(.ipv6))")

        try bench.namespace.ip("-6", "route", "del", "default", "via", "2001:db8:a::1", "dev", "va", "metric", "100")
        #expect(try await bench.routesMatch(.ipv6), "after the first delete: \(bench.mirroredRoutes(.ipv6))")
        try bench.namespace.ip("-6", "route", "del", "default", "via", "2001:db8:b::1", "dev", "vb", "metric", "100")
        #expect(try bench.kernelRoutes(.ipv6).isEmpty)
        #expect(try await bench.routesMatch(.ipv6), "after the second delete: \(bench.mirroredRoutes(.ipv6))")
        #expect(bench.monitor.readings.value.value?.status == .unsatisfied(reason: .noDefaultRoute))
    }

    @Test(arguments: [IPAddress.Family.ipv4, .ipv6])
    func multipathPathRevivedByALinkFlapIsMirrored(family: IPAddress.Family) async throws {
        let bench = try await Bench()
        defer { bench.remove() }
        let version = family == .ipv4 ? "-4" : "-6"
        let (gatewayA, gatewayB) = family == .ipv4 ? ("192.0.2.1", "198.51.100.1") : ("2001:db8:a::1", "2001:db8:b::1")
        try bench.namespace.ip(
            version, "route", "add", "default", "nexthop", "via", gatewayA, "dev", "va", "nexthop", "via", gatewayB,
            "dev", "vb")
        #expect(try await bench.routesMatch(family), "multipath: \(bench.mirroredRoutes(family))")

        try bench.namespace.ip("link", "set", "vb", "down")
        #expect(
            await eventually(within: 20) { bench.monitor.readings.value.value?.interface(named: "vb")?.isUp == false })
        try bench.namespace.ip("link", "set", "vb", "up")
        #expect(
            await eventually(within: 20) { (try? bench.kernelRoutes(family))?.first?.contains("vb") == true },
            "the kernel revived the path")
        #expect(try await bench.routesMatch(family), "after the flap: \(bench.mirroredRoutes(family))")
    }

    /// Every unicast route of the main table, not just the default ones, as `ip -j route show` lists them:
    /// `destination gateway device metric`.
    @Test func mirrorHoldsEveryRouteOfTheMainTable() async throws {
        let bench = try await Bench()
        defer { bench.remove() }
        try bench.namespace.ipBatch([
            "route add 10.1.0.0/16 via 192.0.2.1 dev va", "route add 10.5.5.5 dev vb",
            "route add 10.2.0.0/16 via 198.51.100.1 metric 50", "route add default via 192.0.2.1",
            "route add 2001:db8:5::/48 via 2001:db8:a::1 dev va", "route add unreachable 10.9.0.0/16",
            "route add 10.3.0.0/16 via 192.0.2.1 table 100",
        ])
        let kernel = {
            try ["-4", "-6"].flatMap { version in
                try bench.namespace.json(version, "route", "show").filter { $0["type"] == nil }.map { entry in
                    let fields = [entry["dst"] as? String, entry["gateway"] as? String, entry["dev"] as? String]
                    return fields.map { $0 ?? "-" }.joined(separator: " ") + " \(entry["metric"] as? Int ?? 0)"
                }
            }.sorted()
        }
        let mirrored = {
            guard let path = bench.monitor.readings.value.value else { return [String]() }
            return path.routes.filter { $0.table == 254 }.map { route in
                let host = route.prefixLength == route.family.byteCount * 8
                let destination =
                    route.isDefault
                    ? "default" : host ? "\(route.destination)" : "\(route.destination)/\(route.prefixLength)"
                let hop = route.nextHops.first
                let device = hop?.interfaceIndex.flatMap { path.interface(index: $0)?.name }
                return [destination, hop?.gateway?.description, device].map { $0 ?? "-" }.joined(separator: " ")
                    + " \(route.metric)"
            }.sorted()
        }
        let expected = try kernel()
        #expect(
            expected.contains("10.1.0.0/16 192.0.2.1 va 0")
                && expected.contains("2001:db8:5::/48 2001:db8:a::1 va 1024"))
        #expect(await eventually(within: 20) { mirrored() == expected }, "mirror \(mirrored()) kernel \(expected)")
        #expect(bench.monitor.readings.value.value?.routes.contains { $0.table == 100 } == true)
        #expect(bench.monitor.readings.value.value?.defaultRoutes.count == 1, "defaultRoutes holds only default ones")

        try bench.namespace.ipBatch(["route del 10.1.0.0/16", "route del 2001:db8:5::/48"])
        let after = try kernel()
        #expect(await eventually(within: 20) { mirrored() == after }, "mirror \(mirrored()) kernel \(after)")
    }

    @Test func replaceKeepsARouteThatDiffersOnlyInTypeOfService() async throws {
        let bench = try await Bench()
        defer { bench.remove() }
        try bench.namespace.ip("route", "add", "default", "tos", "0x10", "via", "198.51.100.1", "dev", "vb")
        try bench.namespace.ip("route", "add", "default", "via", "192.0.2.1", "dev", "va")
        #expect(try await bench.routesMatch(.ipv4), "before replace: \(bench.mirroredRoutes(.ipv4))")
        try bench.namespace.ip("route", "replace", "default", "via", "198.51.100.1", "dev", "vb")
        #expect(try bench.kernelRoutes(.ipv4).count == 2, "the kernel keeps the TOS route")
        #expect(try await bench.routesMatch(.ipv4), "after replace: \(bench.mirroredRoutes(.ipv4))")
        #expect(bench.monitor.readings.value.value?.defaultRoutes.contains { $0.typeOfService == 0x10 } == true)
    }

    @Test func ipv4SecondaryAddressIsSecondaryNotTemporary() async throws {
        let bench = try await Bench()
        defer { bench.remove() }
        try bench.namespace.ip("addr", "add", "192.0.2.3/24", "dev", "va")
        let kernel = try bench.namespace.json("addr", "show", "dev", "va").first?["addr_info"] as? [[String: Any]]
        #expect(kernel?.first { $0["local"] as? String == "192.0.2.3" }?["secondary"] as? Bool == true)
        let path = { bench.monitor.readings.value.value ?? NetworkPath() }
        #expect(
            await eventually(within: 20) {
                path().interface(named: "va")?.addresses.contains { $0.address.description == "192.0.2.3" } == true
            })
        let addresses = try #require(path().interface(named: "va")?.addresses)
        let secondary = try #require(addresses.first { $0.address.description == "192.0.2.3" })
        #expect(secondary.isSecondary && !secondary.isTemporary)
        #expect(secondary.description.contains("secondary") && !secondary.description.contains("temporary"))
        let primary = try #require(addresses.first { $0.address.description == "192.0.2.2" })
        #expect(!primary.isSecondary && !primary.description.contains("secondary"))
        let json = String(decoding: try JSONEncoder().encode(secondary), as: UTF8.self)
        #expect(json.contains("\"secondary\"") && !json.contains("temporary"), "\(json)")
    }
}
