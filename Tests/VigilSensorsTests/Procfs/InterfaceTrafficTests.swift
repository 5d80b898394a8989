import Foundation
import Glibc
import Testing
import VigilSensors
import VigilTestSupport

@Suite(.timeLimit(.minutes(5))) struct InterfaceTrafficTests {
    static let header = """
        Inter-|   Receive                                                |  Transmit
         face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed

        """

    @Test func parsesEachInterfacesCountersAndLeavesOutALineThatIsNotOne() throws {
        let text =
            Self.header + """
                    lo: 31337844654 93163857    0    0    0     0          0         0 31337844654 93163857    0    0    0     0       0          0
                  eth0: 1000 10 1 2 0 0 0 0 2000 20 3 4 0 0 0 0
                  bad0: 1 2 3
                noColon 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16
                  big0: 18446744073709551615 1 0 0 0 0 0 0 1 1 0 0 0 0 0 0

                """
        let interfaces = try InterfaceTraffic.parse(text)
        #expect(interfaces.map(\.name) == ["lo", "eth0", "big0"])
        #expect(interfaces[0].receive.bytes == 31_337_844_654 && interfaces[0].transmit.packets == 93_163_857)
        let eth0 = interfaces[1]
        #expect(
            [eth0.receive.bytes, eth0.receive.packets, eth0.receive.errors, eth0.receive.dropped] == [1000, 10, 1, 2])
        #expect(
            [eth0.transmit.bytes, eth0.transmit.packets, eth0.transmit.errors, eth0.transmit.dropped] == [
                2000, 20, 3, 4,
            ])
        #expect(interfaces[2].receive.bytes == UInt64.max)
    }

    @Test(arguments: ["", "lo: 1 2 3", "Inter-|\nno header\n"])
    func refusesTextWithoutTheKernelsHeader(text: String) {
        #expect(throws: SensorError.self) { try InterfaceTraffic.parse(text) }
    }

    /// The counters of a network namespace of its own, after traffic on its loopback, are what `ip -s -j link`
    /// says in that namespace (read through `/proc/PID/net/dev` of a process inside it).
    @Test func countersAreWhatIpSaysInANamespace() async throws {
        guard getuid() == 0, let unshare = ChildProcess.installed("unshare"),
            let nsenter = ChildProcess.installed("nsenter"),
            let ip = ChildProcess.installed("ip")
        else {
            try skip(
                "needs root, unshare(1), nsenter(1) and ip(8) (iproute2; .ci/setup installs it)", expectedUnderCI: false
            )
        }
        // Datagrams to a closed port on the namespace's loopback: each is sent and received, and answered by ICMP.
        let traffic = "ip link set lo up && for i in 1 2 3 4 5; do echo hi > /dev/udp/127.0.0.1/9; done; exec sleep 600"
        let holder = try ChildProcess(unshare, ["--net", "bash", "-c", traffic])
        defer { holder.signal(SIGKILL) }
        let procRoot = "/proc/\(holder.pid)"
        // Once it runs sleep, it is in its namespace (unshare(1) runs the command after unshare(2)) and sent all.
        #expect(await eventually(within: 10) { readWholeFile(procRoot + "/comm") == "sleep\n" })
        let counters = try #require(try InterfaceTraffic.read(procRoot: procRoot).first { $0.name == "lo" })
        let oracle = try ChildProcess(nsenter, ["--net=\(procRoot)/ns/net", ip, "-s", "-j", "link", "show", "lo"])
        #expect(await oracle.waitForExit())
        let links = try #require(
            try JSONSerialization.jsonObject(with: Data(oracle.standardOutput.utf8)) as? [[String: Any]])
        let stats = try #require(links.first?["stats64"] as? [String: Any])
        let rx = try #require(stats["rx"] as? [String: Any])
        let tx = try #require(stats["tx"] as? [String: Any])
        func number(_ object: [String: Any], _ key: String) -> UInt64 {
            (object[key] as? NSNumber)?.uint64Value ?? .max
        }
        #expect(counters.receive.bytes == number(rx, "bytes") && counters.receive.packets == number(rx, "packets"))
        #expect(counters.receive.errors == number(rx, "errors") && counters.receive.dropped == number(rx, "dropped"))
        #expect(counters.transmit.bytes == number(tx, "bytes") && counters.transmit.packets == number(tx, "packets"))
        #expect(counters.transmit.errors == number(tx, "errors") && counters.transmit.dropped == number(tx, "dropped"))
    }
}
