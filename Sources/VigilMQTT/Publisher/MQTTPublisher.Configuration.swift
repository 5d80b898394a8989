import VigilSensors

extension MQTTPublisher {
    /// Where the broker is, who the publisher says it is, and how it behaves when the broker goes away.
    public struct Configuration: Sendable {
        /// The broker's host name or address. A name is resolved with `getaddrinfo(3)` on a queue of the publisher's
        /// own, never on the event loop, so a slow DNS server delays only this connection.
        public var host: String
        /// The broker's TCP port; 1883 by default.
        public var port: UInt16
        /// The client identifier the broker knows this publisher by; unique per broker.
        public var clientID: String
        /// The longest silence the broker allows (MQTT keep alive): the publisher sends PINGREQ every half of it,
        /// and drops a connection whose broker has not answered within it. 1 s to 65,535 s; 30 s by default.
        public var keepAlive: Duration
        /// How long a TCP connect plus CONNACK may take before the attempt counts as failed; 10 s by default.
        public var connectTimeout: Duration
        /// Whether the broker forgets the session on connect. With QoS 1 set it to false, so a broker that was
        /// not restarted keeps the session across a reconnect; unacknowledged messages are sent again either way.
        public var cleanSession: Bool
        /// The user name, if the broker asks for one.
        public var username: String?
        /// The password (MQTT allows any bytes); sent only with a user name.
        public var password: [UInt8]?
        /// The message the broker publishes for the publisher when the connection is lost without a goodbye (the
        /// will), for example `PREFIX/status` = `offline`, retained. A graceful ``MQTTPublisher/stop()`` publishes
        /// it itself, since a broker discards the will on a clean disconnect.
        public var will: MQTTMessage?
        /// The message published first on every connection, for example `PREFIX/status` = `online`, retained.
        public var birth: MQTTMessage?
        /// How many event (not retained) messages wait while disconnected; older ones are dropped and counted.
        public var eventQueueLimit: Int
        /// How many QoS 1 messages may wait for their PUBACK at once.
        public var inflightLimit: Int
        /// The first reconnect delay; it doubles with each failure in a row (with jitter) up to
        /// ``reconnectDelayLimit``.
        public var reconnectDelay: Duration
        /// The longest reconnect delay.
        public var reconnectDelayLimit: Duration
        /// How long a session must stay up before the reconnect delay starts over from ``reconnectDelay``: a broker
        /// that accepts each connection and ends it at once (another client took the client ID over, an ACL) is met
        /// with a growing delay, not a reconnect every half second.
        public var stableSession: Duration
        /// The loop that watches the socket and runs the timers.
        public var eventLoop: EventLoop
        /// Connect through TLS (MQTT over TLS, port 8883 by convention) with these settings; plain TCP when nil.
        public var tls: TLS?

        /// The TLS settings of a connection: whom to trust, and what to present.
        public struct TLS: Sendable, Equatable {
            /// The CAs (PEM) the broker's certificate is verified against; the system's store when nil.
            public var caFile: String?
            /// A client certificate chain (PEM) to present, for brokers that require one; with ``keyFile``.
            public var certificateFile: String?
            /// The client certificate's private key (PEM).
            public var keyFile: String?
            /// The name the broker's certificate must carry (a DNS name or an IP address); the host when nil.
            public var serverName: String?

            /// TLS settings; by default the broker is verified against the system's CAs and by its host name.
            ///
            /// - Parameters:
            ///   - caFile: The CAs the broker's certificate is verified against.
            ///   - certificateFile: A client certificate chain to present.
            ///   - keyFile: The client certificate's private key.
            ///   - serverName: The name the broker's certificate must carry.
            public init(
                caFile: String? = nil, certificateFile: String? = nil, keyFile: String? = nil, serverName: String? = nil
            ) {
                self.caFile = caFile
                self.certificateFile = certificateFile
                self.keyFile = keyFile
                self.serverName = serverName
            }
        }

        /// A configuration with the defaults above.
        ///
        /// - Parameters:
        ///   - host: The broker's host name or address.
        ///   - port: The broker's TCP port.
        ///   - clientID: The client identifier.
        ///   - eventLoop: The loop that runs the connection.
        public init(host: String, port: UInt16 = 1883, clientID: String, eventLoop: EventLoop = .shared) {
            self.host = host
            self.port = port
            self.clientID = clientID
            keepAlive = .seconds(30)
            connectTimeout = .seconds(10)
            cleanSession = true
            eventQueueLimit = 1000
            inflightLimit = 100
            reconnectDelay = .milliseconds(500)
            reconnectDelayLimit = .seconds(30)
            stableSession = .seconds(30)
            self.eventLoop = eventLoop
        }

        /// Why MQTT cannot carry this configuration, or nil.
        var problem: String? {
            if host.isEmpty { return "the broker host is empty" }
            if keepAlive < .seconds(1) || keepAlive > .seconds(65_535) { return "keep alive must be 1 s to 65535 s" }
            if connectTimeout <= .zero { return "the connect timeout must be positive" }
            if clientID.utf8.count > Int(UInt16.max) { return "the client id is longer than 65535 bytes" }
            if let tls, (tls.certificateFile == nil) != (tls.keyFile == nil) {
                return "a client certificate needs its key, and a key its certificate"
            }
            for message in [will, birth].compactMap({ $0 }) {
                if let reason = MQTTMessage.problem(withTopic: message.topic) { return reason }
            }
            return nil
        }

        /// The keep-alive in whole seconds, as CONNECT carries it.
        var keepAliveSeconds: UInt16 { UInt16(clamping: keepAlive.components.seconds) }
    }
}
