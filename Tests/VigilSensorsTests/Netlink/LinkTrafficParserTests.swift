import CLinuxSupport
import Testing
import VigilTestSupport

@testable import VigilSensors

/// A link's traffic counters as `RouteMessageParser` reads them from `IFLA_STATS64`, or the 32-bit `IFLA_STATS`: of
/// this kernel's size, of older and newer kernels' sizes, missing, and of lengths no kernel sends.
@Suite(.timeLimit(.minutes(5))) struct LinkTrafficParserTests {
    /// `rx_packets 10, tx_packets 20, rx_bytes 1000, tx_bytes 2000, rx_errors 1, tx_errors 2, rx_dropped 3,
    /// tx_dropped 4`, then the fields the parser does not read, each 99.
    private static func fields(count: Int, base: UInt64 = 0) -> [UInt64] {
        let known: [UInt64] = [10, 20, 1000, 2000, 1, 2, 3, 4].map { $0 + base }
        return Array((known + Array(repeating: 99, count: max(0, count - known.count))).prefix(count))
    }

    private static let expected = InterfaceTraffic(
        receive: .init(bytes: 1000, packets: 10, errors: 1, dropped: 3),
        transmit: .init(bytes: 2000, packets: 20, errors: 2, dropped: 4))

    /// The one link of a datagram with `attributes` after the usual ones, and how many messages were malformed.
    private func link(_ attributes: [UInt8]) -> (link: RouteMessage.Link?, malformed: Int) {
        var builder = NetlinkMessageBuilder()
        builder.link(index: 2, name: "eth0", flags: 0x10043, attributes: attributes)
        let result = RouteMessageParser.parse(builder.bytes)
        guard case .newLink(let link)? = result.envelopes.first?.message else { return (nil, result.malformed) }
        return (link, result.malformed)
    }

    /// 23 fields (Linux 4.x), 24 (`rx_nohandler`), 25 (`rx_otherhost_dropped`, this kernel's), and 40 (a kernel not
    /// yet written): the first eight are read, the rest left alone.
    @Test(arguments: [8, 23, 24, 25, 40])
    func readsTheCountersOfAStats64OfAnySizeThatHoldsThem(fieldCount: Int) throws {
        let decoded = link(NetlinkMessageBuilder.statistics(Self.fields(count: fieldCount)))
        #expect(decoded.link?.traffic == Self.expected)
        #expect(decoded.malformed == 0)
    }

    @Test func fallsBackToThe32BitStatsWhenStats64IsMissing() throws {
        let decoded = link(NetlinkMessageBuilder.statistics(Self.fields(count: 23), fieldSize: 4))
        #expect(decoded.link?.traffic == Self.expected)
    }

    @Test func fallsBackToThe32BitStatsWhenStats64IsTooShort() throws {
        let attributes =
            NetlinkMessageBuilder.statistics(Self.fields(count: 7, base: 500))
            + NetlinkMessageBuilder.statistics(Self.fields(count: 23), fieldSize: 4)
        #expect(link(attributes).link?.traffic == Self.expected)
    }

    @Test func prefersStats64ToThe32BitStats() throws {
        let attributes =
            NetlinkMessageBuilder.statistics(Self.fields(count: 23), fieldSize: 4)
            + NetlinkMessageBuilder.statistics(Self.fields(count: 25, base: 1 << 40))
        let traffic = try #require(link(attributes).link?.traffic)
        #expect(traffic.receive.bytes == 1000 + (1 << 40) && traffic.transmit.dropped == 4 + (1 << 40))
    }

    @Test func keepsCountersBeyond32BitsUpToTheLargest() throws {
        let fields = [UInt64](repeating: .max, count: 25)
        let traffic = try #require(link(NetlinkMessageBuilder.statistics(fields)).link?.traffic)
        #expect(traffic.receive.bytes == .max && traffic.transmit.packets == .max && traffic.receive.dropped == .max)
    }

    /// No statistics, or statistics too short to hold the eight counters in either width: the link is decoded
    /// without counters, never dropped as malformed and never given guessed ones.
    @Test(arguments: [0, 1, 4, 7, 31, 63])
    func aLinkWithoutCompleteCountersHasNone(payloadBytes: Int) throws {
        let stats64 = NetlinkMessageBuilder.attribute(
            UInt16(IFLA_STATS64), [UInt8](repeating: 0xFF, count: payloadBytes))
        let stats32 = NetlinkMessageBuilder.attribute(
            UInt16(IFLA_STATS), [UInt8](repeating: 0xFF, count: min(payloadBytes, 31)))
        for attributes in [[], stats64, stats64 + stats32] {
            let decoded = link(attributes)
            #expect(decoded.link?.name == "eth0" && decoded.link?.traffic == nil && decoded.malformed == 0)
        }
    }

    /// An `IFLA_STATS64` whose length runs past the message, or is below an attribute header: the message is
    /// malformed and skipped, the next one in the datagram still decoded.
    @Test(arguments: [UInt16(2), 3, 300, UInt16.max])
    func aStatsAttributeWithAnImpossibleLengthMakesTheMessageMalformed(length: UInt16) throws {
        var builder = NetlinkMessageBuilder()
        let hostile = NetlinkMessageBuilder.le(length) + NetlinkMessageBuilder.le(UInt16(IFLA_STATS64)) + [0, 0, 0, 0]
        builder.link(index: 2, name: "eth0", flags: 0x10043, attributes: hostile)
        builder.link(index: 3, name: "eth1", flags: 0x10043)
        let result = RouteMessageParser.parse(builder.bytes)
        #expect(result.malformed == 1)
        guard case .newLink(let next)? = result.envelopes.first?.message else {
            Issue.record("the second link was not decoded: \(result)")
            return
        }
        #expect(next.name == "eth1" && next.traffic == nil)
    }

    /// The fuzz corpus's link with counters (`Fuzz/run.sh rtnetlink` starts from it) holds the counters it says.
    @Test func theCorpusLinkHoldsItsCounters() throws {
        let bytes = try #require(FuzzCorpus.input("rtnetlink", "link-stats64"))
        guard case .newLink(let link)? = RouteMessageParser.parse(bytes).envelopes.first?.message else {
            Issue.record("no link in the corpus input")
            return
        }
        #expect(link.traffic == Self.expected)
    }

    @Test func theCountersReachTheInterfaceOfThePath() throws {
        var builder = NetlinkMessageBuilder()
        builder.link(
            index: 2, name: "eth0", flags: 0x10043,
            attributes: NetlinkMessageBuilder.statistics(Self.fields(count: 25)))
        var mirror = NetworkMirror(sysfsRoot: nil)
        mirror.apply(RouteMessageParser.parse(builder.bytes).envelopes.map(\.message))
        #expect(mirror.path.interface(named: "eth0")?.traffic == Self.expected)
    }
}
