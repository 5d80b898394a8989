import CLinuxSupport
import Glibc
import Vigil
import VigilSensors

/// One client connection of a ``MetricsServer``: reads requests, answers them, and enforces the deadlines.
///
/// Every handler runs on the event-loop thread; the state sits behind a lock only because ``close(reason:)`` may
/// also come from ``MetricsServer/stop()`` on another thread. System calls run outside the lock. At most one
/// response is pending: while it is, the connection watches for room to write and reads nothing more, so a client
/// that pipelines requests without reading cannot grow the buffers.
final class ServerConnection: Sendable {
    /// What the connection waits for, which decides its deadline.
    private enum Phase {
        /// No request in progress (closed silently when the idle timeout passes).
        case idle
        /// Part of a request head has arrived.
        case receiving
        /// A response is pending and the client has not read it all.
        case sending
    }

    private struct State {
        var input: [UInt8] = []
        var output: [UInt8] = []
        var closeAfterOutput = false
        var phase = Phase.idle
        /// When the connection entered its phase, for choosing whom to evict.
        var phaseStart = ContinuousClock.now
        var deadline: ContinuousClock.Instant
        var registration: EventLoop.Registration?
        var watching: EventLoop.Interest = []
        var timer: EventLoop.Registration?
        var timerDeadline: ContinuousClock.Instant?
        var isClosed = false
        /// A `watch` is between registering the socket and storing the registration; a `close` meanwhile leaves the
        /// socket to it, to close after cancelling that registration (never a registered descriptor closed first).
        var isRegistering = false
        var socketLeftToWatch = false
        /// What the TLS session needs before it can go on, when that is not what the phase watches for.
        var tlsWants: EventLoop.Interest?
        /// A basic-authentication check of the request at the head of the input runs on the worker thread.
        var isAuthenticating = false
        /// The check's verdict, for that request.
        var verdict: BasicAuthenticator.Verdict?
        /// The turn of the loop that answers once the verdict is in; cancelled by a close, which then waits for it
        /// (a close from another thread must not pull the socket from under it).
        var resumption: EventLoop.Registration?
    }

    private let transport: ConnectionTransport
    private let authenticator: BasicAuthenticator?
    private let peer: String
    private let configuration: MetricsServer.Configuration
    private let limits: HTTPRequestParser.Limits
    private let eventLoop: EventLoop
    private let exporter: MetricsExporter
    private let log: @Sendable (String) -> Void
    private let onClose: @Sendable (ServerConnection) -> Void
    private let state: FutexMutex<State>

    init(
        socket: FileDescriptor, tls: TLSSession?, authenticator: BasicAuthenticator?, peer: String,
        configuration: MetricsServer.Configuration, eventLoop: EventLoop, exporter: MetricsExporter,
        log: @escaping @Sendable (String) -> Void, onClose: @escaping @Sendable (ServerConnection) -> Void
    ) {
        self.transport = ConnectionTransport(socket: socket, tls: tls)
        self.authenticator = authenticator
        self.peer = peer
        self.configuration = configuration
        self.limits = HTTPRequestParser.Limits(headBytes: configuration.maximumHeaderBytes)
        self.eventLoop = eventLoop
        self.exporter = exporter
        self.log = log
        self.onClose = onClose
        // Until its first byte a connection has only the short first-byte timeout: one that connects and says
        // nothing holds a slot for seconds, not the minute a keep-alive connection may idle between scrapes.
        state = FutexMutex(State(deadline: .now + configuration.firstByteTimeout))
    }

    /// How readily the server closes this connection to admit a new one when full: idle connections first, then
    /// those still receiving a request (a slow client), oldest first; nil for one whose response is being sent.
    var eviction: (rank: Int, since: ContinuousClock.Instant)? {
        state.withLock { state in
            switch state.phase {
            case .idle: return (0, state.phaseStart)
            case .receiving: return (1, state.phaseStart)
            case .sending: return nil
            }
        }
    }

    /// Starts watching the socket and the idle deadline.
    func open() {
        watch(.readable)
        armTimer()
    }

    /// Closes the socket and stops watching it; `reason`, when given, is logged. Later calls do nothing.
    func close(reason: String?) {
        typealias Closing = (registrations: [EventLoop.Registration], closesSocket: Bool)
        let closing = state.withLock { state -> Closing? in
            guard !state.isClosed else { return nil }
            state.isClosed = true
            state.socketLeftToWatch = state.isRegistering
            defer {
                state.registration = nil
                state.timer = nil
                state.resumption = nil
                state.input = []
                state.output = []
            }
            return ([state.registration, state.timer, state.resumption].compactMap { $0 }, !state.isRegistering)
        }
        guard let (registrations, closesSocket) = closing else { return }
        for registration in registrations { registration.cancel() }
        // Said before the socket closes, so a client that sees the close finds the line already written.
        if let reason { log("metrics server: dropped the connection from \(peer): \(reason)") }
        if closesSocket { transport.close() }
        onClose(self)
    }

    private var isClosed: Bool { state.withLock { $0.isClosed } }

    /// Handles readiness: reads what arrived, answers one complete request, writes what is pending.
    ///
    /// One request a turn of the loop: a client that pipelines hundreds gets the next answer after every other
    /// ready connection had its turn. While a whole request waits in the buffer the socket is watched for room to
    /// write, which (level-triggered) brings the connection back on the next turn.
    private func handle(_ ready: EventLoop.Interest) {
        let sending = state.withLock { !$0.output.isEmpty }
        if !sending {
            guard readAvailable() else { return }
        }
        guard flush() else { return }
        if state.withLock({ $0.output.isEmpty }), answerNextRequest() {
            guard flush() else { return }
        }
        guard !isClosed else { return }
        let pending = state.withLock { !$0.output.isEmpty } || hasWaitingRequest
        watch(state.withLock { $0.tlsWants } ?? (pending ? .writable : .readable))
        // The first byte of a request may have brought the deadline forward.
        armTimer()
    }

    /// Whether the buffer holds a whole request (or one to refuse) that waits for its turn.
    private var hasWaitingRequest: Bool {
        let (input, authenticating) = state.withLock { ($0.input, $0.isAuthenticating) }
        guard !input.isEmpty, !authenticating else { return false }
        if case .incomplete = HTTPRequestParser.parse(input, limits: limits) { return false }
        return true
    }

    /// Reads until the socket is drained or the buffer is full; false when the connection closed.
    private func readAvailable() -> Bool {
        let capacity = limits.headBytes + limits.bodyBytes
        var chunk = [UInt8](repeating: 0, count: 16_384)
        for _ in 0..<8 {
            let room = capacity - state.withLock { $0.input.count }
            // A full buffer is left to the parser, which refuses what is that long.
            guard room > 0 else { return true }
            let wanted = min(room, chunk.count)
            let count: Int
            switch transport.receive(into: &chunk, count: wanted) {
            case .done(let received): count = received
            case .notReady(let interest):
                state.withLock { $0.tlsWants = interest == .readable ? nil : interest }
                return true
            case .failed(let reason):
                close(reason: reason)
                return false
            }
            state.withLock { $0.tlsWants = nil }
            if count > 0 {
                state.withLock { state in
                    if state.phase == .idle {
                        state.phase = .receiving
                        state.phaseStart = .now
                        state.deadline = .now + configuration.requestTimeout
                    }
                    state.input += chunk[0..<count]
                }
                // Drained, unless TLS holds decrypted bytes that no readiness of the socket would announce.
                if count < wanted && !transport.hasBufferedInput { return true }
                continue
            }
            let partial = state.withLock { !$0.input.isEmpty }
            close(reason: partial ? "it closed the connection in the middle of a request" : nil)
            return false
        }
        return true
    }

    /// Parses the buffered input and queues the response to one request; false when there is nothing to answer.
    private func answerNextRequest() -> Bool {
        let input = state.withLock { $0.input }
        guard !input.isEmpty else { return false }
        switch HTTPRequestParser.parse(input, limits: limits) {
        case .incomplete:
            return false
        case .request(let request, let consumed):
            guard let verdict = authenticate(request) else { return false }
            let (response, includeBody) =
                switch verdict {
                case .allowed: respond(to: request)
                case .refused: (Self.unauthorized, request.method != "HEAD")
                case .busy: (HTTPResponse(status: 503, body: "too many authentication checks in progress\n"), true)
                }
            if verdict != .allowed {
                log("metrics server: answered \(response.status) to \(peer) (no valid basic-auth credentials)")
            }
            let keepAlive = request.keepsAlive && verdict != .busy
            state.withLock { state in
                // A stop() on another thread may have emptied the buffers meanwhile.
                guard !state.isClosed else { return }
                state.input.removeFirst(min(consumed, state.input.count))
                state.output = response.serialized(keepAlive: keepAlive, includeBody: includeBody)
                state.closeAfterOutput = !keepAlive
                state.phase = .sending
                state.phaseStart = .now
                state.deadline = .now + configuration.requestTimeout
            }
            return true
        case .failure(let failure):
            let detail: String
            if case .malformed(let what) = failure {
                detail = what
            } else {
                detail = HTTPResponse.reason(failure.status)
            }
            let response = HTTPResponse(status: failure.status, body: detail + "\n")
            state.withLock { state in
                guard !state.isClosed else { return }
                state.input = []
                state.output = response.serialized(keepAlive: false, includeBody: true)
                state.closeAfterOutput = true
                state.phase = .sending
                state.phaseStart = .now
                state.deadline = .now + configuration.requestTimeout
            }
            log("metrics server: answered \(failure.status) to \(peer) (\(detail)) and closed the connection")
            return true
        }
    }

    /// The response to a parsed request, and whether its body is sent (not for `HEAD`).
    private func respond(to request: HTTPRequest) -> (HTTPResponse, Bool) {
        let isHead = request.method == "HEAD"
        guard request.method == "GET" || isHead else {
            let response = HTTPResponse(
                status: 405, headers: [("Allow", "GET, HEAD")], body: "only GET and HEAD are served\n")
            return (response, true)
        }
        if request.path == "/" {
            return (HTTPResponse(status: 200, contentType: "text/html; charset=utf-8", body: Self.landingPage), !isHead)
        }
        guard request.path == "/metrics" else {
            return (HTTPResponse(status: 404, body: "not found; the metrics are at /metrics\n"), !isHead)
        }
        var response = HTTPResponse(
            status: 200, contentType: ExpositionFormat.contentType, headers: [("Vary", "Accept-Encoding")],
            body: exporter.render())
        // Compressed when asked (Prometheus asks): this machine's full exposition went from 16,608 bytes to 3,756.
        if Gzip.isAccepted(by: request.header("Accept-Encoding")), let compressed = Gzip.compress(response.body) {
            response.body = compressed
            response.headers.append(("Content-Encoding", "gzip"))
        }
        return (response, !isHead)
    }

    /// The verdict on the request's credentials: `.allowed` without an authenticator; nil while a check runs on the
    /// worker thread (the connection then waits, reading nothing, until ``authenticated(_:)`` brings it back).
    private func authenticate(_ request: HTTPRequest) -> BasicAuthenticator.Verdict? {
        guard let authenticator else { return .allowed }
        let decided = state.withLock { state -> BasicAuthenticator.Verdict?? in
            if state.isAuthenticating { return .some(nil) }
            defer { state.verdict = nil }
            return state.verdict.map { .some($0) } ?? .none
        }
        if case .some(let verdict) = decided { return verdict }
        state.withLock { $0.isAuthenticating = true }
        let immediate = authenticator.check(request.header("Authorization")) { [weak self] verdict in
            self?.authenticated(verdict)
        }
        guard let immediate else { return nil }
        state.withLock { $0.isAuthenticating = false }
        return immediate
    }

    /// Takes a worker thread's verdict and answers the request on the loop thread.
    ///
    /// The turn is scheduled and kept under the lock `close(reason:)` takes: kept only after scheduling, the turn could
    /// run and be answering before it was kept, and a close in that gap returned without waiting for it.
    private func authenticated(_ verdict: BasicAuthenticator.Verdict) {
        state.withLock { state in
            state.isAuthenticating = false
            state.verdict = verdict
            guard !state.isClosed else { return }
            // The loop never takes this lock while holding its own, so scheduling under it cannot deadlock.
            state.resumption = try? eventLoop.schedule(after: .zero) { [weak self] in
                guard let self, !self.isClosed else { return }
                self.handle([])
            }
        }
    }

    /// The answer to a request without valid credentials, as the exporter toolkit gives it.
    static let unauthorized = HTTPResponse(
        status: 401, headers: [("WWW-Authenticate", "Basic")], body: "Unauthorized\n")

    /// What `/` shows, as node_exporter's landing page does: what this is and where the metrics are.
    static let landingPage = """
        <!DOCTYPE html>
        <html lang="en">
        <head><meta charset="utf-8"><title>Vigil metrics</title></head>
        <body>
        <h1>Vigil metrics</h1>
        <p>Prometheus metrics of this machine's sensors and kernel sources, from Vigil.</p>
        <p><a href="/metrics">Metrics</a></p>
        </body>
        </html>

        """

    /// Writes pending output until done or the socket is full; false when the connection closed.
    private func flush() -> Bool {
        while true {
            let output = state.withLock { $0.output }
            if output.isEmpty { return true }
            let sent: Int
            switch transport.transmit(output[...]) {
            case .done(let count):
                sent = count
                state.withLock { $0.tlsWants = nil }
            case .notReady(let interest):
                // Writes wait for a writable socket anyway; only TLS asking to read first needs saying.
                state.withLock { $0.tlsWants = interest == .writable ? nil : interest }
                sent = 0
            case .failed(let reason):
                close(reason: "it went away before reading its response (\(reason))")
                return false
            }
            if sent == 0 { return true }
            let finished = state.withLock { state -> Bool in
                guard !state.isClosed else { return false }
                state.output.removeFirst(min(sent, state.output.count))
                guard state.output.isEmpty else { return false }
                state.phase = state.input.isEmpty ? .idle : .receiving
                state.phaseStart = .now
                state.deadline =
                    .now + (state.phase == .idle ? configuration.idleTimeout : configuration.requestTimeout)
                return true
            }
            if finished {
                if state.withLock({ $0.closeAfterOutput }) {
                    close(reason: nil)
                    return false
                }
                // A whole pipelined request waiting means the next answer waits for room to write, which comes only
                // as the client reads what was written: the kernel may have taken a whole response the client has
                // not read. That is the response's deadline, not the request's (which would blame a complete
                // request for being incomplete).
                if hasWaitingRequest {
                    state.withLock { state in
                        if state.phase == .receiving { state.phase = .sending }
                    }
                }
                armTimer()
                return true
            }
        }
    }

    /// Watches the socket for `interest`: registers it the first time, then changes the registration's interest in place.
    private func watch(_ interest: EventLoop.Interest) {
        let current = state.withLock { state -> EventLoop.Registration?? in
            guard !state.isClosed, state.watching != interest else { return .none }
            if state.registration == nil { state.isRegistering = true }
            state.watching = interest
            return .some(state.registration)
        }
        guard case .some(let registered) = current else { return }
        // A registered socket changes its interest in place: the registration stays the connection's, so a close
        // from another thread always finds it, and its cancel waits for a handler running on the loop.
        if let registered {
            do throws(SensorError) {
                try registered.setInterest(interest)
            } catch {
                close(reason: "cannot watch the socket: \(error)")
            }
            return
        }
        let registration: EventLoop.Registration?
        let failure: SensorError?
        do {
            registration = try eventLoop.register(fileDescriptor: transport.socket.rawValue, interest: interest) {
                [weak self] ready in
                self?.handle(ready)
            }
            failure = nil
        } catch {
            (registration, failure) = (nil, error)
        }
        let (keep, closesSocket) = state.withLock { state -> (Bool, Bool) in
            state.isRegistering = false
            guard !state.isClosed else {
                defer { state.socketLeftToWatch = false }
                return (false, state.socketLeftToWatch)
            }
            state.registration = registration
            if registration == nil { state.watching = [] }
            return (registration != nil, false)
        }
        if !keep {
            registration?.cancel()
            if closesSocket { transport.close() }
        }
        if let failure {
            close(reason: "cannot watch the socket: \(failure)")
            return
        }
        if keep { armTimer() }
    }

    /// Makes sure a timer fires by the current deadline.
    private func armTimer() {
        let (deadline, stale) = state.withLock { state -> (ContinuousClock.Instant?, EventLoop.Registration?) in
            guard !state.isClosed else { return (nil, nil) }
            if let armed = state.timerDeadline, armed <= state.deadline, state.timer != nil { return (nil, nil) }
            defer {
                state.timer = nil
                state.timerDeadline = nil
            }
            return (state.deadline, state.timer)
        }
        stale?.cancel()
        guard let deadline else { return }
        let timer = try? eventLoop.schedule(after: deadline - .now) { [weak self] in self?.timerFired() }
        let keep = state.withLock { state in
            guard !state.isClosed, state.timer == nil else { return false }
            state.timer = timer
            state.timerDeadline = deadline
            return true
        }
        if !keep { timer?.cancel() }
    }

    /// Closes the connection when its deadline has passed, or re-arms for the later deadline.
    private func timerFired() {
        let expired = state.withLock { state -> Phase? in
            state.timer = nil
            state.timerDeadline = nil
            // The whole request is in while its credentials are checked, and while the verdict waits for its turn
            // of the loop: the time the check waits for the worker (a bounded queue) and the answer waits for the
            // loop is the server's, so the deadline moves on rather than close the client.
            if state.isAuthenticating || state.verdict != nil {
                state.deadline = .now + configuration.requestTimeout
                return nil
            }
            return state.isClosed || ContinuousClock.now < state.deadline ? nil : state.phase
        }
        switch expired {
        case nil:
            armTimer()
        case .idle:
            close(reason: nil)
        case .receiving:
            close(reason: "no complete request within \(configuration.requestTimeout) of its first byte")
        case .sending:
            close(reason: "its response was not read within \(configuration.requestTimeout)")
        }
    }
}
