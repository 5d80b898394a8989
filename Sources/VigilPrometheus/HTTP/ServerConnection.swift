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
    }

    private let socket: FileDescriptor
    private let peer: String
    private let configuration: MetricsServer.Configuration
    private let limits: HTTPRequestParser.Limits
    private let eventLoop: EventLoop
    private let exporter: MetricsExporter
    private let log: @Sendable (String) -> Void
    private let onClose: @Sendable (ServerConnection) -> Void
    private let state: FutexMutex<State>

    init(
        socket: FileDescriptor, peer: String, configuration: MetricsServer.Configuration, eventLoop: EventLoop,
        exporter: MetricsExporter, log: @escaping @Sendable (String) -> Void,
        onClose: @escaping @Sendable (ServerConnection) -> Void
    ) {
        self.socket = socket
        self.peer = peer
        self.configuration = configuration
        self.limits = HTTPRequestParser.Limits(headBytes: configuration.maximumHeaderBytes)
        self.eventLoop = eventLoop
        self.exporter = exporter
        self.log = log
        self.onClose = onClose
        state = FutexMutex(State(deadline: .now + configuration.idleTimeout))
    }

    /// Starts watching the socket and the idle deadline.
    func open() {
        watch(.readable)
        armTimer()
    }

    /// Closes the socket and stops watching it; `reason`, when given, is logged. Later calls do nothing.
    func close(reason: String?) {
        typealias Closing = (registration: EventLoop.Registration?, timer: EventLoop.Registration?, closesSocket: Bool)
        let closing = state.withLock { state -> Closing? in
            guard !state.isClosed else { return nil }
            state.isClosed = true
            state.socketLeftToWatch = state.isRegistering
            defer {
                state.registration = nil
                state.timer = nil
                state.input = []
                state.output = []
            }
            return (state.registration, state.timer, !state.isRegistering)
        }
        guard let (registration, timer, closesSocket) = closing else { return }
        registration?.cancel()
        timer?.cancel()
        // Said before the socket closes, so a client that sees the close finds the line already written.
        if let reason { log("metrics server: dropped the connection from \(peer): \(reason)") }
        if closesSocket { _ = socket.close() }
        onClose(self)
    }

    private var isClosed: Bool { state.withLock { $0.isClosed } }

    /// Handles readiness: reads what arrived, answers complete requests, writes what is pending.
    private func handle(_ ready: EventLoop.Interest) {
        let sending = state.withLock { !$0.output.isEmpty }
        if !sending {
            guard readAvailable() else { return }
        }
        while !isClosed {
            guard flush() else { return }
            guard state.withLock({ $0.output.isEmpty }) else { break }
            guard answerNextRequest() else { break }
        }
        guard !isClosed else { return }
        let pending = state.withLock { !$0.output.isEmpty }
        watch(pending ? .writable : .readable)
        // The first byte of a request may have brought the deadline forward.
        armTimer()
    }

    /// Reads until the socket is drained or the buffer is full; false when the connection closed.
    private func readAvailable() -> Bool {
        let capacity = limits.headBytes + limits.bodyBytes
        var chunk = [UInt8](repeating: 0, count: 16_384)
        for _ in 0..<8 {
            let room = capacity - state.withLock { $0.input.count }
            // A full buffer is left to the parser, which refuses what is that long.
            guard room > 0 else { return true }
            let fd = socket.rawValue
            let count: Int
            do {
                count = try retryingOnInterrupt("recv") {
                    chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, min(room, $0.count), 0) }
                }
            } catch .wouldBlock {
                return true
            } catch {
                close(reason: "read failed: \(error)")
                return false
            }
            if count > 0 {
                state.withLock { state in
                    if state.phase == .idle {
                        state.phase = .receiving
                        state.deadline = .now + configuration.requestTimeout
                    }
                    state.input += chunk[0..<count]
                }
                if count < min(room, chunk.count) { return true }
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
            let (response, includeBody) = respond(to: request)
            let keepAlive = request.keepsAlive
            state.withLock { state in
                // A stop() on another thread may have emptied the buffers meanwhile.
                guard !state.isClosed else { return }
                state.input.removeFirst(min(consumed, state.input.count))
                state.output = response.serialized(keepAlive: keepAlive, includeBody: includeBody)
                state.closeAfterOutput = !keepAlive
                state.phase = .sending
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
        guard request.path == "/metrics" else {
            return (HTTPResponse(status: 404, body: "not found; the metrics are at /metrics\n"), !isHead)
        }
        let body = exporter.render()
        return (HTTPResponse(status: 200, contentType: ExpositionFormat.contentType, body: body), !isHead)
    }

    /// Writes pending output until done or the socket is full; false when the connection closed.
    private func flush() -> Bool {
        while true {
            let output = state.withLock { $0.output }
            if output.isEmpty { return true }
            let sent: Int
            do {
                sent = try socket.send(fully: output[...])
            } catch {
                close(reason: "it went away before reading its response (\(error))")
                return false
            }
            if sent == 0 { return true }
            let finished = state.withLock { state -> Bool in
                guard !state.isClosed else { return false }
                state.output.removeFirst(min(sent, state.output.count))
                guard state.output.isEmpty else { return false }
                state.phase = state.input.isEmpty ? .idle : .receiving
                state.deadline =
                    .now + (state.phase == .idle ? configuration.idleTimeout : configuration.requestTimeout)
                return true
            }
            if finished {
                if state.withLock({ $0.closeAfterOutput }) {
                    close(reason: nil)
                    return false
                }
                armTimer()
                return true
            }
        }
    }

    /// Watches the socket for `interest`, replacing the registration when the interest changes.
    private func watch(_ interest: EventLoop.Interest) {
        let old = state.withLock { state -> EventLoop.Registration?? in
            guard !state.isClosed, state.watching != interest else { return .none }
            state.isRegistering = true
            defer {
                state.registration = nil
                state.watching = []
            }
            return .some(state.registration)
        }
        guard case .some(let previous) = old else { return }
        previous?.cancel()
        let registration: EventLoop.Registration?
        let failure: SensorError?
        do {
            registration = try eventLoop.register(fileDescriptor: socket.rawValue, interest: interest) {
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
            state.watching = registration == nil ? [] : interest
            return (registration != nil, false)
        }
        if !keep {
            registration?.cancel()
            if closesSocket { _ = socket.close() }
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
