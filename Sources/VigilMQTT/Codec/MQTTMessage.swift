/// One application message: a topic, payload bytes, a QoS and whether the broker keeps it as the topic's state.
public struct MQTTMessage: Sendable, Hashable {
    /// The topic name, for example `vigil/kiosk-7/battery`; no wildcards (`+`, `#`), never empty.
    public var topic: String
    /// The payload, any bytes (Vigil sends UTF-8 JSON).
    public var payload: [UInt8]
    /// The delivery guarantee towards the broker.
    public var qos: MQTTQoS
    /// Whether the broker keeps the message as the topic's current state and hands it to later subscribers.
    ///
    /// A retained message is state (the latest battery reading): while disconnected the publisher keeps only the
    /// latest one per topic. One that is not retained is an event (a file changed): kept in order, up to a bound.
    public var retain: Bool

    /// A message.
    ///
    /// - Parameters:
    ///   - topic: The topic name.
    ///   - payload: The payload bytes.
    ///   - qos: The delivery guarantee; QoS 0 by default.
    ///   - retain: Whether the broker keeps it as the topic's state.
    public init(topic: String, payload: [UInt8], qos: MQTTQoS = .atMostOnce, retain: Bool = false) {
        self.topic = topic
        self.payload = payload
        self.qos = qos
        self.retain = retain
    }

    /// A message whose payload is `text` in UTF-8.
    ///
    /// - Parameters:
    ///   - topic: The topic name.
    ///   - text: The payload as text.
    ///   - qos: The delivery guarantee; QoS 0 by default.
    ///   - retain: Whether the broker keeps it as the topic's state.
    public init(topic: String, text: String, qos: MQTTQoS = .atMostOnce, retain: Bool = false) {
        self.init(topic: topic, payload: Array(text.utf8), qos: qos, retain: retain)
    }

    /// Why `topic` cannot be published to, or nil when it can (MQTT 3.1.1 §4.7: not empty, no wildcard, no NUL, at
    /// most 65,535 bytes of UTF-8).
    static func problem(withTopic topic: String) -> String? {
        if topic.isEmpty { return "a topic cannot be empty" }
        if topic.utf8.count > Int(UInt16.max) { return "a topic is at most 65535 bytes" }
        if topic.contains(where: { $0 == "+" || $0 == "#" }) { return "a published topic cannot hold + or #" }
        if topic.utf8.contains(0) { return "a topic cannot hold NUL" }
        return nil
    }
}
