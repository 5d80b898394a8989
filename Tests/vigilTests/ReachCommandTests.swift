import Foundation
import Glibc
import Testing
import VigilSensors
import VigilTestSupport

extension InotifyKernelTests {
    /// `vigil watch reach NAME:PORT ADDR…` end to end inside a network namespace (`ip netns exec`, which bind-mounts
    /// `/etc/netns/NAME/resolv.conf`), its names answered by a `dnsmasq` in the peer namespace, which also listens
    /// on TCP port 53; firewall rules in the peer drop port 8081 and reject 8082. Every route type, in IPv4 and IPv6,
    /// and a policy rule with a mark: every answer must agree with `ip -j route get` in the namespace and with a TCP
    /// connect from it.
    @Suite(.serialized, .timeLimit(.minutes(10)))
    struct ReachCommandTests {
        private final class Network {
            /// `ip`, by its path: the process runner takes no search.
            static let ip = ChildProcess.installed("ip") ?? "/usr/sbin/ip"
            let here: NetlinkTestNamespace
            let peer: NetlinkTestNamespace
            let dnsmasq: ChildProcess
            let etc: String

            init() async throws {
                guard NetlinkTestNamespace.isRoot else {
                    throw NetlinkTestFailure("needs root to create network namespaces (ip netns add)")
                }
                guard let dnsmasqPath = ChildProcess.installed("dnsmasq"), ChildProcess.installed("nft") != nil else {
                    throw NetlinkTestFailure("needs dnsmasq and nft (.ci/setup installs them)")
                }
                here = try NetlinkTestNamespace()
                peer = try NetlinkTestNamespace()
                etc = "/etc/netns/" + here.name
                do {
                    dnsmasq = try Self.configure(here: here, peer: peer, etc: etc, dnsmasq: dnsmasqPath)
                } catch {
                    Self.remove(here: here, peer: peer, etc: etc)
                    throw error
                }
                let here = here
                let answers = await eventually(within: 20) {
                    (try? here.output("getent", "hosts", "name.test"))?.contains("10.9.0.2") == true
                }
                #expect(answers, "dnsmasq does not answer: \(dnsmasq.standardError)")
            }

            func remove() {
                dnsmasq.signal(SIGTERM)
                Self.remove(here: here, peer: peer, etc: etc)
            }

            /// Addresses, routes, rules and firewall rules in both namespaces, this one's resolv.conf, and dnsmasq
            /// started in the peer.
            private static func configure(
                here: NetlinkTestNamespace, peer: NetlinkTestNamespace, etc: String, dnsmasq: String
            ) throws -> ChildProcess {
                mkdir("/etc/netns", 0o755)
                mkdir(etc, 0o755)
                #expect(writeFile(etc + "/resolv.conf", "nameserver 10.9.0.2\n"))
                try here.ipBatch([
                    "link set lo up", "link add v0 type veth peer name v1 netns \(peer.name)",
                    "addr add 10.9.0.1/24 dev v0", "addr add fd00::1/64 dev v0 nodad", "link set v0 up",
                    "route add 203.0.113.0/24 via 10.9.0.2", "route add unreachable 198.51.100.1",
                    "route add prohibit 198.51.100.2", "route add blackhole 198.51.100.3",
                    "route add throw 198.51.100.4", "route add 2001:db8:1::/48 via fd00::2",
                    "route add unreachable fd01::1", "route add prohibit fd01::2", "route add blackhole fd01::3",
                    "route add 198.18.0.0/24 via 172.16.0.1 dev v0 onlink", "route add anycast 10.7.0.1 dev v0",
                    "route add anycast fd00:5::1 dev v0", "route add 224.0.0.0/4 dev v0",
                    "route add 192.0.2.0/24 via 10.9.0.2 table 100", "rule add fwmark 7 table 100",
                ])
                // 192.0.2.1 is reached only through the marked table: dnsmasq answers on it too.
                try peer.ipBatch([
                    "link set lo up", "addr add 10.9.0.2/24 dev v1", "addr add fd00::2/64 dev v1 nodad",
                    "addr add 192.0.2.1/32 dev lo", "link set v1 up",
                ])
                try peer.dropAndRejectTCP(dropping: 8081, rejecting: 8082)
                return try ChildProcess(
                    dnsmasq,
                    [
                        "--no-daemon", "--conf-file=/dev/null", "--no-resolv", "--no-hosts",
                        "--address=/name.test/10.9.0.2", "--listen-address=10.9.0.2,192.0.2.1", "--bind-interfaces",
                        "--pid-file=",
                    ], wrapper: [Network.ip, "netns", "exec", peer.name])
            }

            private static func remove(here: NetlinkTestNamespace, peer: NetlinkTestNamespace, etc: String) {
                here.remove()
                peer.remove()
                unlink(etc + "/resolv.conf")
                rmdir(etc)
            }

            /// `vigil watch reach TARGETS… --count 1 --json` inside this namespace: its one report's targets.
            func watch(_ targets: [String], options: [String] = []) async throws -> [[String: Any]] {
                let vigil = try #require(ChildProcess.vigil, "build the vigil product first (swift build)")
                let child = try ChildProcess(
                    vigil, ["watch", "reach"] + targets + options + ["--count", "1", "--json"],
                    wrapper: [Network.ip, "netns", "exec", here.name])
                #expect(await child.waitForExit(), "vigil did not exit: \(child.standardError)")
                #expect(child.exitStatus == 0, "\(child.standardError)")
                let object = try #require(try VigilOutput.objects(child.standardOutput).first)
                #expect(object["source"] as? String == "reach" && object["status"] as? String == "ok")
                return try #require(object["targets"] as? [[String: Any]])
            }

            /// The words of ``NetlinkTestNamespace/routeGetWords(_:mark:)`` from one target of vigil's JSON.
            static func words(_ target: [String: Any]) -> String {
                guard let route = target["route"] as? [String: Any], target["problem"] == nil else {
                    return target["problemCode"] as? String ?? "missing"
                }
                return NetlinkTestNamespace.routeWords(
                    isLocal: route["local"] as? Bool == true, gateway: route["gateway"] as? String,
                    interface: route["interface"] as? String, source: route["sourceAddress"] as? String)
            }
        }

        private static func network() async throws -> Network {
            do {
                return try await Network()
            } catch let failure as NetlinkTestFailure {
                try skip("\(failure)", expectedUnderCI: false)
            }
        }

        @Test func everyScenarioAgreesWithIPRouteGetAndATCPConnect() async throws {
            let network = try await Self.network()
            defer { network.remove() }
            let targets = [
                "name.test:53", "missing.test", "203.0.113.5", "10.9.0.2:8081", "10.9.0.2:8082", "10.9.0.2:8083",
                "198.51.100.1", "198.51.100.2", "198.51.100.3", "198.51.100.4", "8.8.8.8", "10.9.0.1", "10.9.0.255",
                "198.18.0.7", "10.7.0.1", "239.1.1.1", "2001:db8:1::5", "fd00::1", "[fd00::2]:8082", "fd01::1",
                "fd01::2", "fd01::3", "fd00:5::1", "ff05::1",
            ]
            let answers = try await network.watch(targets)
            #expect(answers.map { $0["target"] as? String } == targets)
            for answer in answers {
                let target = try #require(answer["target"] as? String)
                if target == "missing.test" {
                    #expect(answer["problemCode"] as? String == "dns_failed", "\(answer)")
                    continue
                }
                let address = try #require(answer["address"] as? String, "\(answer)")
                #expect(Network.words(answer) == network.here.routeGetWords(address), "\(target)")
                if let port = try ReachTarget(parsing: target).port {
                    #expect(answer["tcp"] as? String == network.here.tcpConnectAnswer(address, port), "\(target)")
                }
            }
            #expect(answers.first?["address"] as? String == "10.9.0.2", "name.test resolved through dnsmasq")
            #expect(answers.first?["tcp"] as? String == "answered", "dnsmasq listens on TCP 53")
        }

        @Test func aMarkAndAPeerLinkDownAgreeToo() async throws {
            let network = try await Self.network()
            defer { network.remove() }
            let marked = try await network.watch(["192.0.2.1:53"], options: ["--mark", "7"])
            #expect(Network.words(marked[0]) == network.here.routeGetWords("192.0.2.1", mark: 7))
            #expect((marked[0]["route"] as? [String: Any])?["table"] as? Int == 100)
            // The probe carries the mark too, so it leaves through the marked table as a marked connect does.
            #expect(marked[0]["tcp"] as? String == "answered", "\(marked[0])")
            #expect(marked[0]["tcp"] as? String == network.here.markedTCPConnectAnswer("192.0.2.1", 53, mark: 7))
            let plain = try await network.watch(["192.0.2.1"])
            #expect(Network.words(plain[0]) == network.here.routeGetWords("192.0.2.1"))
            try network.peer.ip("link", "set", "v1", "down")
            let down = try await network.watch(["203.0.113.5", "10.9.0.2:53"])
            // The kernel still routes through v0; its missing carrier is what makes the target unreachable.
            #expect(network.here.routeGetWords("203.0.113.5") == "via 10.9.0.2 dev v0 src 10.9.0.1")
            let flags = try network.here.json("link", "show", "v0").first?["flags"] as? [String]
            #expect(flags?.contains("LOWER_UP") == false)
            for answer in down {
                #expect(answer["problemCode"] as? String == "no_carrier", "\(answer)")
                #expect(answer["problem"] as? String == "no carrier on v0")
                #expect(answer["tcp"] == nil, "no probe where no packet can leave")
            }
        }
    }
}
