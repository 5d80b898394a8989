/// A control packet a broker sends to a client, decoded (MQTT 3.1.1 §3).
package enum MQTTInboundPacket: Hashable, Sendable {
    /// CONNACK: the answer to CONNECT; return code 0 accepts, 1–5 refuse (§3.2.2.3).
    case connectionAcknowledgement(sessionPresent: Bool, returnCode: UInt8)
    /// PUBACK: the broker has a QoS 1 message.
    case publishAcknowledgement(packetID: UInt16)
    /// PINGRESP: the broker is alive.
    case pingResponse
    /// SUBACK: one return code per requested topic filter (0, 1, 2, or 0x80 for failure).
    case subscribeAcknowledgement(packetID: UInt16, returnCodes: [UInt8])
    /// UNSUBACK.
    case unsubscribeAcknowledgement(packetID: UInt16)
    /// PUBLISH from the broker (to a subscriber); `packetID` is nil at QoS 0.
    case publish(message: MQTTMessage, duplicate: Bool, packetID: UInt16?)

    /// The words a log line uses for a refused CONNACK's return code (§3.2.2.3).
    package static func refusal(returnCode: UInt8) -> String {
        switch returnCode {
        case 1: "unacceptable protocol version"
        case 2: "client identifier rejected"
        case 3: "server unavailable"
        case 4: "bad user name or password"
        case 5: "not authorized"
        default: "return code \(returnCode)"
        }
    }
}
