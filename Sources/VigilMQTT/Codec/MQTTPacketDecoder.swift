/// Splits the bytes a broker sends into ``MQTTInboundPacket``s: a pure value, bounded, that never traps.
///
/// Append what the socket read with ``append(_:)``, then call ``next()`` until it returns nil (more bytes needed).
/// Malformed input, a packet type a broker must not send, or a packet larger than ``maximumPacketSize`` throws an
/// ``MQTTProtocolError``; after an error the connection is useless (the stream has lost its framing), so the caller
/// drops it. The buffer holds at most one incomplete packet (at most ``maximumPacketSize`` bytes) plus what was
/// appended since the last ``next()``.
package struct MQTTPacketDecoder: Sendable {
    /// The default limit: 256 KiB, far above anything a broker sends a publisher.
    package static let defaultMaximumPacketSize = 256 * 1024

    /// The largest packet accepted, fixed header included.
    package let maximumPacketSize: Int
    private var buffer: [UInt8] = []
    private var start = 0

    /// A decoder that rejects packets larger than `maximumPacketSize` bytes.
    package init(maximumPacketSize: Int = defaultMaximumPacketSize) {
        self.maximumPacketSize = max(maximumPacketSize, 2)
    }

    /// How many bytes wait for the rest of their packet.
    package var bufferedCount: Int { buffer.count - start }

    /// Adds bytes read from the connection.
    package mutating func append(_ bytes: some Collection<UInt8>) {
        if start > 0 && start >= buffer.count / 2 {
            buffer.removeFirst(start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next complete packet, or nil when the buffered bytes do not hold one yet.
    ///
    /// - Throws: ``MQTTProtocolError`` when the bytes are not a packet a broker may send a client.
    package mutating func next() throws(MQTTProtocolError) -> MQTTInboundPacket? {
        let available = buffer[start...]
        guard let first = available.first else { return nil }
        let type = first >> 4
        let flags = first & 0x0F
        // Check the first byte before waiting for the length, so garbage fails at once.
        guard [2, 3, 4, 9, 11, 13].contains(type) else { throw .unexpectedPacketType(type) }
        if type != 3 && flags != 0 { throw .invalidFlags(packetType: type, flags: flags) }
        guard let (length, lengthSize) = try MQTTRemainingLength.decode(available.dropFirst()) else { return nil }
        let total = 1 + lengthSize + length
        guard total <= maximumPacketSize else { throw .packetTooLarge(size: total, limit: maximumPacketSize) }
        guard available.count >= total else { return nil }
        let bodyStart = start + 1 + lengthSize
        let body = buffer[bodyStart..<(bodyStart + length)]
        start += total
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 64 * 1024)
            start = 0
        }
        return try Self.decode(type: type, flags: flags, body: body)
    }

    /// Every packet in `bytes`, for a fuzzer or a test; throws at the first malformed one.
    ///
    /// - Throws: ``MQTTProtocolError`` for the first packet that is not valid.
    package static func decodeAll(
        _ bytes: some Collection<UInt8>, maximumPacketSize: Int = defaultMaximumPacketSize
    ) throws(MQTTProtocolError) -> (packets: [MQTTInboundPacket], leftover: Int) {
        var decoder = MQTTPacketDecoder(maximumPacketSize: maximumPacketSize)
        decoder.append(bytes)
        var packets: [MQTTInboundPacket] = []
        while let packet = try decoder.next() { packets.append(packet) }
        return (packets, decoder.bufferedCount)
    }

    private static func decode(
        type: UInt8, flags: UInt8, body: ArraySlice<UInt8>
    ) throws(MQTTProtocolError) -> MQTTInboundPacket {
        switch type {
        case 2:
            guard body.count == 2 else { throw .invalidLength(packet: "CONNACK", length: body.count) }
            let acknowledgeFlags = body[body.startIndex]
            guard acknowledgeFlags & 0xFE == 0 else {
                throw .invalidField(packet: "CONNACK", reason: "reserved acknowledge flags \(acknowledgeFlags)")
            }
            return .connectionAcknowledgement(
                sessionPresent: acknowledgeFlags == 1, returnCode: body[body.startIndex + 1])
        case 4:
            guard body.count == 2 else { throw .invalidLength(packet: "PUBACK", length: body.count) }
            return .publishAcknowledgement(packetID: try packetID(body, packet: "PUBACK"))
        case 9:
            guard body.count >= 3 else { throw .invalidLength(packet: "SUBACK", length: body.count) }
            let codes = Array(body.dropFirst(2))
            guard codes.allSatisfy({ $0 <= 2 || $0 == 0x80 }) else {
                throw .invalidField(packet: "SUBACK", reason: "undefined return code")
            }
            return .subscribeAcknowledgement(packetID: try packetID(body, packet: "SUBACK"), returnCodes: codes)
        case 11:
            guard body.count == 2 else { throw .invalidLength(packet: "UNSUBACK", length: body.count) }
            return .unsubscribeAcknowledgement(packetID: try packetID(body, packet: "UNSUBACK"))
        case 13:
            guard body.isEmpty else { throw .invalidLength(packet: "PINGRESP", length: body.count) }
            return .pingResponse
        default:
            return try publish(flags: flags, body: body)
        }
    }

    private static func publish(flags: UInt8, body: ArraySlice<UInt8>) throws(MQTTProtocolError) -> MQTTInboundPacket {
        guard let qos = MQTTQoS(rawValue: (flags >> 1) & 0x03) else {
            throw .invalidField(packet: "PUBLISH", reason: "QoS \((flags >> 1) & 0x03) is not supported")
        }
        guard body.count >= 2 else { throw .invalidLength(packet: "PUBLISH", length: body.count) }
        let topicLength = Int(body[body.startIndex]) << 8 | Int(body[body.startIndex + 1])
        let topicEnd = body.startIndex + 2 + topicLength
        guard topicEnd <= body.endIndex else { throw .invalidLength(packet: "PUBLISH", length: body.count) }
        let topicBytes = body[(body.startIndex + 2)..<topicEnd]
        guard let topic = String(validating: topicBytes, as: UTF8.self), !topic.isEmpty, !topicBytes.contains(0)
        else { throw .invalidField(packet: "PUBLISH", reason: "the topic is not a valid UTF-8 name") }
        var payloadStart = topicEnd
        var id: UInt16?
        if qos != .atMostOnce {
            guard topicEnd + 2 <= body.endIndex else { throw .invalidLength(packet: "PUBLISH", length: body.count) }
            id = try packetID(body[topicEnd..<(topicEnd + 2)], packet: "PUBLISH")
            payloadStart += 2
        }
        let message = MQTTMessage(
            topic: topic, payload: Array(body[payloadStart...]), qos: qos, retain: flags & 0x01 != 0)
        return .publish(message: message, duplicate: flags & 0x08 != 0, packetID: id)
    }

    /// The packet id in the first two bytes of `body`; 0 is not a valid id (§2.3.1).
    private static func packetID(_ body: ArraySlice<UInt8>, packet: String) throws(MQTTProtocolError) -> UInt16 {
        let id = UInt16(body[body.startIndex]) << 8 | UInt16(body[body.startIndex + 1])
        guard id != 0 else { throw .invalidField(packet: packet, reason: "packet id 0") }
        return id
    }
}
