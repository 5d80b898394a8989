import CLinuxSupport
import Glibc
import Testing
import VigilSensors

@Suite(.timeLimit(.minutes(10))) struct RouteMessageParserTests {
    private let kernel = NetlinkSender(port: 0)

    @Test func decodesLinkWithAllAttributes() throws {
        var builder = NetlinkMessageBuilder()
        builder.link(index: 7, name: "veth0", flags: 0x10043, mtu: 9000, operstate: 6, kind: "veth")
        let result = RouteMessageParser.parse(builder.bytes, from: kernel)
        #expect(result.malformed == 0 && result.ignored == 0)
        let envelope = try #require(result.envelopes.first)
        guard case .newLink(let link) = envelope.message else {
            Issue.record("expected a link, got \(envelope.message)")
            return
        }
        #expect(link.index == 7 && link.name == "veth0" && link.mtu == 9000 && link.linkKind == "veth")
        #expect(link.flags == [.up, .broadcast, .running, .lowerUp])
        #expect(link.operationalStatus == .up)
        #expect(link.hardwareAddress == [0x02, 0, 0, 0, 0, 7])
    }

    @Test func deleteLinkAndBridgePortMessages() {
        var builder = NetlinkMessageBuilder()
        builder.link(Int32(RTM_DELLINK), index: 3, name: "eth1", flags: 0)
        builder.link(Int32(RTM_DELLINK), family: UInt8(AF_BRIDGE), index: 4, name: "port", flags: 0)
        let result = RouteMessageParser.parse(builder.bytes, from: kernel)
        #expect(result.envelopes.count == 1 && result.ignored == 1)
        if case .deleteLink(let link) = result.envelopes.first?.message {
            #expect(link.index == 3)
        } else {
            Issue.record("expected a deleted link")
        }
    }

    @Test func decodesAddressesWithExtendedFlags() {
        var builder = NetlinkMessageBuilder()
        builder.address(index: 2, address: [192, 0, 2, 10], prefix: 24)
        let v6: [UInt8] = [0x20, 0x01, 0x0d, 0xb8] + [UInt8](repeating: 0, count: 11) + [1]
        builder.address(family: AF_INET6, index: 2, address: v6, prefix: 64, flags: 0x40 | 0x20 | 0x100)
        builder.address(Int32(RTM_DELADDR), index: 2, address: [10, 0, 0, 1], prefix: 8, scope: 253)
        let messages = RouteMessageParser.parse(builder.bytes, from: kernel).envelopes.map(\.message)
        #expect(messages.count == 3)
        guard case .newAddress(let v4) = messages[0], case .newAddress(let six) = messages[1],
            case .deleteAddress(let removed) = messages[2]
        else {
            Issue.record("unexpected messages \(messages)")
            return
        }
        #expect(v4.address.description == "192.0.2.10" && v4.prefixLength == 24 && v4.scope == .global)
        #expect(v4.isUsable && !v4.isTentative)
        #expect(six.address.description == "2001:db8::1" && six.isTentative && six.isDeprecated && !six.isUsable)
        #expect(six.flags.rawValue & 0x100 != 0)
        #expect(removed.scope == .link && removed.address.description == "10.0.0.1")
    }

    @Test func decodesUnicastRoutesAndIgnoresOtherTypes() {
        var builder = NetlinkMessageBuilder()
        builder.route(gateway: [192, 0, 2, 1], outputIndex: 2, metric: 100)
        builder.route(destinationLength: 24, destination: [10, 1, 0, 0], gateway: nil, outputIndex: 2)
        builder.route(destinationLength: 24, destination: [10, 1, 0], gateway: nil, outputIndex: 2)  // malformed
        builder.route(gateway: nil, outputIndex: nil, routeType: 7)  // RTN_UNREACHABLE
        let gateway6: [UInt8] = [0xfe, 0x80] + [UInt8](repeating: 0, count: 13) + [1]
        builder.route(
            family: AF_INET6, gateway: nil, outputIndex: nil, metric: 1024,
            multipath: [(2, gateway6, 0), (3, gateway6, 4)])
        builder.route(Int32(RTM_DELROUTE), gateway: [192, 0, 2, 1], outputIndex: 2, metric: 100)
        let result = RouteMessageParser.parse(builder.bytes, from: kernel)
        #expect(result.ignored == 1 && result.malformed == 1)
        let messages = result.envelopes.map(\.message)
        let gateway = IPAddress(family: .ipv4, bytes: [192, 0, 2, 1])
        let expected4 = Route(family: .ipv4, metric: 100, nextHops: [.init(gateway: gateway, interfaceIndex: 2)])
        let network = Route(
            family: .ipv4, destination: IPAddress(family: .ipv4, bytes: [10, 1, 0, 0]), prefixLength: 24,
            nextHops: [.init(gateway: nil, interfaceIndex: 2)])
        let hop6 = IPAddress(family: .ipv6, bytes: gateway6)
        let expected6 = Route(
            family: .ipv6, metric: 1024,
            nextHops: [.init(gateway: hop6, interfaceIndex: 2), .init(gateway: hop6, interfaceIndex: 3, weight: 5)])
        #expect(
            messages == [
                .newRoute(expected4, replace: false), .newRoute(network, replace: false),
                .newRoute(expected6, replace: false), .deleteRoute(expected4),
            ])
    }

    @Test func decodesDoneErrorAndDumpInterruptedFlag() throws {
        var builder = NetlinkMessageBuilder()
        builder.link(index: 1, name: "lo", hardwareType: 772, flags: 0x49, sequence: 5, messageFlags: 0x2 | 0x10)
        builder.done(sequence: 5, flags: 0x2 | 0x10)
        builder.error(sequence: 6, errno: EBUSY)
        builder.error(sequence: 7, errno: 0)
        let envelopes = RouteMessageParser.parse(builder.bytes, from: kernel).envelopes
        #expect(envelopes.map(\.header.sequence) == [5, 5, 6, 7])
        #expect(envelopes[0].header.isDumpInterrupted && envelopes[1].header.isDumpInterrupted)
        #expect(envelopes[1].message == .done)
        #expect(envelopes[2].message == .error(errno: EBUSY) && envelopes[3].message == .error(errno: 0))
    }

    @Test func rejectsDatagramsFromOtherSenders() {
        var builder = NetlinkMessageBuilder()
        builder.link(index: 9, name: "evil0", flags: 0x10043)
        let forged = RouteMessageParser.parse(builder.bytes, from: NetlinkSender(port: 4242))
        #expect(forged.envelopes.isEmpty && forged.rejected == 1)
        #expect(RouteMessageParser.parse(builder.bytes, from: kernel).envelopes.count == 1)
    }

    @Test func countsTruncatedAndMalformedMessages() {
        var builder = NetlinkMessageBuilder()
        builder.link(index: 1, name: "lo", hardwareType: 772, flags: 0x49)
        builder.link(index: 2, name: "eth0", flags: 0x10043)
        let whole = builder.bytes
        let truncated = Array(whole.dropLast(5))
        let result = RouteMessageParser.parse(truncated, from: kernel)
        #expect(result.envelopes.count == 1 && result.malformed == 1)

        // A link without a name is malformed, as is an attribute whose length runs past the message.
        let zeros = [UInt8](repeating: 0, count: 8)
        var nameless = NetlinkMessageBuilder()
        nameless.append(type: UInt16(RTM_NEWLINK), body: [0, 0, 1, 0] + NetlinkMessageBuilder.le(Int32(3)) + zeros)
        var overlong = NetlinkMessageBuilder()
        overlong.append(
            type: UInt16(RTM_NEWLINK),
            body: [0, 0, 1, 0] + NetlinkMessageBuilder.le(Int32(3)) + zeros + NetlinkMessageBuilder.le(UInt16(200))
                + NetlinkMessageBuilder.le(UInt16(IFLA_IFNAME)))
        #expect(RouteMessageParser.parse(nameless.bytes).malformed == 1)
        #expect(RouteMessageParser.parse(overlong.bytes).malformed == 1)
        #expect(RouteMessageParser.parse([UInt8]()).envelopes.isEmpty)
    }
}
