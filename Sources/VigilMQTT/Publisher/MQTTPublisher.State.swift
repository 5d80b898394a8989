import VigilSensors

extension MQTTPublisher {
    /// Where the connection is.
    enum Phase: Sendable {
        /// Not started, or stopped.
        case idle
        /// Looking up the broker's address off the loop.
        case resolving
        /// TCP connect in progress.
        case connecting
        /// CONNECT sent, waiting for CONNACK.
        case handshaking
        /// CONNACK accepted: publishing.
        case connected
        /// Waiting out the backoff before the next attempt.
        case waiting
    }

    /// Everything the lock guards.
    struct State: Sendable {
        var running = false
        var phase = Phase.idle
        /// Incremented with each attempt, so a callback of an older socket or timer does nothing.
        var generation: UInt64 = 0
        var socket: FileDescriptor?
        /// The TLS session over ``socket``, when the configuration asks for TLS.
        var tls: TLSSession?
        /// TLS cannot write until it has read (its handshake waits for the broker's answer).
        var writeWaitsForReadable = false
        /// TLS cannot read until it has written (its handshake has bytes the socket did not take yet).
        var readWaitsForWritable = false
        var registration: EventLoop.Registration?
        var watchingWritable = false
        var output: [UInt8] = []
        var outputStart = 0
        var decoder = MQTTPacketDecoder()
        var keepAliveTimer: EventLoop.Registration?
        /// The connect timeout while connecting, the backoff timer while waiting.
        var attemptTimer: EventLoop.Registration?
        var pingSentAt: ContinuousClock.Instant?
        var addressIndex = 0
        var outbox: MQTTOutbox
        var backoff: MQTTReconnectBackoff
        var statistics = Statistics()
        /// When the current session's CONNACK came; nil while not connected.
        var connectedAt: ContinuousClock.Instant?
        /// Sessions in a row that ended before ``Configuration/stableSession``.
        var shortSessions = 0

        init(outbox: MQTTOutbox, backoff: MQTTReconnectBackoff) {
            self.outbox = outbox
            self.backoff = backoff
        }

        /// Hands the socket and its registration to `after` (cancelled and closed once the lock is released).
        mutating func detachConnection(into after: inout AfterLock) {
            if let registration { after.registrations.append(registration) }
            registration = nil
            if let socket { after.sockets.append(socket) }
            socket = nil
            if let tls { after.sessions.append(tls) }
            tls = nil
            writeWaitsForReadable = false
            readWaitsForWritable = false
            watchingWritable = false
            output.removeAll()
            outputStart = 0
            decoder = MQTTPacketDecoder()
            pingSentAt = nil
        }

        /// Hands the keep-alive and attempt timers to `after`.
        mutating func detachTimers(into after: inout AfterLock) {
            after.registrations += [keepAliveTimer, attemptTimer].compactMap { $0 }
            keepAliveTimer = nil
            attemptTimer = nil
        }
    }

    /// What to do once the lock is released: cancel registrations (which may wait for a running handler), close
    /// sockets, start a resolution, publish events.
    struct AfterLock {
        var registrations: [EventLoop.Registration] = []
        var sockets: [FileDescriptor] = []
        /// TLS sessions to end (close_notify) before their sockets close.
        var sessions: [TLSSession] = []
        var resolve: UInt64?
        var events: [Event] = []
    }
}
