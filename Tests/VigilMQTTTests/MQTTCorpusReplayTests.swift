import Testing
import VigilTestSupport

@testable import VigilMQTT

/// The `mqtt` fuzz corpus replayed through the decoder, each input with the packets or the typed error it must give;
/// `Fuzz/run.sh mqtt` is where random bytes go.
@Suite(.timeLimit(.minutes(10))) struct MQTTCorpusReplayTests {
    /// The limit the fuzz target decodes with.
    static let limit = 4096

    static let expected: [(name: String, packets: [MQTTInboundPacket])] = [
        ("connack", [.connectionAcknowledgement(sessionPresent: false, returnCode: 0)]),
        ("puback-pingresp", [.publishAcknowledgement(packetID: 1), .pingResponse]),
        (
            "publish-qos1",
            [
                .publish(
                    message: MQTTMessage(topic: "a/b/c", text: "hi", qos: .atLeastOnce),
                    duplicate: false, packetID: 7)
            ]
        ),
        ("suback", [.subscribeAcknowledgement(packetID: 5, returnCodes: [1, 0x80])]),
    ]

    static let refused: [(name: String, error: MQTTProtocolError)] = [
        // "HTTP/1.1 400 …": 0x48 is a PUBACK (type 4) with flags 8, which must be 0.
        ("garbage", .invalidFlags(packetType: 4, flags: 8)),
        // A CONNACK, then a PUBLISH announcing 268,435,455 bytes: refused before its body arrives.
        ("huge-length", .packetTooLarge(size: 1 + 4 + 268_435_455, limit: limit)),
    ]

    @Test func everyCorpusInputHasAnExpectation() {
        #expect(FuzzCorpus.names("mqtt") == (Self.expected.map(\.name) + Self.refused.map(\.name)).sorted())
    }

    @Test(arguments: expected.map(\.name))
    func wellFormedInputDecodesToItsPackets(name: String) throws {
        let bytes = try #require(FuzzCorpus.input("mqtt", name))
        let packets = try #require(Self.expected.first { $0.name == name }).packets
        let decoded = try MQTTPacketDecoder.decodeAll(bytes, maximumPacketSize: Self.limit)
        #expect(decoded.packets == packets)
        #expect(decoded.leftover == 0)
        // Every cut of it gives the packets that end before the cut, the rest waiting as leftover.
        for cut in 0..<bytes.count {
            let partial = try MQTTPacketDecoder.decodeAll(bytes.prefix(cut), maximumPacketSize: Self.limit)
            #expect(packets.starts(with: partial.packets) && partial.packets.count < packets.count, "cut at \(cut)")
            #expect(partial.leftover <= cut, "cut at \(cut)")
        }
    }

    @Test(arguments: refused.map(\.name))
    func malformedInputIsRefusedWithItsError(name: String) throws {
        let bytes = try #require(FuzzCorpus.input("mqtt", name))
        let error = try #require(Self.refused.first { $0.name == name }).error
        #expect(throws: error) { try MQTTPacketDecoder.decodeAll(bytes, maximumPacketSize: Self.limit) }
    }
}
