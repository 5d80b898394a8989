/// How hard MQTT tries to deliver a message to the broker.
public enum MQTTQoS: UInt8, Sendable, Hashable, CustomStringConvertible {
    /// QoS 0: sent once, lost if the connection drops before the broker reads it.
    case atMostOnce = 0
    /// QoS 1: kept until the broker acknowledges it (`PUBACK`), sent again with the DUP flag after a reconnect.
    case atLeastOnce = 1

    public var description: String { "QoS \(rawValue)" }
}
