import CLinuxSupport
import Glibc
import Testing
import Vigil
import VigilTestSupport

@testable import VigilSensors

/// Targets as written, the lookup socket's parser on good and bad bytes, and the verdict a route answer and the
/// mirror give together.
@Suite(.timeLimit(.minutes(5)))
struct ReachabilityUnitTests {
    @Test(
        arguments: [
            ("example.org", "example.org", nil), ("example.org:443", "example.org", 443), ("10.0.0.1", "10.0.0.1", nil),
            ("10.0.0.1:22", "10.0.0.1", 22), ("2001:db8::1", "2001:db8::1", nil),
            ("[2001:db8::1]:443", "2001:db8::1", 443),
            ("[fe80::1]", "fe80::1", nil),
        ] as [(String, String, Int?)])
    func targetsParseAsWritten(text: String, host: String, port: Int?) throws {
        let target = try ReachTarget(parsing: text)
        #expect(target.host == host && target.port == port)
        #expect(try ReachTarget(parsing: target.description) == target)
    }

    @Test(arguments: [
        "", ":80", "host:0", "host:65536", "host:http", "[2001:db8::1", "[10.0.0.1]:80", "[::1]x", "a b",
        "2001:db8::1:x:",
        "host/x", String(repeating: "a", count: 254),
    ])
    func badTargetsAreRefused(text: String) {
        #expect(throws: SensorError.self) { try ReachTarget(parsing: text) }
    }

    /// A zone is refused for what it is: the lookup and the probe are not bound to its interface (they were told
    /// "an IPv6 address with a port is written [ADDRESS]:PORT" or "[ ] holds an IPv6 address").
    @Test(arguments: ["fe80::1%eth0", "[fe80::1%eth0]:22", "fe80::1%2"])
    func anAddressWithAZoneIsRefusedSayingSo(text: String) {
        #expect {
            try ReachTarget(parsing: text)
        } throws: { error in
            "\(error)".contains("an address with a zone (fe80::1%eth0) is not supported")
        }
    }

    @Test func theCatalogRefusesABadTargetAndTakesSeveral() throws {
        let entry = try #require(SourceCatalog.entry(id: "reach"))
        #expect(entry.argumentName == "TARGET…")
        #expect(throws: SensorError.self) { try entry.make(argument: "example.org:99999") }
        #expect(throws: SensorError.self) { try entry.make(argument: " ") }
        let source = try entry.make(argument: "example.org:443 10.0.0.1")
        let monitor = try #require(source.source as? ReachabilityMonitor)
        #expect(monitor.targets.map(\.description) == ["example.org:443", "10.0.0.1"])
    }

    @Test func theRequestIsWhatIPRouteGetSends() {
        let address = IPAddress(literal: "192.0.2.1")!
        let bytes = RouteLookup.requestBytes(for: address, mark: 7, sequence: 9)
        // nlmsghdr (16) + rtmsg (12) + RTA_DST (8) + RTA_MARK (8).
        #expect(bytes.count == 44)
        #expect(bytes[4] == UInt8(RTM_GETROUTE) && bytes[8] == 9)
        #expect(bytes[16] == UInt8(AF_INET) && bytes[17] == 32)
        #expect(bytes[28...29] == [8, 0] && Array(bytes[32..<36]) == [192, 0, 2, 1])
        #expect(bytes[40] == 7)
        let flags = bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 24, as: UInt32.self) }
        #expect(flags == UInt32(RTM_F_LOOKUP_TABLE))
    }

    /// A reply as the kernel sends it: `RTM_NEWROUTE` with the given attributes.
    private static func reply(
        sequence: UInt32, port: UInt32, family: Int32 = AF_INET, type: UInt8 = UInt8(RTN_UNICAST),
        attributes: [UInt8]
    ) -> [UInt8] {
        var builder = NetlinkMessageBuilder()
        let body = [UInt8(family), 32, 0, 0, 254, 0, 0, type] + NetlinkMessageBuilder.le(UInt32(0)) + attributes
        builder.append(type: UInt16(RTM_NEWROUTE), sequence: sequence, body: body)
        return builder.bytes.withPort(port)
    }

    private static let unicastAttributes =
        NetlinkMessageBuilder.attribute(UInt16(RTA_OIF.rawValue), uint32: 2)
        + NetlinkMessageBuilder.attribute(UInt16(RTA_GATEWAY.rawValue), [10, 9, 0, 2])
        + NetlinkMessageBuilder.attribute(UInt16(RTA_PREFSRC.rawValue), [10, 9, 0, 1])
        + NetlinkMessageBuilder.attribute(UInt16(RTA_TABLE.rawValue), uint32: 100)

    @Test func repliesAreDecodedAndNotificationsNoted() {
        let good = Self.reply(sequence: 5, port: 77, attributes: Self.unicastAttributes)
        let parsed = RouteLookup.parse(good, port: 77)
        #expect(parsed.malformed == 0 && !parsed.notified)
        let expected = RouteLookup.Answer(
            type: .unicast, table: 100, interfaceIndex: 2, gateway: IPAddress(literal: "10.9.0.2"),
            sourceAddress: IPAddress(literal: "10.9.0.1"))
        #expect(parsed.replies == [RouteLookup.Reply(sequence: 5, lookup: .route(expected))])
        // The same message for another socket, or with no sequence number, is a notification.
        #expect(RouteLookup.parse(good, port: 78).notified)
        #expect(RouteLookup.parse(Self.reply(sequence: 0, port: 77, attributes: []), port: 77).notified)
        var builder = NetlinkMessageBuilder()
        builder.error(sequence: 6, errno: EHOSTUNREACH)
        let error = RouteLookup.parse(builder.bytes.withPort(77), port: 77)
        #expect(error.replies == [RouteLookup.Reply(sequence: 6, lookup: .error(Errno(rawValue: EHOSTUNREACH)))])
    }

    @Test func badRepliesAreCountedNeverTrusted() {
        let good = Self.reply(sequence: 5, port: 77, attributes: Self.unicastAttributes)
        for cut in 0..<good.count {
            let parsed = RouteLookup.parse(Array(good.prefix(cut)), port: 77)
            #expect(parsed.replies.isEmpty, "cut at \(cut)")
            #expect(parsed.malformed + (parsed.notified ? 1 : 0) > 0 || cut == 0, "cut at \(cut)")
        }
        // A gateway of the wrong length, an interface index of 0, an unknown family: malformed.
        let badGateway = Self.reply(
            sequence: 5, port: 77, attributes: NetlinkMessageBuilder.attribute(UInt16(RTA_GATEWAY.rawValue), [1, 2, 3]))
        let badIndex = Self.reply(
            sequence: 5, port: 77, attributes: NetlinkMessageBuilder.attribute(UInt16(RTA_OIF.rawValue), uint32: 0))
        let badFamily = Self.reply(sequence: 5, port: 77, family: AF_PACKET, attributes: [])
        for bytes in [badGateway, badIndex, badFamily] {
            let parsed = RouteLookup.parse(bytes, port: 77)
            #expect(parsed.replies.isEmpty && parsed.malformed == 1)
        }
        // An acknowledgement is no answer.
        var builder = NetlinkMessageBuilder()
        builder.error(sequence: 6, errno: 0)
        #expect(RouteLookup.parse(builder.bytes.withPort(77), port: 77).replies.isEmpty)
        // A gateway through RTA_VIA (an IPv4 route via an IPv6 neighbour).
        let via = NetlinkMessageBuilder.attribute(
            UInt16(RTA_VIA.rawValue), NetlinkMessageBuilder.le(UInt16(AF_INET6)) + IPAddress(literal: "fe80::1")!.bytes)
        let parsed = RouteLookup.parse(Self.reply(sequence: 5, port: 77, attributes: via), port: 77)
        #expect(
            parsed.replies.first.map { if case .route(let answer) = $0.lookup { answer.gateway } else { nil } }
                == IPAddress(literal: "fe80::1"))
    }

    private static func path(carrier: Bool = true, up: Bool = true, tentative: Bool = false) -> NetworkPath {
        var flags: InterfaceFlags = up ? [.up, .running] : []
        if carrier { flags.insert(.lowerUp) }
        let address = InterfaceAddress(
            interfaceIndex: 2, address: IPAddress(literal: "10.9.0.1")!, prefixLength: 24, scope: .global,
            flags: tentative ? AddressFlags.tentative : [])
        let interface = NetworkInterface(
            index: 2, name: "wlan0", nameBytes: "wlan0", kind: .wireless, flags: flags, operationalStatus: .up,
            addresses: [address])
        return NetworkPath(interfaces: [interface])
    }

    @Test func theVerdictAndsTheRouteWithCarrierAndASourceAddress() {
        let answer = RouteLookup.Answer(
            type: .unicast, interfaceIndex: 2, gateway: IPAddress(literal: "10.9.0.254"),
            sourceAddress: IPAddress(literal: "10.9.0.1"))
        let good = ReachabilityMonitor.verdict(.route(answer), path: Self.path())
        #expect(good.problem == nil && good.route?.medium == .wifi && good.route?.isDirect == false)
        #expect(good.route?.description == "via 10.9.0.254 dev wlan0 (wi-fi) src 10.9.0.1")
        #expect(
            ReachabilityMonitor.verdict(.route(answer), path: Self.path(carrier: false)).problem
                == .noCarrier(interface: "wlan0"))
        #expect(
            ReachabilityMonitor.verdict(.route(answer), path: Self.path(up: false)).problem
                == .interfaceDown(interface: "wlan0"))
        #expect(
            ReachabilityMonitor.verdict(.route(answer), path: Self.path(tentative: true)).problem
                == .noUsableSourceAddress(interface: "wlan0"))
        // While an IPv6 address is tentative the kernel answers with a loopback source: not one a packet can leave with.
        var loopbackSource = Self.path()
        loopbackSource.interfaces.append(
            NetworkInterface(
                index: 1, name: "lo", kind: .loopback, flags: [.up, .running, .lowerUp, .loopback],
                operationalStatus: .unknown,
                addresses: [
                    InterfaceAddress(
                        interfaceIndex: 1, address: IPAddress(literal: "::1")!, prefixLength: 128, scope: .host,
                        flags: [])
                ]))
        var fromLoopback = answer
        fromLoopback.sourceAddress = IPAddress(literal: "::1")
        #expect(
            ReachabilityMonitor.verdict(.route(fromLoopback), path: loopbackSource).problem
                == .noUsableSourceAddress(interface: "wlan0"))
        var local = fromLoopback
        local.type = .local
        local.interfaceIndex = 1
        #expect(ReachabilityMonitor.verdict(.route(local), path: loopbackSource).problem == nil)
        var noSource = answer
        noSource.sourceAddress = nil
        #expect(
            ReachabilityMonitor.verdict(.route(noSource), path: Self.path()).problem
                == .noUsableSourceAddress(interface: "wlan0"))
        for (type, problem) in [
            (RouteType.unreachable, ReachProblem.unreachableRoute), (.prohibit, .prohibitedRoute),
            (.blackhole, .blackholed), (.throw, .noRoute),
        ] {
            var typed = answer
            typed.type = type
            #expect(ReachabilityMonitor.verdict(.route(typed), path: Self.path()).problem == problem)
        }
        for (errno, problem) in [
            (ENETUNREACH, ReachProblem.noRoute), (EHOSTUNREACH, .unreachableRoute), (EACCES, .prohibitedRoute),
            (EINVAL, .blackholed), (ENOMEM, .lookupFailed(errno: Errno(rawValue: ENOMEM))),
        ] {
            #expect(ReachabilityMonitor.verdict(.error(Errno(rawValue: errno)), path: Self.path()).problem == problem)
        }
    }
}

extension Array where Element == UInt8 {
    /// The datagram with every message's `nlmsg_pid` set to `port`, as the kernel addresses replies.
    func withPort(_ port: UInt32) -> [UInt8] {
        var bytes = self
        var offset = 0
        while offset + 16 <= bytes.count {
            let length = Int(bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self) })
            Swift.withUnsafeBytes(of: port) { bytes.replaceSubrange(offset + 12..<offset + 16, with: $0) }
            guard length >= 16 else { break }
            offset += (length + 3) & ~3
        }
        return bytes
    }
}

/// The `route-lookup` fuzz corpus: replies the kernel sent to `ip route get`-style requests in a namespace, each with
/// what it must decode to; `Fuzz/run.sh route-lookup` is where random bytes go.
@Suite(.timeLimit(.minutes(5)))
struct RouteLookupCorpusTests {
    static let corpus: [(name: String, lookup: RouteLookup)] = [
        // ip route get 2001:db8:1::5 with a route via fd00::2 on v0 (index 3, after lo and its peer v1), source fd00::1.
        (
            "ipv6-via-gateway",
            .route(
                RouteLookup.Answer(
                    type: .unicast, table: 254, interfaceIndex: 3, gateway: IPAddress(literal: "fd00::2"),
                    sourceAddress: IPAddress(literal: "fd00::1")))
        ),
        // ip route get 10.9.0.1, an address of v0, through lo (index 1). Table 254: without policy rules of its own
        // the kernel keeps the local table merged into main, and answers so.
        (
            "local",
            .route(
                RouteLookup.Answer(
                    type: .local, table: 254, interfaceIndex: 1, sourceAddress: IPAddress(literal: "10.9.0.1")))
        ),
        // ip route get 203.0.113.5 with a route via 10.9.0.2 on v0.
        (
            "unicast-via-gateway",
            .route(
                RouteLookup.Answer(
                    type: .unicast, table: 254, interfaceIndex: 3, gateway: IPAddress(literal: "10.9.0.2"),
                    sourceAddress: IPAddress(literal: "10.9.0.1")))
        ),
        // ip route get 198.51.100.1 with an unreachable route: the kernel answers EHOSTUNREACH.
        ("unreachable-error", .error(Errno(rawValue: EHOSTUNREACH))),
    ]

    @Test func everyCorpusInputHasAnExpectation() {
        #expect(FuzzCorpus.names("route-lookup") == Self.corpus.map(\.name))
    }

    @Test(arguments: corpus.map(\.name))
    func corpusInputDecodesToItsAnswer(name: String) throws {
        let bytes = try #require(FuzzCorpus.input("route-lookup", name))
        let expected = try #require(Self.corpus.first { $0.name == name }?.lookup)
        let port = bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 12, as: UInt32.self) }
        let parsed = RouteLookup.parse(bytes, port: port)
        #expect(parsed.replies == [RouteLookup.Reply(sequence: 7, lookup: expected)], "\(parsed.replies)")
        #expect(parsed.malformed == 0)
        // Every cut loses the reply and says so, never misreads it.
        for cut in 16..<bytes.count {
            let partial = RouteLookup.parse(Array(bytes.prefix(cut)), port: port)
            #expect(partial.replies.isEmpty && partial.malformed > 0, "cut at \(cut)")
        }
    }
}
