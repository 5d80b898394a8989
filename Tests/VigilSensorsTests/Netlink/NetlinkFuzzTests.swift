import CLinuxSupport
import Glibc
import Testing
import VigilSensors
import VigilTestSupport

@Suite(.timeLimit(.minutes(10))) struct NetlinkFuzzTests {
    private static func validRouteDatagram() -> [UInt8] {
        var builder = NetlinkMessageBuilder()
        builder.link(index: 2, name: "eth0", flags: 0x10043, kind: "veth", sequence: 3, messageFlags: 2)
        builder.address(index: 2, address: [192, 0, 2, 10], prefix: 24, sequence: 3)
        builder.route(gateway: nil, outputIndex: nil, multipath: [(2, [10, 0, 0, 1], 0), (3, [10, 0, 1, 1], 1)])
        builder.done(sequence: 3)
        builder.error(sequence: 4, errno: ENOBUFS)
        return builder.bytes
    }

    private static let validUevent: [UInt8] = [
        "change@/devices/virtual/net/v0", "ACTION=change", "DEVPATH=/devices/virtual/net/v0", "SUBSYSTEM=net",
        "SEQNUM=9",
    ].flatMap { Array($0.utf8) + [0] }

    /// The `rtnetlink` fuzz corpus, each datagram with what the mirror holds after it; `Fuzz/run.sh rtnetlink` is
    /// where random bytes go.
    static let routeCorpus: [(name: String, messages: Int, path: String)] = [
        // 192.0.2.2/24 and fd00::2/64 on interface 2, whose link was never announced.
        ("addresses", 2, "unsatisfied (no interface is up)"),
        // eth0 up with carrier, 192.0.2.2/24 on it, a default route via 192.0.2.1 (metric 100), then NLMSG_DONE.
        ("dump", 4, "satisfied via eth0; eth0: routable 192.0.2.2/24; default ipv4 via 192.0.2.1 dev eth0 metric 100"),
        // eth0 (index 2, MTU 1500, operstate up) with carrier and no address.
        ("link", 1, "unsatisfied (no interface with carrier has a usable global address); eth0: carrier"),
        // The same link with its counters, IFLA_STATS64 of this kernel's 25 fields and IFLA_STATS of 23.
        ("link-stats64", 1, "unsatisfied (no interface with carrier has a usable global address); eth0: carrier"),
        // The default route alone, then NLMSG_DONE: interface 2 is known by number only.
        ("route-and-done", 2, "unsatisfied (no interface is up); default ipv4 via 192.0.2.1 dev #2 metric 100"),
    ]

    @Test func everyCorpusInputHasAnExpectation() {
        #expect(FuzzCorpus.names("rtnetlink") == Self.routeCorpus.map(\.name))
        #expect(FuzzCorpus.names("uevent") == ["battery-change", "veth-add"])
    }

    @Test(arguments: routeCorpus.map(\.name))
    func routeCorpusInputGivesItsMessagesAndMirror(name: String) throws {
        let bytes = try #require(FuzzCorpus.input("rtnetlink", name))
        let expected = try #require(Self.routeCorpus.first { $0.name == name })
        let result = RouteMessageParser.parse(bytes)
        #expect(result.envelopes.count == expected.messages && result.malformed == 0 && result.ignored == 0)
        var mirror = NetworkMirror(sysfsRoot: nil)
        mirror.apply(result.envelopes.map(\.message))
        #expect(mirror.path.description == expected.path)
        // Every cut keeps the whole messages before it and counts the one it cuts through as malformed.
        for cut in 0..<bytes.count {
            let partial = RouteMessageParser.parse(Array(bytes.prefix(cut)))
            #expect(result.envelopes.map(\.message).starts(with: partial.envelopes.map(\.message)), "cut at \(cut)")
            #expect(partial.envelopes.count < expected.messages, "cut at \(cut)")
        }
    }

    @Test func ueventCorpusGivesItsEvents() throws {
        let batteryBytes = try #require(FuzzCorpus.input("uevent", "battery-change"))
        let battery = try #require(UeventParser.parse(batteryBytes))
        #expect(battery.action == .change && battery.subsystem == "power_supply" && battery.seqnum == 9)
        #expect(battery.devpath == "/devices/LNXSYSTM:00/PNP0C0A:00/power_supply/BAT0")
        #expect(battery.properties["POWER_SUPPLY_CAPACITY"] == "57")
        let vethBytes = try #require(FuzzCorpus.input("uevent", "veth-add"))
        let veth = try #require(UeventParser.parse(vethBytes))
        #expect(veth.action == .add && veth.subsystem == "net" && veth.seqnum == 1234)
        #expect(veth.properties["INTERFACE"] == "veth0" && veth.properties["IFINDEX"] == "5")
        // The header must agree with ACTION: an event whose header was cut to `chan` is refused, not misread.
        var cut = batteryBytes
        cut.removeSubrange(4..<6)
        #expect(UeventParser.parse(cut) == nil)
    }

    @Test func truncatedMessagesAreSkippedAndCounted() {
        let valid = Self.validRouteDatagram()
        let complete = RouteMessageParser.parse(valid)
        #expect(complete.envelopes.count == 5 && complete.malformed == 0)
        for length in 0..<valid.count {
            let result = RouteMessageParser.parse(Array(valid.prefix(length)))
            #expect(result.envelopes.count <= 5)
            if length % 4 != 0 || result.envelopes.count < 5 {
                #expect(result.malformed + result.envelopes.count + result.ignored > 0 || length < 16)
            }
        }
        // A cut uevent is refused or read with its header intact, never misread.
        for length in 0..<Self.validUevent.count {
            guard let event = UeventParser.parse(Array(Self.validUevent.prefix(length))) else { continue }
            #expect(event.action == .change && event.devpath == "/devices/virtual/net/v0", "cut at \(length)")
        }
    }

    @Test func truncationInsideOneMessageIsMalformed() {
        var builder = NetlinkMessageBuilder()
        builder.link(index: 2, name: "eth0", flags: 0x10043)
        for cut in 1..<builder.bytes.count {
            let result = RouteMessageParser.parse(Array(builder.bytes.prefix(cut)))
            #expect(result.envelopes.isEmpty && result.malformed == 1, "cut at \(cut)")
        }
    }
}
