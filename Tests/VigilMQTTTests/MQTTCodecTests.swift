import Testing

@testable import VigilMQTT

@Suite(.timeLimit(.minutes(10))) struct MQTTCodecTests {
    @Test(
        arguments: [
            (0, [0x00]), (127, [0x7F]), (128, [0x80, 0x01]), (16_383, [0xFF, 0x7F]), (16_384, [0x80, 0x80, 0x01]),
            (2_097_151, [0xFF, 0xFF, 0x7F]), (2_097_152, [0x80, 0x80, 0x80, 0x01]),
            (268_435_455, [0xFF, 0xFF, 0xFF, 0x7F]),
        ] as [(Int, [UInt8])])
    func remainingLengthEdges(length: Int, encoded: [UInt8]) throws {
        var bytes: [UInt8] = []
        MQTTRemainingLength.append(length, to: &bytes)
        #expect(bytes == encoded)
        let decoded = try #require(try MQTTRemainingLength.decode(encoded[...]))
        #expect(decoded.length == length && decoded.size == encoded.count)
        #expect(try MQTTRemainingLength.decode(encoded.dropLast()[...]) == nil)
    }

    @Test func aFifthLengthByteIsMalformed() {
        #expect(throws: MQTTProtocolError.malformedRemainingLength) {
            try MQTTRemainingLength.decode([0xFF, 0xFF, 0xFF, 0xFF, 0x01][...])
        }
        #expect(throws: MQTTProtocolError.malformedRemainingLength) {
            try MQTTPacketDecoder.decodeAll([0x20, 0x80, 0x80, 0x80, 0x80, 0x01])
        }
    }

    @Test func connectCarriesWillCredentialsAndKeepAlive() throws {
        let will = MQTTMessage(topic: "v/s", text: "off", qos: .atLeastOnce, retain: true)
        let bytes = try MQTTPacketEncoder.connect(
            .init(
                clientID: "id", keepAliveSeconds: 30, cleanSession: false, username: "u", password: [0x70], will: will))
        let body: [UInt8] =
            [0, 4] + Array("MQTT".utf8) + [4, 0b1110_1100, 0, 30] + [0, 2] + Array("id".utf8) + [0, 3]
            + Array("v/s".utf8) + [0, 3] + Array("off".utf8) + [0, 1, 0x75] + [0, 1, 0x70]
        #expect(bytes == [0x10, UInt8(body.count)] + body)
    }

    @Test func connectWithoutOptionsIsACleanSession() throws {
        let bytes = try MQTTPacketEncoder.connect(.init(clientID: "", keepAliveSeconds: 60))
        #expect(bytes == [0x10, 12, 0, 4, 0x4D, 0x51, 0x54, 0x54, 4, 0x02, 0, 60, 0, 0])
    }

    @Test func publishFlagsAndPacketID() throws {
        let qos0 = try MQTTPacketEncoder.publish(MQTTMessage(topic: "a", text: "x", retain: true), packetID: nil)
        #expect(qos0 == [0x31, 4, 0, 1, 0x61, 0x78])
        let message = MQTTMessage(topic: "a", text: "x", qos: .atLeastOnce)
        let qos1 = try MQTTPacketEncoder.publish(message, packetID: 0x0102, duplicate: true)
        #expect(qos1 == [0x3A, 6, 0, 1, 0x61, 1, 2, 0x78])
        let long = MQTTMessage(topic: String(repeating: "t", count: 70_000), payload: [])
        #expect(throws: MQTTProtocolError.stringTooLong(field: "topic")) {
            try MQTTPacketEncoder.publish(long, packetID: nil)
        }
    }

    @Test func decodesEveryPacketABrokerSends() throws {
        let bytes: [UInt8] =
            [0x20, 2, 1, 0] + [0x20, 2, 0, 5] + [0x40, 2, 0x12, 0x34] + [0xD0, 0] + [0x90, 4, 0, 7, 1, 0x80]
            + [0xB0, 2, 0, 9] + [0x33, 6, 0, 1, 0x61, 0, 3, 0x7A] + [0x30, 3, 0, 1, 0x62]
        let (packets, leftover) = try MQTTPacketDecoder.decodeAll(bytes)
        #expect(leftover == 0)
        #expect(
            packets == [
                .connectionAcknowledgement(sessionPresent: true, returnCode: 0),
                .connectionAcknowledgement(sessionPresent: false, returnCode: 5),
                .publishAcknowledgement(packetID: 0x1234),
                .pingResponse,
                .subscribeAcknowledgement(packetID: 7, returnCodes: [1, 0x80]),
                .unsubscribeAcknowledgement(packetID: 9),
                .publish(
                    message: MQTTMessage(topic: "a", payload: [0x7A], qos: .atLeastOnce, retain: true),
                    duplicate: false, packetID: 3),
                .publish(message: MQTTMessage(topic: "b", payload: []), duplicate: false, packetID: nil),
            ])
    }

    @Test func aPacketSplitAnywhereDecodesOnceComplete() throws {
        let bytes: [UInt8] = [0x30, 0x80, 0x01] + [0, 1, 0x61] + [UInt8](repeating: 0x41, count: 125)
        for split in 0...bytes.count {
            var decoder = MQTTPacketDecoder()
            decoder.append(bytes[..<split])
            if split < bytes.count { #expect(try decoder.next() == nil) }
            decoder.append(bytes[split...])
            let packet = try #require(try decoder.next())
            guard case .publish(let message, _, _) = packet else { Issue.record("not a PUBLISH"); return }
            #expect(message.topic == "a" && message.payload.count == 125)
            #expect(try decoder.next() == nil && decoder.bufferedCount == 0)
        }
    }

    @Test(
        arguments: [
            ([0x48, 0x54, 0x54, 0x50], MQTTProtocolError.invalidFlags(packetType: 4, flags: 8)),
            ([0x10, 0], .unexpectedPacketType(1)),
            ([0x00], .unexpectedPacketType(0)),
            ([0xF0, 0], .unexpectedPacketType(15)),
            ([0x21, 2, 0, 0], .invalidFlags(packetType: 2, flags: 1)),
            ([0x20, 3, 0, 0, 0], .invalidLength(packet: "CONNACK", length: 3)),
            ([0x20, 2, 2, 0], .invalidField(packet: "CONNACK", reason: "reserved acknowledge flags 2")),
            ([0x40, 2, 0, 0], .invalidField(packet: "PUBACK", reason: "packet id 0")),
            ([0xD0, 1, 0], .invalidLength(packet: "PINGRESP", length: 1)),
            ([0x90, 3, 0, 1, 3], .invalidField(packet: "SUBACK", reason: "undefined return code")),
            ([0x36, 3, 0, 1, 0x61], .invalidField(packet: "PUBLISH", reason: "QoS 3 is not supported")),
            ([0x30, 3, 0, 5, 0x61], .invalidLength(packet: "PUBLISH", length: 3)),
            ([0x32, 3, 0, 1, 0x61], .invalidLength(packet: "PUBLISH", length: 3)),
            ([0x30, 3, 0, 1, 0xFF], .invalidField(packet: "PUBLISH", reason: "the topic is not a valid UTF-8 name")),
        ] as [([UInt8], MQTTProtocolError)])
    func malformedPacketsThrowTypedErrors(bytes: [UInt8], error: MQTTProtocolError) {
        #expect(throws: error) { try MQTTPacketDecoder.decodeAll(bytes) }
    }

    @Test func aPacketOverTheLimitFailsBeforeItsBodyArrives() {
        #expect(throws: MQTTProtocolError.packetTooLarge(size: 1 + 4 + 268_435_455, limit: 1024)) {
            try MQTTPacketDecoder.decodeAll([0x30, 0xFF, 0xFF, 0xFF, 0x7F], maximumPacketSize: 1024)
        }
    }
}
