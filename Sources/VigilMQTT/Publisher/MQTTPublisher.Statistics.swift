extension MQTTPublisher {
    /// Counters of what the publisher did, read with ``MQTTPublisher/statistics``.
    public struct Statistics: Sendable, Hashable {
        /// Whether a connection is up (CONNACK accepted).
        public internal(set) var isConnected = false
        /// Connections the broker accepted.
        public internal(set) var connections = 0
        /// Connections and connection attempts that failed or were lost.
        public internal(set) var connectionFailures = 0
        /// PUBLISH packets written, resends included.
        public internal(set) var published = 0
        /// QoS 1 messages sent again with DUP after a reconnect.
        public internal(set) var resent = 0
        /// PUBACKs received for QoS 1 messages.
        public internal(set) var acknowledged = 0
        /// Event messages dropped because the queue was full while the broker was away or slow.
        public internal(set) var dropped = 0
        /// Event messages waiting to be sent.
        public internal(set) var queuedEvents = 0
        /// QoS 1 messages sent and not yet acknowledged.
        public internal(set) var unacknowledged = 0

        init() {}
    }

    /// What happened to the connection, published on ``MQTTPublisher/events`` for a log line.
    public enum Event: Sendable, Hashable, CustomStringConvertible {
        /// The broker accepted the connection.
        case connected(broker: String)
        /// A connection or an attempt failed; the next attempt starts after `retryAfter`.
        case connectionLost(reason: String, retryAfter: Duration)
        /// Event messages were dropped while disconnected (or the broker was slow), reported on reconnect.
        case dropped(count: Int)
        /// The broker ended `count` sessions in a row within `within` of accepting them; reported from the third.
        case sessionsEndingEarly(count: Int, within: Duration, clientID: String)
        /// The broker refused the credentials (CONNACK return code 4 or 5): the publisher stopped, since trying
        /// again with the same ones cannot succeed.
        case refused(reason: String)

        public var description: String {
            switch self {
            case .connected(let broker):
                return "connected to \(broker)"
            case .connectionLost(let reason, let delay):
                let milliseconds =
                    delay.components.seconds * 1000 + delay.components.attoseconds / 1_000_000_000_000_000
                return "\(reason); reconnecting in \(Double(milliseconds) / 1000) s"
            case .dropped(let count):
                return "dropped \(count) event message\(count == 1 ? "" : "s") while the broker was unreachable"
            case .sessionsEndingEarly(let count, let within, let clientID):
                return
                    "the broker ended the last \(count) sessions within \(within) of accepting them: another client "
                    + "may be using the client ID \"\(clientID)\" (each takes the other over), or the broker refuses "
                    + "what is published; its log says which"
            case .refused(let reason):
                return "the broker refused the connection: \(reason); stopped"
            }
        }
    }
}
