/// Why the publisher refuses a message or a configuration.
public enum MQTTError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A topic a message cannot be published to (empty, with a wildcard or NUL, or longer than 65,535 bytes).
    case invalidTopic(topic: String, reason: String)
    /// A configuration value MQTT cannot carry (a keep-alive above 65,535 s, an empty host, …).
    case invalidConfiguration(reason: String)
    /// TLS cannot be set up: a CA, certificate or key file that cannot be used, or no OpenSSL 3 on the system.
    case tls(reason: String)

    public var description: String {
        switch self {
        case .invalidTopic(let topic, let reason): "invalid MQTT topic \"\(topic)\": \(reason)"
        case .invalidConfiguration(let reason): "invalid MQTT configuration: \(reason)"
        case .tls(let reason): "MQTT over TLS: \(reason)"
        }
    }
}
