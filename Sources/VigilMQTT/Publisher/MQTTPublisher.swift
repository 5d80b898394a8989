import Dispatch
import Vigil
import VigilSensors

/// An MQTT 3.1.1 client that publishes: messages, or every value of any `Observable`, to a broker, over a connection
/// it keeps alive and re-establishes by itself.
///
/// It is a publisher, not a general client (it never subscribes), hence the name: the one type an application needs
/// to push its state to MQTT. It runs on Vigil's `EventLoop`: a non-blocking TCP socket watched by epoll, and
/// `timerfd`s for keep-alive and reconnects, so an idle publisher costs no CPU and no thread of its own. Host names are
/// resolved with `getaddrinfo(3)` on a private Dispatch queue, never on the loop.
///
/// On each connection it sends CONNECT (with the configured will), then the ``Configuration/birth`` message, then
/// QoS 1 messages the broker had not acknowledged (with DUP set), then the latest message of every retained topic
/// (a broker restarted without persistence has forgotten them), then queued events. While disconnected it keeps the
/// latest message per retained topic and at most ``Configuration/eventQueueLimit`` events, counting what it drops.
/// A broker that closes mid-packet, sends garbage, stops answering pings or stops reading never blocks a caller:
/// the connection is dropped, the reason published on ``events``, and a new attempt starts after an exponential
/// backoff with jitter, which starts over only once a session stayed up for ``Configuration/stableSession`` (and
/// sessions the broker keeps ending early are reported). Refused credentials (CONNACK 4 or 5) stop the publisher
/// with a ``Event/refused(reason:)`` event instead. Writes never block: at most about 64 KiB wait in the publisher's
/// own buffer (128 KiB with the acknowledgements of messages a broker pushes unasked).
///
/// ```swift
/// var configuration = MQTTPublisher.Configuration(host: "broker.local", clientID: "kiosk-7")
/// configuration.will = MQTTMessage(topic: "kiosk-7/status", text: "offline", retain: true)
/// configuration.birth = MQTTMessage(topic: "kiosk-7/status", text: "online", retain: true)
/// let publisher = try MQTTPublisher(configuration)
/// publisher.start()
/// let subscription = try publisher.publish(store.state, topic: "kiosk-7/state") { Array("\($0)".utf8) }
/// ```
///
/// Every method is safe from any thread. A publisher that is released stops and closes its socket.
public final class MQTTPublisher: Sendable {
    /// The configuration it was made with.
    public let configuration: Configuration

    private let state: FutexMutex<State>
    private let eventSubject = PublishSubject<Event>()
    private let resolver = DispatchQueue(label: "vigil.mqtt.resolve")
    /// Made once from ``Configuration/tls``: every connection's session shares it.
    private let tlsContext: TLSContext?
    /// The bytes the publisher's own buffer may hold before it waits for the socket to drain.
    static let outputHighWater = 64 * 1024

    /// Connection events (connected, lost with the reason and the retry delay, events dropped), for a log.
    ///
    /// Published on the thread that noticed them (usually the event loop's), never under a lock of the publisher.
    public var events: Observable<Event> { eventSubject.asObservable() }

    /// A snapshot of the counters.
    public var statistics: Statistics {
        state.withLock { state in
            var statistics = state.statistics
            statistics.isConnected = state.phase == .connected
            statistics.dropped = state.outbox.droppedTotal
            statistics.queuedEvents = state.outbox.queuedEvents
            statistics.unacknowledged = state.outbox.unacknowledged
            return statistics
        }
    }

    /// A publisher for `configuration`, not connected yet; call ``start()``.
    ///
    /// - Throws: ``MQTTError/invalidConfiguration(reason:)`` for a value MQTT cannot carry; ``MQTTError/tls(reason:)``
    ///   when the TLS files cannot be used or the system has no OpenSSL 3.
    public init(_ configuration: Configuration) throws(MQTTError) {
        if let reason = configuration.problem { throw .invalidConfiguration(reason: reason) }
        do {
            tlsContext = try configuration.tls.map { tls throws(TLSError) in
                try TLSContext.client(caFile: tls.caFile, certificateFile: tls.certificateFile, keyFile: tls.keyFile)
            }
        } catch {
            throw .tls(reason: error.message)
        }
        self.configuration = configuration
        state = FutexMutex(
            State(
                outbox: MQTTOutbox(
                    eventLimit: configuration.eventQueueLimit, inflightLimit: configuration.inflightLimit),
                backoff: MQTTReconnectBackoff(
                    first: configuration.reconnectDelay, limit: configuration.reconnectDelayLimit)))
    }

    deinit {
        let after = state.withLock { state in
            var after = AfterLock()
            state.detachConnection(into: &after)
            state.detachTimers(into: &after)
            return after
        }
        for registration in after.registrations { registration.cancel() }
        for session in after.sessions { session.shutdown() }
        for socket in after.sockets { MQTTSocket.close(socket) }
    }

    /// Starts connecting; messages published before the connection is up are kept as described above. Calling it
    /// again while running does nothing.
    public func start() {
        act { state, after in
            guard !state.running else { return }
            state.running = true
            if let birth = configuration.birth { state.outbox.enqueue(birth) }
            beginAttempt(&state, &after)
        }
    }

    /// Publishes the will message itself (a broker drops the will on a clean disconnect), says DISCONNECT, and
    /// closes the connection; nothing is sent after it returns. Messages not yet sent are kept for a later
    /// ``start()``.
    public func stop() {
        act { state, after in
            guard state.running else { return }
            state.running = false
            if state.phase == .connected {
                // At QoS 0: DISCONNECT follows at once, so no PUBACK could be waited for.
                if var will = configuration.will {
                    will.qos = .atMostOnce
                    if let bytes = try? MQTTPacketEncoder.publish(will, packetID: nil) { state.output += bytes }
                }
                state.output += MQTTPacketEncoder.disconnect
                flushBestEffort(&state)
            }
            state.detachConnection(into: &after)
            state.detachTimers(into: &after)
            state.phase = .idle
        }
    }

    /// Sends `message` now if connected, or keeps it to send on the next connection.
    ///
    /// Never blocks. A retained message replaces the kept one of its topic; an event message waits in a bounded queue.
    ///
    /// - Throws: ``MQTTError/invalidTopic(topic:reason:)`` for a topic MQTT does not allow.
    public func publish(_ message: MQTTMessage) throws(MQTTError) {
        if let reason = MQTTMessage.problem(withTopic: message.topic) {
            throw .invalidTopic(topic: message.topic, reason: reason)
        }
        act { state, after in
            state.outbox.enqueue(message)
            pump(&state, &after)
        }
    }

    /// Publishes every value of `source` to `topic`, encoded by `encode`, until the returned subscription is
    /// disposed.
    ///
    /// `encode` runs on the thread that delivers `source`'s values (as `subscribe(_:)` does), never under a lock of
    /// the publisher; return the payload bytes (for example UTF-8 JSON).
    ///
    /// - Parameters:
    ///   - source: Any observable, for example a `BehaviorSubject` state store or a sensor's readings.
    ///   - topic: The topic to publish to.
    ///   - qos: The delivery guarantee; QoS 0 by default.
    ///   - retain: Whether each value is the topic's state (kept by the broker, only the latest kept while
    ///     disconnected) or an event; true by default.
    ///   - encode: Turns a value into the payload.
    /// - Returns: The subscription; dispose it (or release it) to stop publishing.
    /// - Throws: ``MQTTError/invalidTopic(topic:reason:)`` for a topic MQTT does not allow.
    public func publish<Source: ObservableType>(
        _ source: Source, topic: String, qos: MQTTQoS = .atMostOnce, retain: Bool = true,
        encode: @escaping @Sendable (Source.Element) -> [UInt8]
    ) throws(MQTTError) -> Subscription {
        if let reason = MQTTMessage.problem(withTopic: topic) { throw .invalidTopic(topic: topic, reason: reason) }
        return source.subscribe { [weak self] value in
            try? self?.publish(MQTTMessage(topic: topic, payload: encode(value), qos: qos, retain: retain))
        }
    }

    // MARK: - The connection, driven under the lock; effects that may wait run after it.

    /// Runs `body` under the lock, then cancels, closes and publishes what it left to do.
    private func act(_ body: (inout State, inout AfterLock) -> Void) {
        let after = state.withLock { state in
            var after = AfterLock()
            body(&state, &after)
            return after
        }
        for registration in after.registrations { registration.cancel() }
        for session in after.sessions { session.shutdown() }
        for socket in after.sockets { MQTTSocket.close(socket) }
        if let generation = after.resolve {
            let host = configuration.host
            let port = configuration.port
            resolver.async { [weak self] in
                let result: Result<[MQTTSocket.Address], MQTTSocketError>
                do throws(MQTTSocketError) {
                    result = .success(try MQTTSocket.resolve(host: host, port: port))
                } catch {
                    result = .failure(error)
                }
                self?.resolved(result, generation: generation)
            }
        }
        for event in after.events { eventSubject.publish(event) }
    }

    private func beginAttempt(_ state: inout State, _ after: inout AfterLock) {
        state.generation &+= 1
        state.phase = .resolving
        after.resolve = state.generation
    }

    private func resolved(_ result: Result<[MQTTSocket.Address], MQTTSocketError>, generation: UInt64) {
        act { state, after in
            guard state.running, state.generation == generation, state.phase == .resolving else { return }
            do throws(MQTTSocketError) {
                let addresses = try result.get()
                let address = addresses[state.addressIndex % addresses.count]
                state.addressIndex &+= 1
                let socket = try MQTTSocket.connect(to: address)
                state.socket = socket
                state.phase = .connecting
                state.watchingWritable = true
                do throws(SensorError) {
                    state.registration = try configuration.eventLoop.register(
                        fileDescriptor: socket.rawValue, interest: [.readable, .writable]
                    ) { [weak self] ready in self?.socketReady(ready, generation: generation) }
                    state.attemptTimer = try configuration.eventLoop.schedule(after: configuration.connectTimeout) {
                        [weak self] in self?.attemptTimedOut(generation: generation)
                    }
                } catch {
                    throw MQTTSocketError(message: "\(error)")
                }
            } catch {
                lose("cannot connect to \(broker): \(error)", &state, &after)
            }
        }
    }

    private func attemptTimedOut(generation: UInt64) {
        act { state, after in
            guard state.generation == generation, state.phase == .connecting || state.phase == .handshaking else {
                return
            }
            lose("no answer from \(broker) within \(configuration.connectTimeout)", &state, &after)
        }
    }

    private func retry(generation: UInt64) {
        act { state, after in
            guard state.running, state.generation == generation, state.phase == .waiting else { return }
            beginAttempt(&state, &after)
        }
    }

    private func socketReady(_ ready: EventLoop.Interest, generation: UInt64) {
        act { state, after in
            guard state.generation == generation, let socket = state.socket else { return }
            if state.phase == .connecting {
                if let error = MQTTSocket.pendingError(socket) {
                    return lose("cannot connect to \(broker): \(error)", &state, &after)
                }
                guard ready.contains(.writable) else { return }
                if let tlsContext {
                    do throws(TLSError) {
                        state.tls = try TLSSession(
                            context: tlsContext, socket: socket.rawValue, isServer: false,
                            serverName: configuration.tls?.serverName ?? configuration.host)
                    } catch {
                        return lose("cannot connect to \(broker): \(error)", &state, &after)
                    }
                }
                sendConnect(&state, &after)
            }
            // What TLS waited for may have come in the other direction than the one its call was about.
            let writes = ready.contains(.writable) || (ready.contains(.readable) && state.writeWaitsForReadable)
            let reads = ready.contains(.readable) || (ready.contains(.writable) && state.readWaitsForWritable)
            if reads { readAvailable(&state, &after) }
            if writes && state.generation == generation && state.socket != nil {
                pump(&state, &after)
                flush(&state, &after)
            }
        }
    }

    private func sendConnect(_ state: inout State, _ after: inout AfterLock) {
        state.phase = .handshaking
        let connect = MQTTPacketEncoder.Connect(
            clientID: configuration.clientID, keepAliveSeconds: configuration.keepAliveSeconds,
            cleanSession: configuration.cleanSession, username: configuration.username,
            password: configuration.password, will: configuration.will)
        do throws(MQTTProtocolError) {
            state.output += try MQTTPacketEncoder.connect(connect)
        } catch {
            return lose("cannot encode CONNECT: \(error)", &state, &after)
        }
        flush(&state, &after)
    }

    /// Reads what the socket holds (at most 16 reads a wakeup, so one busy broker cannot starve the loop) and
    /// handles every complete packet.
    private func readAvailable(_ state: inout State, _ after: inout AfterLock) {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        let generation = state.generation
        for _ in 0..<16 {
            guard state.generation == generation, let socket = state.socket else { return }
            let count: Int?
            do throws(MQTTSocketError) {
                (count, state.readWaitsForWritable) = try MQTTSocket.receive(socket, state.tls, into: &buffer)
            } catch {
                return lose("connection to \(broker) failed: \(error)", &state, &after)
            }
            guard let count else {
                if state.readWaitsForWritable { updateInterest(&state) }
                return
            }
            if count == 0 {
                let partial = state.decoder.bufferedCount > 0 ? " in the middle of a packet" : ""
                return lose("\(broker) closed the connection\(partial)", &state, &after)
            }
            state.decoder.append(buffer[..<count])
            do throws(MQTTProtocolError) {
                while state.generation == generation, let packet = try state.decoder.next() {
                    handle(packet, &state, &after)
                }
            } catch {
                return lose("protocol error from \(broker): \(error)", &state, &after)
            }
            if state.generation == generation, state.outputStart < state.output.count { flush(&state, &after) }
        }
    }

    private func handle(_ packet: MQTTInboundPacket, _ state: inout State, _ after: inout AfterLock) {
        state.pingSentAt = nil
        switch packet {
        case .connectionAcknowledgement(_, let returnCode):
            guard state.phase == .handshaking else { return lose("unexpected CONNACK from \(broker)", &state, &after) }
            guard returnCode == 0 else {
                let reason = MQTTInboundPacket.refusal(returnCode: returnCode)
                // Refused credentials stay refused: stop, and say so, rather than retry them forever.
                if returnCode == 4 || returnCode == 5 { return refuse("\(broker): \(reason)", &state, &after) }
                return lose("\(broker) refused the connection: \(reason)", &state, &after)
            }
            connected(&state, &after)
        case .publishAcknowledgement(let packetID):
            if state.outbox.acknowledge(packetID: packetID) { state.statistics.acknowledged += 1 }
            pump(&state, &after)
        case .publish(_, _, let packetID?):
            // Nothing was subscribed to, yet QoS 1 must be acknowledged: bounded, so a broker that pushes messages and
            // never reads cannot grow the buffer (it grew a process from 22 to 106 MB) but loses its connection.
            guard state.output.count - state.outputStart < 2 * Self.outputHighWater else {
                return lose("\(broker) sends messages and does not read the acknowledgements", &state, &after)
            }
            // Written with the rest of what this wake-up read (see `readAvailable`), not a system call per packet.
            state.output += MQTTPacketEncoder.publishAcknowledgement(packetID: packetID)
        case .pingResponse, .publish, .subscribeAcknowledgement, .unsubscribeAcknowledgement:
            break
        }
    }

    private func connected(_ state: inout State, _ after: inout AfterLock) {
        state.phase = .connected
        // The backoff starts over only once the session has stayed up (see `lose`), not at every CONNACK.
        state.connectedAt = .now
        state.statistics.connections += 1
        if let timer = state.attemptTimer { after.registrations.append(timer) }
        state.attemptTimer = nil
        let generation = state.generation
        state.keepAliveTimer = try? configuration.eventLoop.schedule(every: configuration.keepAlive / 2) {
            [weak self] in self?.keepAliveTick(generation: generation)
        }
        after.events.append(.connected(broker: broker))
        let dropped = state.outbox.takeDropped()
        if dropped > 0 { after.events.append(.dropped(count: dropped)) }
        if let birth = configuration.birth { state.outbox.enqueue(birth) }
        for resend in state.outbox.reconnected() {
            guard let bytes = try? MQTTPacketEncoder.publish(resend.message, packetID: resend.packetID, duplicate: true)
            else { continue }
            state.output += bytes
            state.statistics.resent += 1
            state.statistics.published += 1
        }
        pump(&state, &after)
    }

    private func keepAliveTick(generation: UInt64) {
        act { state, after in
            guard state.generation == generation, state.phase == .connected else { return }
            let now = ContinuousClock.now
            if let sent = state.pingSentAt {
                if now - sent >= configuration.keepAlive {
                    lose("no answer from \(broker) for \(configuration.keepAlive)", &state, &after)
                }
                return
            }
            state.pingSentAt = now
            state.output += MQTTPacketEncoder.pingRequest
            flush(&state, &after)
        }
    }

    /// Encodes what the outbox lets go while the buffer has room, then writes.
    private func pump(_ state: inout State, _ after: inout AfterLock) {
        guard state.phase == .connected else { return }
        while state.output.count - state.outputStart < Self.outputHighWater, let next = state.outbox.next() {
            guard let bytes = try? MQTTPacketEncoder.publish(next.message, packetID: next.packetID) else { continue }
            state.output += bytes
            state.statistics.published += 1
        }
        flush(&state, &after)
    }

    /// Writes the buffer without blocking; watches for writability only while bytes remain.
    private func flush(_ state: inout State, _ after: inout AfterLock) {
        guard let socket = state.socket, state.phase != .connecting else { return }
        state.writeWaitsForReadable = false
        while state.outputStart < state.output.count {
            let sent: Int
            do throws(MQTTSocketError) {
                (sent, state.writeWaitsForReadable) = try MQTTSocket.send(
                    socket, state.tls, state.output[state.outputStart...])
            } catch {
                return lose("connection to \(broker) failed: \(error)", &state, &after)
            }
            if sent == 0 { break }
            state.outputStart += sent
        }
        if state.outputStart == state.output.count {
            state.output.removeAll(keepingCapacity: state.output.capacity <= 2 * Self.outputHighWater)
            state.outputStart = 0
        }
        updateInterest(&state)
    }

    /// Watches for writability while bytes remain that the socket (not TLS waiting to read) holds up, or while a TLS
    /// read waits to write.
    private func updateInterest(_ state: inout State) {
        let wantsWritable =
            (state.outputStart < state.output.count && !state.writeWaitsForReadable) || state.readWaitsForWritable
        if wantsWritable != state.watchingWritable, let registration = state.registration {
            state.watchingWritable = wantsWritable
            try? registration.setInterest(wantsWritable ? [.readable, .writable] : .readable)
        }
    }

    /// One last non-blocking write before closing; what does not fit is lost.
    private func flushBestEffort(_ state: inout State) {
        guard let socket = state.socket else { return }
        while state.outputStart < state.output.count,
            let (sent, _) = try? MQTTSocket.send(socket, state.tls, state.output[state.outputStart...]), sent > 0
        {
            state.outputStart += sent
        }
    }

    /// Drops the connection (or the attempt), says why, and schedules the next attempt while running.
    private func lose(_ reason: String, _ state: inout State, _ after: inout AfterLock) {
        state.detachConnection(into: &after)
        state.detachTimers(into: &after)
        state.statistics.connectionFailures += 1
        if let since = state.connectedAt {
            state.connectedAt = nil
            if ContinuousClock.now - since >= configuration.stableSession {
                state.backoff.reset()
                state.shortSessions = 0
            } else {
                state.shortSessions += 1
                if state.shortSessions >= 3 {
                    after.events.append(
                        .sessionsEndingEarly(
                            count: state.shortSessions, within: configuration.stableSession,
                            clientID: configuration.clientID))
                }
            }
        }
        guard state.running else {
            state.phase = .idle
            return
        }
        state.generation &+= 1
        state.phase = .waiting
        let delay = state.backoff.take()
        let generation = state.generation
        state.attemptTimer = try? configuration.eventLoop.schedule(after: delay) { [weak self] in
            self?.retry(generation: generation)
        }
        after.events.append(.connectionLost(reason: reason, retryAfter: delay))
    }

    /// Ends the attempt for good: the broker refused the credentials, which trying again cannot change.
    private func refuse(_ reason: String, _ state: inout State, _ after: inout AfterLock) {
        state.detachConnection(into: &after)
        state.detachTimers(into: &after)
        state.statistics.connectionFailures += 1
        state.running = false
        state.phase = .idle
        after.events.append(.refused(reason: reason))
    }

    /// `host:port` for log lines.
    private var broker: String {
        configuration.host.contains(":")
            ? "[\(configuration.host)]:\(configuration.port)" : "\(configuration.host):\(configuration.port)"
    }
}
