/// Encodes the control packets a client sends (MQTT 3.1.1 §3): CONNECT, PUBLISH, PUBACK, SUBSCRIBE, PINGREQ and
/// DISCONNECT, each as the exact bytes to write.
package enum MQTTPacketEncoder {
    /// What CONNECT carries besides the protocol name and level.
    package struct Connect: Sendable {
        package var clientID: String
        package var keepAliveSeconds: UInt16
        package var cleanSession: Bool
        package var username: String?
        package var password: [UInt8]?
        package var will: MQTTMessage?

        package init(
            clientID: String, keepAliveSeconds: UInt16, cleanSession: Bool = true, username: String? = nil,
            password: [UInt8]? = nil, will: MQTTMessage? = nil
        ) {
            self.clientID = clientID
            self.keepAliveSeconds = keepAliveSeconds
            self.cleanSession = cleanSession
            self.username = username
            self.password = password
            self.will = will
        }
    }

    /// CONNECT (§3.1), protocol "MQTT" level 4.
    ///
    /// - Throws: ``MQTTProtocolError/stringTooLong(field:)`` for a field longer than 65,535 bytes.
    package static func connect(_ connect: Connect) throws(MQTTProtocolError) -> [UInt8] {
        var flags: UInt8 = connect.cleanSession ? 0x02 : 0
        if let will = connect.will {
            flags |= 0x04 | will.qos.rawValue << 3
            if will.retain { flags |= 0x20 }
        }
        // A password without a user name is not allowed in 3.1.1 (§3.1.2.9).
        if connect.username != nil {
            flags |= 0x80
            if connect.password != nil { flags |= 0x40 }
        }
        var body: [UInt8] = [0, 4] + Array("MQTT".utf8) + [4, flags]
        body += bigEndian(connect.keepAliveSeconds)
        try appendString(Array(connect.clientID.utf8), field: "client id", to: &body)
        if let will = connect.will {
            try appendString(Array(will.topic.utf8), field: "will topic", to: &body)
            try appendString(will.payload, field: "will message", to: &body)
        }
        if let username = connect.username {
            try appendString(Array(username.utf8), field: "user name", to: &body)
            if let password = connect.password { try appendString(password, field: "password", to: &body) }
        }
        return packet(0x10, body)
    }

    /// PUBLISH (§3.3); `packetID` is required at QoS 1 and ignored at QoS 0.
    ///
    /// - Throws: ``MQTTProtocolError/stringTooLong(field:)`` for a topic longer than 65,535 bytes, or
    ///   ``MQTTProtocolError/packetTooLarge(size:limit:)`` when the packet would exceed MQTT's 256 MB.
    package static func publish(
        _ message: MQTTMessage, packetID: UInt16?, duplicate: Bool = false
    ) throws(MQTTProtocolError) -> [UInt8] {
        var first: UInt8 = 0x30 | message.qos.rawValue << 1
        if message.retain { first |= 0x01 }
        if duplicate && message.qos != .atMostOnce { first |= 0x08 }
        var body: [UInt8] = []
        body.reserveCapacity(message.topic.utf8.count + message.payload.count + 4)
        try appendString(Array(message.topic.utf8), field: "topic", to: &body)
        if message.qos != .atMostOnce {
            precondition(packetID != nil && packetID != 0, "a QoS 1 PUBLISH needs a packet id")
            body += bigEndian(packetID ?? 1)
        }
        body += message.payload
        guard body.count <= MQTTRemainingLength.maximum else {
            throw .packetTooLarge(size: body.count, limit: MQTTRemainingLength.maximum)
        }
        return packet(first, body)
    }

    /// PUBACK (§3.4), the answer to a QoS 1 PUBLISH from the broker.
    package static func publishAcknowledgement(packetID: UInt16) -> [UInt8] {
        packet(0x40, bigEndian(packetID))
    }

    /// SUBSCRIBE (§3.8) to `filters`, each with its maximum QoS.
    ///
    /// - Throws: ``MQTTProtocolError/stringTooLong(field:)`` for a filter longer than 65,535 bytes.
    package static func subscribe(
        packetID: UInt16, filters: [(filter: String, qos: MQTTQoS)]
    ) throws(MQTTProtocolError) -> [UInt8] {
        var body = bigEndian(packetID)
        for (filter, qos) in filters {
            try appendString(Array(filter.utf8), field: "topic filter", to: &body)
            body.append(qos.rawValue)
        }
        return packet(0x82, body)
    }

    /// PINGREQ (§3.12).
    package static let pingRequest: [UInt8] = [0xC0, 0x00]
    /// DISCONNECT (§3.14): a clean goodbye, after which the broker drops the will.
    package static let disconnect: [UInt8] = [0xE0, 0x00]

    private static func packet(_ first: UInt8, _ body: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = [first]
        bytes.reserveCapacity(body.count + 5)
        MQTTRemainingLength.append(body.count, to: &bytes)
        bytes += body
        return bytes
    }

    private static func appendString(
        _ bytes: [UInt8], field: String, to body: inout [UInt8]
    ) throws(MQTTProtocolError) {
        guard bytes.count <= Int(UInt16.max) else { throw .stringTooLong(field: field) }
        body += bigEndian(UInt16(bytes.count))
        body += bytes
    }

    private static func bigEndian(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }
}
