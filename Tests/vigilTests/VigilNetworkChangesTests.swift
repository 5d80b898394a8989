import Foundation
import Glibc
import Testing
import VigilTestSupport

/// `vigil watch network --changes` against `ip monitor link address route`, side by side in one namespace: each step
/// changes the network, then both must say exactly the expected lines.
///
/// Vigil diffs snapshots, so kernel messages that reach it between two snapshots collapse into one diff; ip prints
/// each message. The steps therefore wait for both after each change, so every comparison covers one step's messages.
/// Two things remain that no wait can order, and the comparison absorbs them on both sides alike: a step's lines are
/// compared as a set (one snapshot's diff lists links, addresses, routes in that order, the kernel its messages in
/// its own), and a link's changes within a step fold into one line (linkwatch announces the operational state up to
/// a second after the flags, which vigil may see in the same snapshot or the next).
@Suite(
    .serialized, .timeLimit(.minutes(5)),
    .enabled(if: NetlinkTestNamespace.isRoot, "needs root to create network namespaces (ip netns add)"))
struct VigilNetworkChangesTests {
    /// A veth pair `va`–`pa`, both up: the start of every replay.
    static let vethUp: [(command: String?, lines: [String])] = [
        (
            "link add va type veth peer name pa",
            [
                "link add pa <BROADCAST,MULTICAST> mtu 1500 state DOWN",
                "link add va <BROADCAST,MULTICAST> mtu 1500 state DOWN",
            ]
        ),
        ("link set pa up", ["link change pa up state LOWERLAYERDOWN"]),
        ("link set va up", ["link change va up carrier on state UP", "link change pa carrier on state UP"]),
    ]

    /// An IPv4 address on `va`, with the prefix route the kernel adds for it.
    static let ipv4Address: [(command: String?, lines: [String])] = [
        ("address add 10.0.0.1/24 dev va", ["address add 10.0.0.1/24 dev va", "route add 10.0.0.0/24 dev va"])
    ]

    @Test func linkChangesSayWhatChanged() async throws {
        try await Beside.replay(
            Self.vethUp + [
                ("link set va mtu 1400", ["link change va mtu 1400"]),
                (
                    "link set va down",
                    ["link change va down carrier off state DOWN", "link change pa carrier off state LOWERLAYERDOWN"]
                ),
                ("link set va name vb", ["link change va name vb"]),
                ("link set vb address 02:00:00:00:00:01", ["link change vb address 02:00:00:00:00:01"]),
                ("link set vb promisc on", ["link change vb +PROMISC"]),
                ("link set pa down", ["link change pa down state DOWN"]),
                ("link del vb", ["link del pa", "link del vb"]),
            ])
    }

    @Test func addressFlagsChangeIsOneChangeLine() async throws {
        try await Beside.replay(
            Self.vethUp + Self.ipv4Address + [
                // Duplicate address detection runs on a veth with carrier: the address comes tentative, and about a
                // second later the kernel announces it again without that flag, as one change line. One step: a
                // loaded machine may take that second to check the first lines.
                (
                    "address add 2001:db8::1/64 dev va",
                    [
                        "address add 2001:db8::1/64 dev va tentative", "route add 2001:db8::/64 dev va metric 256",
                        "address change 2001:db8::1/64 dev va -tentative",
                    ]
                ),
                (
                    "address add 2001:db8:1::1/64 dev va nodad",
                    [
                        "address add 2001:db8:1::1/64 dev va nodad", "route add 2001:db8:1::/64 dev va metric 256",
                    ]
                ),
                ("address del 10.0.0.1/24 dev va", ["address del 10.0.0.1/24 dev va", "route del 10.0.0.0/24 dev va"]),
                (
                    "address del 2001:db8:1::1/64 dev va",
                    [
                        "address del 2001:db8:1::1/64 dev va", "route del 2001:db8:1::/64 dev va metric 256",
                    ]
                ),
            ])
    }

    @Test func everyRouteIsReportedInIPWords() async throws {
        try await Beside.replay(
            Self.vethUp + Self.ipv4Address + [
                (
                    "address add 2001:db8::1/64 dev va nodad",
                    [
                        "address add 2001:db8::1/64 dev va nodad", "route add 2001:db8::/64 dev va metric 256",
                    ]
                ),
                ("route add 10.1.0.0/16 via 10.0.0.254 dev va", ["route add 10.1.0.0/16 via 10.0.0.254 dev va"]),
                ("route add 10.5.5.5 dev va", ["route add 10.5.5.5 dev va"]),
                ("route add default via 10.0.0.254", ["route add default via 10.0.0.254 dev va"]),
                (
                    "route add 10.2.0.0/16 via 10.0.0.254 table 100",
                    ["route add 10.2.0.0/16 via 10.0.0.254 dev va table 100"]
                ),
                ("route replace 10.1.0.0/16 via 10.0.0.253 dev va", ["route change 10.1.0.0/16 via 10.0.0.253 dev va"]),
                (
                    "route add 2001:db8:5::/48 via 2001:db8::fe dev va",
                    [
                        "route add 2001:db8:5::/48 via 2001:db8::fe dev va metric 1024"
                    ]
                ),
                (
                    "route add default via 2001:db8::fe dev va",
                    ["route add default via 2001:db8::fe dev va metric 1024"]
                ),
                ("route del 10.1.0.0/16", ["route del 10.1.0.0/16 via 10.0.0.253 dev va"]),
                ("route del 2001:db8:5::/48", ["route del 2001:db8:5::/48 via 2001:db8::fe dev va metric 1024"]),
                ("route del default via 10.0.0.254", ["route del default via 10.0.0.254 dev va"]),
                ("route del 10.5.5.5 dev va", ["route del 10.5.5.5 dev va"]),
                ("route del 10.2.0.0/16 table 100", ["route del 10.2.0.0/16 via 10.0.0.254 dev va table 100"]),
            ])
    }

    @Test func jsonChangeLinesCarryActionAndDetail() async throws {
        let namespace = try NetlinkTestNamespace()
        defer { namespace.remove() }
        let vigil = try ChildProcess(vigil: ["watch", "network", "--changes", "--json", "--netns", namespace.name])
        defer { if vigil.isRunning { vigil.signal(SIGKILL) } }
        #expect(await eventually(within: 20) { vigil.standardOutput.contains("\n") }, "\(vigil.standardError)")
        try namespace.ip("link", "add", "va", "type", "veth", "peer", "name", "pa")
        try namespace.ip("link", "set", "va", "mtu", "1400")
        #expect(
            await eventually(within: 20) { vigil.standardOutput.contains("va mtu 1400") }, "\(vigil.standardOutput)")
        let objects = vigil.standardOutput.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        let change = try #require(objects.first { $0["detail"] as? String == "va mtu 1400" })
        #expect(change["event"] as? String == "link" && change["action"] as? String == "change")
        #expect(change["source"] as? String == "network" && change["status"] as? String == "ok")
    }
}

/// `vigil watch network --changes` and `ip monitor` running beside each other in a namespace of their own.
private final class Beside {
    let namespace: NetlinkTestNamespace
    let vigil: ChildProcess
    let monitor: ChildProcess
    private var vigilMark = 0
    private var ipMark = 0

    init() async throws {
        namespace = try NetlinkTestNamespace()
        // No IPv6 link-local addresses: the kernel adds them, and ends their duplicate address detection, at times
        // of its own, which would fall into whatever step runs then.
        _ = try namespace.output(
            "sysctl", "-qw", "net.ipv6.conf.default.addr_gen_mode=1", "net.ipv6.conf.all.addr_gen_mode=1")
        vigil = try ChildProcess(vigil: ["watch", "network", "--changes", "--netns", namespace.name])
        let ip = try #require(ChildProcess.find("/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"))
        monitor = try ChildProcess(ip, ["-n", namespace.name, "monitor", "link", "address", "route"])
        let vigil = vigil
        try #require(await eventually(within: 20) { vigil.standardOutput.contains("network: status") })
        // ip monitor prints nothing when it starts: change lo's MTU until it has printed a line, then let both fall
        // quiet and start the transcripts there.
        let monitor = monitor
        var mtu = 60000
        var printed = false
        while !printed {
            try #require(mtu < 60100, "ip monitor printed nothing: \(monitor.standardError)")
            mtu += 1
            try namespace.ip("link", "set", "lo", "mtu", String(mtu))
            printed = await eventually(within: 0.5) { !IPMonitorTranscript(monitor.standardOutput).lines.isEmpty }
        }
        var counts = (-1, -1)
        while counts != (vigilLines().count, ipLines().count) {
            counts = (vigilLines().count, ipLines().count)
            try await Task.sleep(for: .milliseconds(300))
        }
        vigilMark = vigilLines().count
        ipMark = ipLines().count
    }

    func remove() {
        vigil.signal(SIGKILL)
        monitor.signal(SIGKILL)
        namespace.remove()
    }

    /// vigil's change lines without the `network: ` prefix and without `status` lines, which ip has no word for.
    private func vigilLines() -> [String] {
        vigil.standardOutput.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("network: "), !line.hasPrefix("network: status") else { return nil }
            return String(line.dropFirst("network: ".count))
        }
    }

    private func ipLines() -> [String] { IPMonitorTranscript(monitor.standardOutput).lines }

    /// Replays `steps` in a fresh namespace, then removes it.
    static func replay(_ steps: [(command: String?, lines: [String])]) async throws {
        let bench = try await Beside()
        defer { bench.remove() }
        try await bench.replay(steps)
    }

    /// Runs each step's `ip` command (none: just wait) and checks that vigil and ip both print its lines, and nothing
    /// more, before the next step starts.
    func replay(_ steps: [(command: String?, lines: [String])]) async throws {
        for (command, lines) in steps {
            if let command { try namespace.ipBatch([command]) }
            let expected = Self.fold(lines)
            let both = {
                (
                    Self.fold(Array(self.vigilLines().dropFirst(self.vigilMark))),
                    Self.fold(Array(self.ipLines().dropFirst(self.ipMark)))
                )
            }
            var settled = false
            for _ in 0..<2 where !settled {
                _ = await eventually(within: 5) { both() == (expected, expected) }
                // Let late messages of the step arrive, and check that nothing more came.
                try await Task.sleep(for: .milliseconds(300))
                settled = both() == (expected, expected)
            }
            let (vigil, ip) = both()
            #expect(vigil == expected, "vigil after `\(command ?? "waiting")`")
            #expect(ip == expected, "ip monitor after `\(command ?? "waiting")`")
            vigilMark = vigilLines().count
            ipMark = ipLines().count
        }
    }

    /// The lines sorted, with each link's `link change` lines folded into one: a later value of the same aspect wins.
    static func fold(_ lines: [String]) -> [String] {
        var others: [String] = []
        var changes: [String: [(aspect: String, words: String)]] = [:]
        for line in lines {
            guard line.hasPrefix("link change ") else {
                others.append(line)
                continue
            }
            var words = line.split(separator: " ").dropFirst(2).map(String.init)
            let name = words.removeFirst()
            var aspects = changes[name] ?? []
            while let word = words.first {
                words.removeFirst()
                var entry = (aspect: word, words: word)
                if ["name", "carrier", "state", "mtu", "address"].contains(word), let value = words.first {
                    words.removeFirst()
                    entry.words += " " + value
                } else if word == "up" || word == "down" {
                    entry.aspect = "up"
                } else {
                    entry.aspect = String(word.dropFirst())
                }
                aspects.removeAll { $0.aspect == entry.aspect }
                aspects.append(entry)
            }
            changes[name] = aspects
        }
        let order = ["name", "up", "carrier", "state", "mtu", "address"]
        for (name, aspects) in changes {
            let sorted = aspects.sorted { ($0.aspect, $0.words) < ($1.aspect, $1.words) }
            let known = order.compactMap { aspect in sorted.first { $0.aspect == aspect }?.words }
            let flags = sorted.filter { !order.contains($0.aspect) }.map(\.words)
            others.append((["link change", name] + known + flags).joined(separator: " "))
        }
        return others.sorted()
    }
}
