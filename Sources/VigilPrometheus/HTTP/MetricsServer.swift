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
/// The exposition is gzip-compressed when the request's `Accept-Encoding` accepts it (and the system has zlib).
/// `GET /` answers with a landing page that links to the metrics.
///
/// ``Configuration/web`` adds TLS (through the system's OpenSSL 3, loaded at run time) and HTTP basic authentication
/// against bcrypt hashes, configured as node_exporter's web configuration file configures them (see
/// ``WebConfiguration/init(contentsOfFile:)``). With users set, every path needs credentials: a request without
/// valid ones gets `401` with `WWW-Authenticate: Basic`. The bcrypt checks run on a worker thread, never on the loop.
///
/// A scraper cannot hold the server: a new connection that sends nothing within
/// ``Configuration/firstByteTimeout``, one that sends no complete request within ``Configuration/requestTimeout``
/// of its first byte, or does not read its response within that time, is closed, as is one that stays idle for
/// ``Configuration/idleTimeout``. At ``Configuration/maximumConnections`` a new connection evicts the oldest idle one
/// (or, with none idle, the oldest still sending its request); only when every connection is being answered does the
/// new one get `503`. A connection gets one request answered per turn of the loop, however many it pipelines. The
/// listen backlog is the kernel's `somaxconn`. Each drop, eviction and refused request is reported through `log` (the
/// `vigil serve` tool prints it on standard error, rate-limited); an idle keep-alive connection closes silently.
public final class MetricsServer: Sendable {
    /// The server's settings.
    public struct Configuration: Sendable {
        /// Where to listen; loopback (`127.0.0.1:9464`) by default.
        public var address: ListenAddress
        /// The most connections open at once.
        public var maximumConnections: Int
        /// How long a connection may stay open with no request in progress.
        public var idleTimeout: Duration
        /// How long a new connection may stay open before the first byte of its first request.
        public var firstByteTimeout: Duration
        /// How long a client may take to send a request head once it began, and to read a response.
        public var requestTimeout: Duration
        /// The largest request head accepted (request line and fields); a longer one is answered `431`.
        public var maximumHeaderBytes: Int
        /// TLS and basic authentication; plain HTTP open to all by default.
        public var web: WebConfiguration

        /// Creates settings.
        ///
        /// - Parameters:
        ///   - address: Where to listen.
        ///   - maximumConnections: The most connections open at once, at least 1.
        ///   - idleTimeout: How long a connection may stay open with no request in progress.
        ///   - firstByteTimeout: How long a new connection may stay open before the first byte of a request.
        ///   - requestTimeout: How long a request head may take to arrive, and a response to be read.
        ///   - maximumHeaderBytes: The largest request head accepted, at least 256 bytes.
        ///   - web: TLS and basic authentication.
        public init(
            address: ListenAddress = .loopback, maximumConnections: Int = 64, idleTimeout: Duration = .seconds(60),
            firstByteTimeout: Duration = .seconds(5), requestTimeout: Duration = .seconds(10),
            maximumHeaderBytes: Int = 8192, web: WebConfiguration = WebConfiguration()
        ) {
            self.address = address
            self.maximumConnections = max(1, maximumConnections)
            self.idleTimeout = max(idleTimeout, .milliseconds(1))
            self.firstByteTimeout = max(firstByteTimeout, .milliseconds(1))
            self.requestTimeout = max(requestTimeout, .milliseconds(1))
            self.maximumHeaderBytes = max(256, maximumHeaderBytes)
            self.web = web
        }
    }

    private struct State {
        var listener: FileDescriptor?
        var registration: EventLoop.Registration?
        var connections: [ObjectIdentifier: ServerConnection] = [:]
        var port: UInt16?
        var isStopped = false
        /// Made by ``start()`` from the web configuration.
        var tls: TLSContext?
        var authenticator: BasicAuthenticator?
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
    ///   not an address of this machine, a privileged port); ``MetricsServerError/tls(_:)`` when the certificate or
    ///   key cannot be used, or the system has no OpenSSL 3.
    public func start() throws(MetricsServerError) {
        guard state.withLock({ $0.listener == nil }) else { return }
        // The certificates are loaded before listening, so a bad file is an error of start(), not of each client.
        let tls = try configuration.web.tls?.makeContext()
        let users = configuration.web.basicAuthUsers
        let authenticator = users.isEmpty ? nil : BasicAuthenticator(users: users)
        let listener = try FileDescriptor.listening(on: configuration.address, backlog: Self.backlog)
        let port = listener.localPort
        state.withLock { state in
            state.listener = listener
            state.port = port
            state.isStopped = false
            state.tls = tls
            state.authenticator = authenticator
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

    /// The listen backlog: the kernel's `somaxconn` (it caps any larger value to that anyway), 4096 if unreadable.
    static var backlog: Int32 {
        let descriptor = open("/proc/sys/net/core/somaxconn", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return 4096 }
        defer { Glibc.close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 16)
        let count = read(descriptor, &buffer, buffer.count)
        let digits = buffer.prefix(max(count, 0)).prefix { $0 >= 0x30 && $0 <= 0x39 }
        return Int32(String(decoding: digits, as: UTF8.self)).flatMap { $0 > 0 ? $0 : nil } ?? 4096
    }

    /// At the limit, closes the connection ``ServerConnection/eviction`` ranks first; false when none may go.
    private func evictOne(for peer: String) -> Bool {
        let connections = state.withLock { Array($0.connections.values) }
        let ranked = connections.compactMap { connection in connection.eviction.map { (connection, $0) } }
        guard let (victim, rank) = ranked.min(by: { ($0.1.rank, $0.1.since) < ($1.1.rank, $1.1.since) }) else {
            return false
        }
        let what = rank.rank == 0 ? "idle" : "still sending its request"
        victim.close(reason: "evicted for a new connection from \(peer): the longest \(what) at the limit")
        return true
    }

    private func admit(_ socket: FileDescriptor, peer: String) {
        let limit = configuration.maximumConnections
        var full = state.withLock { $0.connections.count >= limit }
        if full, evictOne(for: peer) { full = state.withLock { $0.connections.count >= limit } }
        let (tls, authenticator) = state.withLock { ($0.tls, $0.authenticator) }
        if full {
            // Logged first: a client that has read its 503 then finds the reason in the log.
            log("metrics server: dropped a connection from \(peer): \(limit) connections are open (the limit)")
            // Over TLS the answer would need a handshake first; the client sees the connection close instead.
            if tls == nil {
                let response = HTTPResponse(status: 503, body: "too many connections\n")
                let bytes = response.serialized(keepAlive: false, includeBody: true)
                _ = bytes.withUnsafeBytes { send(socket.rawValue, $0.baseAddress, $0.count, vigil_msg_nosignal()) }
            }
            socket.close()
            return
        }
        let session: TLSSession?
        do {
            session = try tls.map { context throws(TLSError) in
                try TLSSession(context: context, socket: socket.rawValue, isServer: true)
            }
        } catch {
            log("metrics server: dropped a connection from \(peer): \(error)")
            socket.close()
            return
        }
        let connection = ServerConnection(
            socket: socket, tls: session, authenticator: authenticator, peer: peer, configuration: configuration,
            eventLoop: eventLoop, exporter: exporter, log: log,
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
