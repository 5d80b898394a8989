import Foundation
import Glibc
import Testing
import Vigil
import VigilTestSupport
import VigilTesting

@testable import VigilSensors

/// The `reach` source against the real kernel, in two network namespaces joined by a veth pair (`v0` 10.9.0.1 and
/// fd00::1 here, `v1` 10.9.0.2 and fd00::2 in the peer): every route type, a peer link down, a policy rule with a
/// mark, TCP listeners and firewall rules. `ip -j route get` in the same namespace is the oracle of every answer.
@Suite(.serialized, .timeLimit(.minutes(10)))
struct ReachabilityNamespaceTests {
    /// The two namespaces, routes of every type, and a peer that can listen.
    private final class Bench {
        let here: NetlinkTestNamespace
        let peer: NetlinkTestNamespace

        /// The path of `tool`, or a throw when it is not installed.
        static func which(_ tool: String) throws -> String {
            for directory in ["/usr/sbin", "/usr/bin", "/sbin", "/bin"] where access(directory + "/" + tool, X_OK) == 0
            {
                return directory + "/" + tool
            }
            throw NetlinkTestFailure("\(tool) is not installed")
        }

        /// The bench, or a skip (a failure under CI) when the tests do not run as root.
        static func make() throws -> Bench {
            if !NetlinkTestNamespace.isRoot {
                try skip("needs root to create network namespaces (ip netns add)", expectedUnderCI: false)
            }
            return try Bench()
        }

        private init() throws {
            here = try NetlinkTestNamespace()
            peer = try NetlinkTestNamespace()
            do {
                try here.ipBatch([
                    "link set lo up", "link add v0 type veth peer name v1 netns \(peer.name)",
                    "addr add 10.9.0.1/24 dev v0", "addr add fd00::1/64 dev v0 nodad", "link set v0 up",
                ])
                try peer.ipBatch([
                    "link set lo up", "addr add 10.9.0.2/24 dev v1", "addr add fd00::2/64 dev v1 nodad",
                    "link set v1 up",
                ])
                try here.ipBatch([
                    "route add 203.0.113.0/24 via 10.9.0.2", "route add unreachable 198.51.100.1",
                    "route add prohibit 198.51.100.2", "route add blackhole 198.51.100.3",
                    "route add throw 198.51.100.4",
                    "route add 2001:db8:1::/48 via fd00::2", "route add unreachable fd01::1",
                    "route add prohibit fd01::2",
                    "route add blackhole fd01::3", "route add throw fd01::4",
                    "route add 192.0.2.0/24 via 10.9.0.2 table 100", "rule add fwmark 7 table 100",
                    "route add 198.18.0.0/24 via 172.16.0.1 dev v0 onlink", "route add anycast 10.7.0.1 dev v0",
                    "route add anycast fd00:5::1 dev v0", "route add 224.0.0.0/4 dev v0",
                ])
            } catch {
                remove()
                throw error
            }
        }

        func remove() {
            here.remove()
            peer.remove()
        }

        /// A socket listening on `address` port `port` in the peer namespace; close it to stop listening.
        func listen(_ address: String, port: Int) throws -> FileDescriptor {
            let raw = try NetlinkSocket.inNamespace(peer.path) { () throws(SensorError) -> Int32 in
                let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
                var socketAddress = sockaddr_in()
                socketAddress.sin_family = sa_family_t(AF_INET)
                socketAddress.sin_port = in_port_t(UInt16(port).bigEndian)
                inet_pton(AF_INET, address, &socketAddress.sin_addr)
                let bound = withUnsafePointer(to: &socketAddress) { pointer in
                    pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                    }
                }
                guard fd >= 0, bound == 0, Glibc.listen(fd, 16) == 0 else {
                    let error = SensorError.from(Errno.current, call: "listen", path: "\(address):\(port)")
                    if fd >= 0 { close(fd) }
                    throw error
                }
                return fd
            }
            return FileDescriptor(raw)
        }

        /// A started monitor of `targets` in this namespace whose first report is out.
        func monitor(_ targets: [String], mark: UInt32? = nil) async throws -> ReachabilityMonitor {
            let monitor = ReachabilityMonitor(
                targets: try targets.map { try ReachTarget(parsing: $0) }, mark: mark, probeTimeout: .seconds(2),
                namespace: here.path)
            try monitor.startMonitoring()
            let ready = await eventually(within: 20) { monitor.readings.value.value != nil }
            #expect(ready, "no first report")
            return monitor
        }
    }

    /// The words of ``NetlinkTestNamespace/routeGetWords(_:mark:)`` from the monitor's answer.
    private static func words(_ answer: TargetReachability?) -> String {
        guard let answer else { return "missing" }
        if let route = answer.route {
            return NetlinkTestNamespace.routeWords(
                isLocal: route.isLocal, gateway: route.gateway?.description, interface: route.interface,
                source: route.sourceAddress?.description)
        }
        return answer.problem?.code ?? "nothing"
    }

    static let addresses = [
        "203.0.113.5", "10.9.0.2", "10.9.0.1", "198.51.100.1", "198.51.100.2", "198.51.100.3", "198.51.100.4",
        "8.8.8.8", "2001:db8:1::5", "fd00::2", "fd00::1", "fd01::1", "fd01::2", "fd01::3", "fd01::4", "2001:db8:9::1",
        "10.9.0.255", "198.18.0.7", "10.7.0.1", "fd00:5::1", "239.1.1.1", "ff05::1",
    ]

    @Test func everyRouteTypeAgreesWithIPRouteGet() async throws {
        let bench = try Bench.make()
        defer { bench.remove() }
        let monitor = try await bench.monitor(Self.addresses)
        defer { monitor.stopMonitoring() }
        let report = try #require(monitor.readings.value.value)
        for address in Self.addresses {
            let answer = report.target(address)
            #expect(Self.words(answer) == bench.here.routeGetWords(address), "\(address)")
        }
        #expect(report.target("203.0.113.5")?.isReachable == true)
        #expect(report.target("203.0.113.5")?.route?.medium == .virtual)
        #expect(report.target("10.9.0.2")?.route?.isDirect == true)
        #expect(report.target("10.9.0.1")?.route?.isLocal == true)
        #expect(report.target("10.9.0.1")?.route?.medium == .loopback)
        #expect(report.target("198.51.100.4")?.problem == .noRoute)
        #expect(report.target("fd01::3")?.problem == .blackholed)
        #expect(report.target("10.9.0.255")?.route?.type == .broadcast)
        #expect(report.target("198.18.0.7")?.route?.gateway?.description == "172.16.0.1", "an onlink gateway")
        #expect(report.target("10.7.0.1")?.route?.type == .anycast)
        #expect(report.target("fd00:5::1")?.route?.type == .anycast)
        #expect(report.target("239.1.1.1")?.route?.type == .multicast)
        #expect(report.target("ff05::1")?.route?.type == .multicast)
    }

    @Test func aPeerLinkDownIsNoCarrierThoughTheKernelStillRoutes() async throws {
        let bench = try Bench.make()
        defer { bench.remove() }
        let monitor = try await bench.monitor(["203.0.113.5", "fd00::2"])
        defer { monitor.stopMonitoring() }
        #expect(monitor.readings.value.value?.targets.allSatisfy(\.isReachable) == true)
        try bench.peer.ip("link", "set", "v1", "down")
        let noCarrier = await eventually(within: 20) {
            monitor.readings.value.value?.targets.allSatisfy { $0.problem == .noCarrier(interface: "v0") } == true
        }
        #expect(noCarrier, "\(monitor.readings.value)")
        // The kernel's lookup still answers with the route: the carrier comes from the mirror.
        #expect(bench.here.routeGetWords("203.0.113.5") == "via 10.9.0.2 dev v0 src 10.9.0.1")
        try bench.peer.ip("link", "set", "v1", "up")
        let back = await eventually(within: 20) {
            monitor.readings.value.value?.targets.allSatisfy(\.isReachable) == true
        }
        #expect(back, "\(monitor.readings.value)")
    }

    @Test func aMarkSelectsThePolicyRulesTable() async throws {
        let bench = try Bench.make()
        defer { bench.remove() }
        let marked = try await bench.monitor(["192.0.2.1"], mark: 7)
        defer { marked.stopMonitoring() }
        let plain = try await bench.monitor(["192.0.2.1"])
        defer { plain.stopMonitoring() }
        let answer = marked.readings.value.value?.target("192.0.2.1")
        #expect(Self.words(answer) == bench.here.routeGetWords("192.0.2.1", mark: 7))
        #expect(answer?.route?.table == 100)
        #expect(Self.words(plain.readings.value.value?.target("192.0.2.1")) == bench.here.routeGetWords("192.0.2.1"))
        #expect(plain.readings.value.value?.target("192.0.2.1")?.problem == .noRoute)
        // Removing the rule is a rule change the monitor hears: the marked lookup finds no route any more.
        try bench.here.ip("rule", "del", "fwmark", "7", "table", "100")
        let gone = await eventually(within: 20) {
            marked.readings.value.value?.target("192.0.2.1")?.problem == .noRoute
        }
        #expect(gone, "\(marked.readings.value)")
    }

    /// A target's TCP probe leaves as its marked lookup says: the socket carries the mark, so it takes the policy
    /// rule's table (only that table routes 192.0.2.0/24) and reaches the listener, as a marked connect does.
    @Test func aMarkedTargetsProbeTakesTheMarkedRoute() async throws {
        let bench = try Bench.make()
        defer { bench.remove() }
        try bench.peer.ip("addr", "add", "192.0.2.1/32", "dev", "lo")
        let listener = try bench.listen("192.0.2.1", port: 8090)
        defer { _ = listener.close() }
        let marked = try await bench.monitor(["192.0.2.1:8090"], mark: 7)
        defer { marked.stopMonitoring() }
        let answer = try #require(marked.readings.value.value?.target("192.0.2.1:8090"))
        #expect(answer.isReachable, "\(answer)")
        #expect(answer.tcp?.code == "answered", "\(answer)")
        #expect(answer.tcp?.code == bench.here.markedTCPConnectAnswer("192.0.2.1", 8090, mark: 7))
        // Unmarked, no table routes it: the connect from the namespace fails as the unmarked lookup says.
        #expect(bench.here.tcpConnectAnswer("192.0.2.1", 8090) != "answered")
    }

    @Test func routeChangesAreFollowedWithoutPolling() async throws {
        let bench = try Bench.make()
        defer { bench.remove() }
        let monitor = try await bench.monitor(["100.64.0.1", "fd02::1"])
        defer { monitor.stopMonitoring() }
        #expect(monitor.readings.value.value?.target("100.64.0.1")?.problem == .noRoute)
        try bench.here.ip("route", "add", "100.64.0.0/16", "via", "10.9.0.2")
        try bench.here.ip("-6", "route", "add", "prohibit", "fd02::/64")
        let followed = await eventually(within: 20) {
            let report = monitor.readings.value.value
            return report?.target("100.64.0.1")?.isReachable == true
                && report?.target("fd02::1")?.problem == .prohibitedRoute
        }
        #expect(followed, "\(monitor.readings.value)")
        #expect(
            Self.words(monitor.readings.value.value?.target("100.64.0.1")) == bench.here.routeGetWords("100.64.0.1"))
        try bench.here.ip("addr", "flush", "dev", "v0")
        let noSource = await eventually(within: 20) {
            let problem = monitor.readings.value.value?.target("100.64.0.1")?.problem
            return problem != nil
        }
        #expect(noSource, "\(monitor.readings.value)")
        #expect(
            Self.words(monitor.readings.value.value?.target("100.64.0.1")) == bench.here.routeGetWords("100.64.0.1"))
    }

    @Test func tcpProbesTellAListenerRefusalsAndDropsApartFromTheRoute() async throws {
        if (try? Bench.which("nft")) == nil {
            try skip("needs nft (nftables) for drop and reject rules", expectedUnderCI: false)
        }
        let bench = try Bench.make()
        defer { bench.remove() }
        let listener = try bench.listen("10.9.0.2", port: 8080)
        defer { _ = listener.close() }
        try bench.peer.dropAndRejectTCP(dropping: 8081, rejecting: 8082)
        let clock = ManualClock()
        let loop = EventLoop(clock: clock)
        defer { loop.shutdown() }
        let targets = ["10.9.0.2:8080", "10.9.0.2:8081", "10.9.0.2:8082", "10.9.0.2:8083"]
        let monitor = ReachabilityMonitor(
            targets: try targets.map { try ReachTarget(parsing: $0) }, probeTimeout: .seconds(2),
            namespace: bench.here.path, eventLoop: loop)
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        // The dropped connect waits for its timer; the others end by themselves. The first report waits for all.
        let waiting = await eventually(within: 20) { monitor.runningProbes == 1 }
        #expect(waiting, "probes running: \(monitor.runningProbes)")
        #expect(monitor.readings.value.value == nil, "the first report came before its probes ended")
        await clock.advance(by: .seconds(2))
        let answered = await eventually(within: 20) { monitor.readings.value.value != nil }
        #expect(answered)
        let report = try #require(monitor.readings.value.value)
        #expect(report.targets.map { $0.tcp?.code } == ["answered", "timed_out", "refused", "refused"])
        for answer in report.targets {
            #expect(answer.isReachable, "the route does not depend on the port: \(answer)")
            #expect(answer.tcp?.code == bench.here.tcpConnectAnswer("10.9.0.2", answer.target.port!), "\(answer)")
        }
        #expect(monitor.runningProbes == 0, "every probe's socket is closed once it answered")
        // Stopping closes a probe that is still running.
        monitor.refresh()
        _ = await eventually(within: 20) { monitor.runningProbes == 1 }
        let running = monitor.probeDescriptors.first.flatMap(Self.openFile)
        #expect(running?.hasPrefix("socket:") == true, "\(String(describing: running))")
        monitor.stopMonitoring()
        #expect(monitor.runningProbes == 0)
        #expect(Self.openFiles().allSatisfy { $0 != running }, "the stopped monitor's probe socket is still open")
        // Releasing a running monitor closes a probe that is still running.
        var socket: String?
        do {
            let released = ReachabilityMonitor(
                targets: [ReachTarget(host: "10.9.0.2", port: 8081)], namespace: bench.here.path, eventLoop: loop)
            try released.startMonitoring()
            #expect(await eventually(within: 20) { released.runningProbes == 1 })
            socket = released.probeDescriptors.first.flatMap(Self.openFile)
            #expect(socket?.hasPrefix("socket:") == true, "\(String(describing: socket))")
        }
        try await loop.barrier()
        let closed = await eventually(within: 20) { Self.openFiles().allSatisfy { $0 != socket } }
        #expect(closed, "the released monitor's probe socket \(socket ?? "") is still open")
    }

    /// What descriptor `number` of this process is (`socket:[INODE]` for a socket), from `/proc/self/fd`.
    private static func openFile(_ number: Int32) -> String? {
        try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(number)")
    }

    /// What every open descriptor of this process is.
    private static func openFiles() -> [String] {
        let numbers = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return numbers.compactMap { Int32($0).flatMap(openFile) }
    }

    @Test func aTentativeAddressIsNoUsableSourceTillDuplicateDetectionEnds() async throws {
        if !NetlinkTestNamespace.isRoot {
            try skip("needs root to create network namespaces (ip netns add)", expectedUnderCI: false)
        }
        let namespace = try NetlinkTestNamespace()
        defer { namespace.remove() }
        // Ten probes a second apart: the address stays tentative for about ten seconds.
        try namespace.ipBatch(["link set lo up", "link add v0 type veth peer name v1"])
        try namespace.shell("sysctl -qw net.ipv6.conf.v0.dad_transmits=10")
        try namespace.ipBatch(["link set v0 up", "link set v1 up", "addr add fd05::1/64 dev v0"])
        let monitor = ReachabilityMonitor(targets: [ReachTarget(host: "fd05::2")], namespace: namespace.path)
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        let tentative = await eventually(within: 20) {
            monitor.readings.value.value?.targets.first?.problem == .noUsableSourceAddress(interface: "v0")
        }
        #expect(tentative, "\(monitor.readings.value)")
        // The kernel routes it, from the loopback address, which no peer can answer.
        let oracle = try namespace.json("-6", "route", "get", "fd05::2").first
        #expect(oracle?["dev"] as? String == "v0" && oracle?["prefsrc"] as? String == "::1")
        #expect(monitor.readings.value.value?.targets.first?.route?.sourceAddress?.description == "::1")
        try namespace.ipBatch(["addr del fd05::1/64 dev v0", "addr add fd05::1/64 dev v0 nodad"])
        let usable = await eventually(within: 20) { monitor.readings.value.value?.targets.first?.isReachable == true }
        #expect(usable, "\(monitor.readings.value)")
        #expect(monitor.readings.value.value?.targets.first?.route?.sourceAddress?.description == "fd05::1")
    }

    @Test func aFailedLookupSocketIsUnavailableInBandThenRecovers() async throws {
        let bench = try Bench.make()
        defer { bench.remove() }
        let monitor = try await bench.monitor(["203.0.113.5"])
        defer { monitor.stopMonitoring() }
        let seen = FutexMutex<[String]>([])
        let subscription = monitor.readings.subscribe { reading in seen.withLock { $0.append("\(reading)") } }
        defer { subscription.dispose() }
        monitor.driver.simulateSocketError(.ioError, for: monitor)
        let said = await eventually(within: 20) {
            seen.withLock { $0.contains { $0.hasPrefix("unavailable: ") && $0.contains("EIO") } }
        }
        #expect(said, "\(seen.withLock { $0 })")
        // The socket is reopened after 100 ms and the lookups run again: the answer is back, the subject never ended.
        let back = await eventually(within: 20) { monitor.readings.value.value?.targets.first?.isReachable == true }
        #expect(back, "\(monitor.readings.value)")
        #expect(monitor.isMonitoring)
        #expect(Self.words(monitor.readings.value.value?.targets.first) == bench.here.routeGetWords("203.0.113.5"))
    }
}

extension NetlinkTestNamespace {
    /// `ip -n NAME -j ARGS…` with the arguments as an array.
    func jsonArguments(_ arguments: [String]) throws -> [[String: Any]] {
        switch arguments.count {
        case 3: return try json(arguments[0], arguments[1], arguments[2])
        case 5: return try json(arguments[0], arguments[1], arguments[2], arguments[3], arguments[4])
        default: throw NetlinkTestFailure("unsupported arguments \(arguments)")
        }
    }
}
