import Vigil

/// What a netlink source adds to the ``NetlinkDriver``: its socket, what it does when a socket opens, and how it reads.
///
/// Called by the driver never under a lock: ``openSocket()`` and ``socketOpened(_:generation:isStart:)`` on the
/// starting thread (or the loop thread for a reopen), ``drain(_:into:generation:)`` on the loop thread.
protocol NetlinkDriven: AnyObject, Sendable {
    /// Opens a socket joined to the source's groups, in its namespace.
    func openSocket() throws(SensorError) -> NetlinkSocket
    /// `socket` is open for `generation`'s run and about to be registered: install per-socket state, send the first
    /// requests. `isStart` is true for the socket of a start, false for a reopen after a failure.
    func socketOpened(_ socket: NetlinkSocket, generation: UInt64, isStart: Bool) throws(SensorError)
    /// Reads what is pending and publishes what it means; throws the socket's error.
    func drain(_ socket: NetlinkSocket, into buffer: inout [UInt8], generation: UInt64) throws(SensorError)
    /// The socket failed with `error` and is reopened after `delay`: publish why, in-band.
    func socketFailed(_ error: SensorError, retryingIn delay: Duration)
    /// A socket reopened after a failure is registered (events may have been lost meanwhile).
    func socketReopened(generation: UInt64)
}

/// The netlink driver shared by ``NetworkMonitor`` and ``DeviceMonitor``: claim, rollback, generation, stop and
/// release of one netlink socket on the event loop, and recovery from a failed socket (close it, say why, reopen
/// after a delay that doubles up to 30 s), so a source is its parsing and its model.
///
/// A start that cannot open or register its socket throws and leaves nothing behind. After that, a socket error
/// (from ``NetlinkDriven/drain(_:into:generation:)``, a send, or ``fail(_:generation:error:)``) ends the socket's
/// generation: its registration, socket and timers are released, the source says why, and a new socket is opened
/// under a new generation, so work begun for the failed socket does nothing.
final class NetlinkDriver: Sendable {
    private struct State {
        var socket: NetlinkSocket?
        /// The generation the socket belongs to.
        var socketGeneration: UInt64 = 0
        var registration: EventLoop.Registration?
        /// One-shot timers (dump watchdogs, the reopen) by generation, each list cancelled when its generation ends;
        /// fired ones are pruned as new ones come, so a long run keeps only the pending ones. Kept apart because a
        /// timer of an ended generation can arrive after the next generation's (a caller racing the loop thread).
        var timers: [UInt64: [EventLoop.Registration]] = [:]
        var backoff = RetryBackoff()
        /// The receive buffer, taken out by the loop thread while it reads.
        var buffer: [UInt8]
        /// An error the next read reports instead of reading (``simulateSocketError(_:for:)``).
        var injectedError: Errno?
    }

    let loop: EventLoop
    private let lifecycle = Lifecycle()
    private let bufferSize: Int
    private let state: FutexMutex<State>

    /// - Parameters:
    ///   - loop: The loop that watches the socket and runs the timers.
    ///   - bufferSize: The receive buffer's size in bytes.
    init(loop: EventLoop, bufferSize: Int) {
        self.loop = loop
        self.bufferSize = bufferSize
        state = FutexMutex(State(buffer: [UInt8](repeating: 0, count: bufferSize)))
    }

    /// Whether a run is claimed (also while the socket waits to be reopened).
    var isRunning: Bool { lifecycle.isRunning }

    /// The open socket and its generation, when one is open.
    var current: (socket: NetlinkSocket, generation: UInt64)? {
        state.withLock { state in state.socket.map { ($0, state.socketGeneration) } }
    }

    /// The driver's registrations with the loop (the socket and pending timers).
    var registrations: [EventLoop.Registration] {
        state.withLock { state in
            (state.registration.map { [$0] } ?? []) + state.timers.values.joined().filter { !$0.isCancelled }
        }
    }

    /// Opens the socket and registers it; concurrent calls start once.
    ///
    /// - Throws: The ``SensorError`` of the socket, the namespace or the loop; the driver is then stopped.
    func start(_ source: some NetlinkDriven) throws(SensorError) {
        try lifecycle.start { (generation) throws(SensorError) in
            state.withLock { $0.backoff.reset() }
            try open(source, generation: generation, isStart: true)
        }
    }

    /// Closes the socket and cancels every timer; nothing of the run is called back afterwards.
    func stop() { lifecycle.stop() }

    /// Calls `refresh` after every wake from a suspend while `generation`'s socket is open (see ``WakeWatch``).
    func refreshAfterWake(generation: UInt64, _ refresh: @escaping @Sendable () -> Void) {
        lifecycle.refreshAfterWake(on: loop, generation: generation, refresh)
    }

    /// Restarts the backoff after a success (a dump completed, a socket reopened).
    func succeeded() { state.withLock { $0.backoff.reset() } }

    /// Keeps a one-shot `timer` of `generation`, cancelled when that generation ends (at once if it has), and never
    /// with another generation's timers.
    func addTimer(_ timer: EventLoop.Registration, generation: UInt64) {
        let first = state.withLock { state -> Bool in
            let pending = state.timers[generation]?.filter { !$0.isCancelled }
            state.timers[generation] = (pending ?? []) + [timer]
            return pending == nil
        }
        // The first timer of a generation hands its list to the lifecycle; a later one joins a list whose release is
        // kept (or running, and takes the list under the lock after this timer joined it).
        if first { lifecycle.keep(generation) { [weak self] in self?.cancelTimers(of: generation) } }
    }

    /// Ends `generation`'s socket after `error`: releases it, lets the source say why, and reopens after a delay.
    func fail(_ source: some NetlinkDriven, generation: UInt64, error: SensorError) {
        guard let next = lifecycle.restart(generation) else { return }
        scheduleReopen(source, generation: next, after: error)
    }

    /// Makes the next read fail with `errno`, as if `recvmsg(2)` had, so tests can watch a source recover.
    func simulateSocketError(_ errno: Errno, for source: some NetlinkDriven) {
        let generation = state.withLock { state -> UInt64? in
            guard state.socket != nil else { return nil }
            state.injectedError = errno
            return state.socketGeneration
        }
        guard let generation else { return }
        do throws(SensorError) {
            let timer = try loop.schedule(after: .zero) { [weak self, weak source] in
                guard let self, let source else { return }
                self.readable(source, generation: generation)
            }
            addTimer(timer, generation: generation)
        } catch {
            fail(source, generation: generation, error: error)
        }
    }

    /// Opens a socket for `generation`, lets the source prepare it, and registers it; `generation`'s end releases it.
    private func open(_ source: some NetlinkDriven, generation: UInt64, isStart: Bool) throws(SensorError) {
        let socket = try source.openSocket()
        let registration: EventLoop.Registration
        do {
            try source.socketOpened(socket, generation: generation, isStart: isStart)
            registration = try loop.register(fileDescriptor: socket.rawValue, interest: .readable) {
                [weak self, weak source] _ in
                guard let self, let source else { return }
                self.readable(source, generation: generation)
            }
        } catch {
            socket.close()
            throw error
        }
        state.withLock { state in
            state.socket = socket
            state.socketGeneration = generation
            state.registration = registration
        }
        lifecycle.keep(generation) { [weak self] in
            registration.cancel()
            socket.close()
            self?.forget(socket)
        }
    }

    /// Forgets `socket`, whose generation ended.
    private func forget(_ socket: NetlinkSocket) {
        state.withLock { state in
            guard state.socket === socket else { return }
            state.socket = nil
            state.registration = nil
            state.injectedError = nil
        }
    }

    /// Cancels the pending timers of `generation`, which ended.
    private func cancelTimers(of generation: UInt64) {
        let timers = state.withLock { $0.timers.removeValue(forKey: generation) ?? [] }
        for timer in timers { timer.cancel() }
    }

    /// Reads what is pending through the source, outside the lock, and fails the socket on an error.
    private func readable(_ source: some NetlinkDriven, generation: UInt64) {
        let taken = state.withLock { state -> (NetlinkSocket, [UInt8], Errno?)? in
            guard let socket = state.socket, state.socketGeneration == generation else { return nil }
            defer {
                state.buffer = []
                state.injectedError = nil
            }
            return (socket, state.buffer, state.injectedError)
        }
        guard let (socket, taken, injected) = taken else { return }
        var buffer = taken.isEmpty ? [UInt8](repeating: 0, count: bufferSize) : taken
        var failure: SensorError?
        do throws(SensorError) {
            if let injected { throw SensorError.from(injected, call: "recvmsg", path: socket.target) }
            try source.drain(socket, into: &buffer, generation: generation)
        } catch {
            failure = error
        }
        let restored = buffer
        state.withLock { $0.buffer = restored }
        if let failure { fail(source, generation: generation, error: failure) }
    }

    /// Lets the source say why, and reopens for `generation` after a delay that doubles with each failure in a row.
    private func scheduleReopen(_ source: some NetlinkDriven, generation: UInt64, after error: SensorError) {
        guard lifecycle.isCurrent(generation) else { return }
        let delay = state.withLock { $0.backoff.take() }
        source.socketFailed(error, retryingIn: delay)
        do throws(SensorError) {
            let timer = try loop.schedule(after: delay) { [weak self, weak source] in
                guard let self, let source else { return }
                self.reopen(source, generation: generation)
            }
            addTimer(timer, generation: generation)
        } catch {
            // The loop cannot make timers (it was shut down): the source stays unavailable with the original error.
        }
    }

    private func reopen(_ source: some NetlinkDriven, generation: UInt64) {
        guard lifecycle.isCurrent(generation) else { return }
        do throws(SensorError) {
            try open(source, generation: generation, isStart: false)
        } catch {
            scheduleReopen(source, generation: generation, after: error)
            return
        }
        source.socketReopened(generation: generation)
    }
}
