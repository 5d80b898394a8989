import CLinuxSupport
import Glibc
import Vigil
import VigilSensors

/// An HTTP/1.1 server for Prometheus scrapes: `GET /metrics` answers with a ``MetricsExporter``'s exposition.
///
/// It runs on Vigil's `EventLoop` (non-blocking sockets watched by epoll; no thread of its own and no Foundation
/// networking), so an idle server costs nothing between scrapes. It keeps connections alive, answers `HEAD`, and
/// answers `404` for other paths, `405` (with `Allow: GET, HEAD`) for other methods, `400` for malformed requests,
/// `431` for a head beyond ``Configuration/maximumHeaderBytes`` and `505` for HTTP versions other than 1.x.
/// Concurrent scrapes are served interleaved on the loop thread, each connection with a bounded input buffer and at
/// most one response pending.
///
/// A scraper cannot hold the server: a connection that sends no complete request within
/// ``Configuration/requestTimeout`` of its first byte, or does not read its response within that time, is closed,
/// as is one that stays idle for ``Configuration/idleTimeout``; beyond ``Configuration/maximumConnections`` a new
/// connection gets `503` and is closed. Each such drop, and each refused request, is reported through `log` (the
/// `vigil serve` tool prints it on standard error); an idle keep-alive connection closes silently.
public final class MetricsServer: Sendable {
    /// The server's settings.
    public struct Configuration: Sendable {
        /// Where to listen; loopback (`127.0.0.1:9464`) by default.
        public var address: ListenAddress
        /// The most connections open at once.
        public var maximumConnections: Int
        /// How long a connection may stay open with no request in progress.
        public var idleTimeout: Duration
        /// How long a client may take to send a request head once it began, and to read a response.
        public var requestTimeout: Duration
        /// The largest request head accepted (request line and fields); a longer one is answered `431`.
        public var maximumHeaderBytes: Int

        /// Creates settings.
        ///
        /// - Parameters:
        ///   - address: Where to listen.
        ///   - maximumConnections: The most connections open at once, at least 1.
        ///   - idleTimeout: How long a connection may stay open with no request in progress.
        ///   - requestTimeout: How long a request head may take to arrive, and a response to be read.
        ///   - maximumHeaderBytes: The largest request head accepted, at least 256 bytes.
        public init(
            address: ListenAddress = .loopback, maximumConnections: Int = 64, idleTimeout: Duration = .seconds(60),
            requestTimeout: Duration = .seconds(10), maximumHeaderBytes: Int = 8192
        ) {
            self.address = address
            self.maximumConnections = max(1, maximumConnections)
            self.idleTimeout = max(idleTimeout, .milliseconds(1))
            self.requestTimeout = max(requestTimeout, .milliseconds(1))
            self.maximumHeaderBytes = max(256, maximumHeaderBytes)
        }
    }

    private struct State {
        var listener: FileDescriptor?
        var registration: EventLoop.Registration?
        var connections: [ObjectIdentifier: ServerConnection] = [:]
        var port: UInt16?
        var isStopped = false
    }

    /// The settings the server was made with.
    public let configuration: Configuration
    private let exporter: MetricsExporter
    private let eventLoop: EventLoop
    private let log: @Sendable (String) -> Void
    private let state = FutexMutex(State())

    /// Creates a server of `exporter`'s metrics; ``start()`` begins listening.
    ///
    /// - Parameters:
    ///   - exporter: What `GET /metrics` renders, at each scrape.
    ///   - configuration: Address, limits and timeouts.
    ///   - eventLoop: The loop that runs the sockets; the shared one by default.
    ///   - log: Called with one line (no trailing newline) when a connection is dropped or a request refused; on the
    ///     loop thread, never under a lock of the server. It must not block.
    public init(
        exporter: MetricsExporter, configuration: Configuration = Configuration(), eventLoop: EventLoop = .shared,
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.exporter = exporter
        self.configuration = configuration
        self.eventLoop = eventLoop
        self.log = log
    }

    deinit { stop() }

    /// The port the server listens on (the kernel's choice when the address asked for port 0); nil before
    /// ``start()`` and after ``stop()``.
    public var port: UInt16? { state.withLock { $0.port } }

    /// How many client connections are open.
    public var connectionCount: Int { state.withLock { $0.connections.count } }

    /// Binds the address and starts accepting connections; does nothing if already listening.
    ///
    /// - Throws: ``MetricsServerError/systemCall(name:address:error:)`` when the address cannot be bound (in use,
    ///   not an address of this machine, a privileged port).
    public func start() throws(MetricsServerError) {
        guard state.withLock({ $0.listener == nil }) else { return }
        let listener = try FileDescriptor.listening(
            on: configuration.address, backlog: Int32(min(configuration.maximumConnections, 1024)))
        let port = listener.localPort
        state.withLock { state in
            state.listener = listener
            state.port = port
            state.isStopped = false
        }
        do {
            try watchListener()
        } catch {
            stop()
            throw .systemCall(name: "epoll_ctl", address: configuration.address.description, error: "\(error)")
        }
    }

    /// Stops listening and closes every connection; nothing is served after it returns.
    public func stop() {
        let (registration, listener, connections) = state.withLock { state in
            state.isStopped = true
            defer {
                state.registration = nil
                state.listener = nil
                state.port = nil
                state.connections = [:]
            }
            return (state.registration, state.listener, Array(state.connections.values))
        }
        // Cancelled before the listener closes (it closes when the last holder lets go: here, or a `watchListener` or
        // accept still running), so the loop never removes a descriptor that is already closed or reused.
        registration?.cancel()
        withExtendedLifetime(listener) {}
        for connection in connections { connection.close(reason: nil) }
    }

    private func watchListener() throws(SensorError) {
        // Held, not its number: a `stop()` meanwhile cannot close it before the registration below is cancelled.
        guard let listener = state.withLock({ $0.isStopped ? nil : $0.listener }) else { return }
        let registration = try eventLoop.register(fileDescriptor: listener.rawValue, interest: .readable) {
            [weak self] _ in
            self?.acceptConnections()
        }
        let keep = state.withLock { state in
            // The listener registered, not one a stop and a new start put there meanwhile.
            guard !state.isStopped, state.listener === listener else { return false }
            state.registration = registration
            return true
        }
        if !keep { registration.cancel() }
        withExtendedLifetime(listener) {}
    }

    /// Accepts what is pending (a bounded batch, so other descriptors get their turn).
    private func acceptConnections() {
        // Held for the batch, so a concurrent `stop()` cannot close it under the accepts.
        guard let listenerDescriptor = state.withLock({ $0.listener }) else { return }
        let listener = listenerDescriptor.rawValue
        defer { withExtendedLifetime(listenerDescriptor) {} }
        for _ in 0..<64 {
            var peer = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let fd: Int32
            do {
                fd = try retryingOnInterrupt("accept4") {
                    withUnsafeMutablePointer(to: &peer) {
                        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                            vigil_accept_nonblocking(listener, $0, &length)
                        }
                    }
                }
            } catch .wouldBlock {
                return
            } catch  where error.rawValue == ECONNABORTED {
                continue
            } catch {
                // Out of descriptors (EMFILE, ENFILE) or memory: the pending connection stays queued and the listener
                // stays readable, so stop watching it for a moment instead of spinning.
                log("metrics server: accept failed (\(error)); pausing for 100 ms")
                pauseAccepting()
                return
            }
            admit(FileDescriptor(fd), peer: FileDescriptor.describe(peer))
        }
    }

    private func pauseAccepting() {
        let registration = state.withLock { state -> EventLoop.Registration? in
            defer { state.registration = nil }
            return state.registration
        }
        registration?.cancel()
        let resume = try? eventLoop.schedule(after: .milliseconds(100)) { [weak self] in
            try? self?.watchListener()
        }
        _ = resume
    }

    private func admit(_ socket: FileDescriptor, peer: String) {
        let limit = configuration.maximumConnections
        let full = state.withLock { $0.connections.count >= limit }
        if full {
            // Logged first: a client that has read its 503 then finds the reason in the log.
            log("metrics server: dropped a connection from \(peer): \(limit) connections are open (the limit)")
            let response = HTTPResponse(status: 503, body: "too many connections\n")
            let bytes = response.serialized(keepAlive: false, includeBody: true)
            _ = bytes.withUnsafeBytes { send(socket.rawValue, $0.baseAddress, $0.count, vigil_msg_nosignal()) }
            socket.close()
            return
        }
        let connection = ServerConnection(
            socket: socket, peer: peer, configuration: configuration, eventLoop: eventLoop, exporter: exporter,
            log: log,
            onClose: { [weak self] closed in
                _ = self?.state.withLock { $0.connections.removeValue(forKey: ObjectIdentifier(closed)) }
            })
        let added = state.withLock { state in
            guard !state.isStopped else { return false }
            state.connections[ObjectIdentifier(connection)] = connection
            return true
        }
        guard added else {
            socket.close()
            return
        }
        connection.open()
    }
}
