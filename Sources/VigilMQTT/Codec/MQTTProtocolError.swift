/// Why bytes from a broker are not a valid MQTT 3.1.1 packet, or a value cannot be encoded as one.
///
/// The decoder throws these instead of trapping; the publisher drops the connection, says why, and reconnects.
package enum MQTTProtocolError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The remaining-length field runs past four bytes (MQTT 3.1.1 §2.2.3).
    case malformedRemainingLength
    /// A packet declares more bytes than the decoder accepts.
    case packetTooLarge(size: Int, limit: Int)
    /// A packet type a broker never sends to a client (CONNECT, SUBSCRIBE, …) or the reserved types 0 and 15.
    case unexpectedPacketType(UInt8)
    /// Fixed-header flags that the packet type does not allow.
    case invalidFlags(packetType: UInt8, flags: UInt8)
    /// A packet whose remaining length does not fit its type.
    case invalidLength(packet: String, length: Int)
    /// A field holds a value the protocol does not define (a QoS of 3, connack flags, packet id 0, …).
    case invalidField(packet: String, reason: String)
    /// A string that is longer than 65,535 bytes of UTF-8, and so cannot be encoded.
    case stringTooLong(field: String)

    package var description: String {
        switch self {
        case .malformedRemainingLength: "malformed remaining length (more than four bytes)"
        case .packetTooLarge(let size, let limit): "a packet of \(size) bytes, more than the limit of \(limit)"
        case .unexpectedPacketType(let type): "unexpected packet type \(type)"
        case .invalidFlags(let type, let flags): "invalid flags \(flags) for packet type \(type)"
        case .invalidLength(let packet, let length): "\(packet) with invalid length \(length)"
        case .invalidField(let packet, let reason): "\(packet): \(reason)"
        case .stringTooLong(let field): "\(field) is longer than 65535 bytes"
        }
    }
}
