import CLinuxSupport
import Dispatch
import Glibc
import Synchronization
import Vigil

/// The one thread that waits on every descriptor and timer of every source.
///
/// It is an epoll loop rather than Dispatch sources: epoll reports `EPOLLPRI` (sysfs attributes that notify), which
/// `DispatchSource` cannot watch, it gives one thread and one total order of handlers for the whole process, and an
/// idle loop sleeps in `epoll_wait(2)` without any timer, so it burns no CPU. Timers are `timerfd`s on the same epoll
/// set; an `eventfd` wakes the thread for ``shutdown()``.
///
/// The thread starts lazily with the first registration. `register(fileDescriptor:interest:handler:)` and
/// `Registration.cancel()` (package API) are safe from any thread, including from inside a handler. Handlers run one at a time
/// on the loop thread, never under a lock of the loop; keep them short (read, parse, publish) and non-blocking.
public final class EventLoop: Sendable {
    /// The process-wide loop every source uses by default.
    public static let shared = EventLoop()

    private struct Entry {
        let fileDescriptor: Int32
        let handler: @Sendable (Interest) -> Void
        let oneShot: Bool
        let ownedDescriptor: FileDescriptor?
    }

    private struct State {
        var epoll: FileDescriptor?
        var wake: FileDescriptor?
        var isShutDown = false
        var entries: [UInt64: Entry] = [:]
        var nextToken: UInt64 = 1
        /// The token whose handler is running on the loop thread.
        var running: UInt64?
        /// Threads in ``unregister(_:)`` waiting for `running` to finish.
        var waiters: [DispatchSemaphore] = []
    }

    private static let wakeToken: UInt64 = 0
    private static let batchSize = 64
    /// The loop thread's name, as shown in `/proc/self/task/*/comm` and by debuggers.
    package static let threadName = "vigil-loop"

    private let state = FutexMutex(State())
    /// `pthread_self()` of the loop thread, 0 before it starts.
    private let loopThread = Atomic<UInt>(0)

    /// Creates a loop of its own, with its own thread once something is registered.
    ///
    /// Sources use ``shared``; a private loop is for code that must not share the thread (for example a test that
    /// blocks a handler on purpose). Call ``shutdown()`` to end its thread.
    public init() {}

    /// Watches `fileDescriptor` and calls `handler` on the loop thread whenever it is ready.
    ///
    /// The descriptor is watched level-triggered: the handler must read what is pending (or cancel), or it is called
    /// again at once. The caller keeps owning the descriptor and closes it after ``Registration/cancel()`` returns.
    ///
    /// - Parameters:
    ///   - fileDescriptor: An open descriptor, preferably non-blocking.
    ///   - interest: ``Interest/readable``, ``Interest/priority`` or both.
    ///   - handler: Called on the loop thread with what is ready; never under a lock.
    /// - Returns: The registration; keep it and cancel it to stop watching.
    /// - Throws: ``SensorError/systemCall(name:target:errno:)`` if epoll refuses the descriptor, or
    ///   ``SensorError/unavailable(source:reason:)`` after ``shutdown()``.
    package func register(
        fileDescriptor: Int32, interest: Interest, handler: @escaping @Sendable (Interest) -> Void
    ) throws(SensorError) -> Registration {
        try add(fileDescriptor: fileDescriptor, interest: interest, owning: nil, oneShot: false, handler: handler)
    }

    /// Ends the loop thread and closes its descriptors; later registrations throw.
    ///
    /// Registered handlers are dropped without being called again. Do not shut down ``shared``.
    public func shutdown() {
        let wake: Int32? = state.withLock { state in
            guard !state.isShutDown else { return nil }
            state.isShutDown = true
            return state.wake?.rawValue
        }
        if let wake {
            var one: UInt64 = 1
            _ = withUnsafeBytes(of: &one) { write(wake, $0.baseAddress, 8) }
        }
    }

    func add(
        fileDescriptor: Int32, interest: Interest, owning owned: FileDescriptor?, oneShot: Bool,
        handler: @escaping @Sendable (Interest) -> Void
    ) throws(SensorError) -> Registration {
        let target = "descriptor \(fileDescriptor)"
        let result: Result<UInt64, SensorError> = state.withLock { state in
            if state.isShutDown { return .failure(.unavailable(source: "event loop", reason: "it was shut down")) }
            do throws(Errno) {
                let epoll = try startIfNeeded(&state)
                let token = state.nextToken
                try Epoll.add(epoll, fileDescriptor: fileDescriptor, events: interest.epollEvents, token: token)
                state.nextToken += 1
                state.entries[token] = Entry(
                    fileDescriptor: fileDescriptor, handler: handler, oneShot: oneShot, ownedDescriptor: owned)
                return .success(token)
            } catch {
                return .failure(.systemCall(name: "epoll_ctl", target: target, errno: error))
            }
        }
        switch result {
        case .success(let token):
            return Registration(loop: self, token: token, ownedDescriptor: owned)
        case .failure(let error):
            owned?.close()
            throw error
        }
    }

    /// Watches `token`'s descriptor for `interest` from now on; does nothing once it is unregistered.
    func modify(_ token: UInt64, interest: Interest) throws(SensorError) {
        let failure: Errno? = state.withLock { state in
            guard let entry = state.entries[token], let epoll = state.epoll else { return nil }
            do throws(Errno) {
                try Epoll.modify(
                    epoll.rawValue, fileDescriptor: entry.fileDescriptor, events: interest.epollEvents, token: token)
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw .systemCall(name: "epoll_ctl", target: "registration \(token)", errno: failure) }
    }

    func isRegistered(_ token: UInt64) -> Bool {
        state.withLock { $0.entries[token] != nil }
    }

    /// How many descriptors and timers are registered, so tests can check that a source leaves none behind.
    package var registrationCount: Int { state.withLock { $0.entries.count } }

    /// Removes `token`; waits for its running handler unless called on the loop thread.
    func unregister(_ token: UInt64) {
        let onLoopThread = pthread_self() == loopThread.load(ordering: .acquiring)
        let waiter: DispatchSemaphore? = state.withLock { state in
            if let entry = state.entries.removeValue(forKey: token), let epoll = state.epoll {
                try? Epoll.remove(epoll.rawValue, fileDescriptor: entry.fileDescriptor)
            }
            guard state.running == token, !onLoopThread else { return nil }
            let semaphore = DispatchSemaphore(value: 0)
            state.waiters.append(semaphore)
            return semaphore
        }
        waiter?.wait()
    }

    /// Creates the epoll set and the thread on first use; returns the epoll descriptor.
    private func startIfNeeded(_ state: inout State) throws(Errno) -> Int32 {
        if let epoll = state.epoll { return epoll.rawValue }
        let epoll = try Epoll.create()
        let wake = try Epoll.eventFileDescriptor()
        try Epoll.add(epoll.rawValue, fileDescriptor: wake.rawValue, events: vigil_epollin(), token: Self.wakeToken)
        let context = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        let created = pthread_create(
            &thread, nil,
            { context in
                let loop = Unmanaged<EventLoop>.fromOpaque(context!).takeRetainedValue()
                loop.run()
                return nil
            }, context)
        guard created == 0 else {
            Unmanaged<EventLoop>.fromOpaque(context).release()
            throw Errno(rawValue: created)
        }
        pthread_detach(thread)
        state.epoll = epoll
        state.wake = wake
        return epoll.rawValue
    }

    private func run() {
        loopThread.store(pthread_self(), ordering: .releasing)
        _ = vigil_set_thread_name(Self.threadName)
        guard let (epoll, wake) = state.withLock({ state in state.epoll.map { ($0.rawValue, state.wake!.rawValue) } })
        else { return }
        var events = [epoll_event](repeating: epoll_event(), count: Self.batchSize)
        while true {
            let count = events.withUnsafeMutableBufferPointer { buffer in
                epoll_wait(epoll, buffer.baseAddress, Int32(buffer.count), -1)
            }
            if count < 0 {
                precondition(Errno.current == .interrupted, "epoll_wait failed: \(Errno.current)")
                continue
            }
            for index in 0..<Int(count) {
                let token = events[index].data.u64
                if token == Self.wakeToken {
                    Epoll.drainCounter(wake)
                    if finishIfShutDown() { return }
                } else {
                    dispatch(token, ready: Interest(epollEvents: events[index].events))
                }
            }
        }
    }

    private func dispatch(_ token: UInt64, ready: Interest) {
        let handler: (@Sendable (Interest) -> Void)? = state.withLock { state in
            guard let entry = state.entries[token] else { return nil }
            state.running = token
            return entry.handler
        }
        guard let handler else { return }
        handler(ready)
        let (waiters, finishedOneShot) = state.withLock { state in
            state.running = nil
            let waiters = state.waiters
            state.waiters.removeAll()
            var finished: Entry?
            if let entry = state.entries[token], entry.oneShot {
                finished = state.entries.removeValue(forKey: token)
                if let epoll = state.epoll { try? Epoll.remove(epoll.rawValue, fileDescriptor: entry.fileDescriptor) }
            }
            return (waiters, finished)
        }
        finishedOneShot?.ownedDescriptor?.close()
        for waiter in waiters { waiter.signal() }
    }

    /// After ``shutdown()``: drops every entry, closes the loop's descriptors and returns true.
    private func finishIfShutDown() -> Bool {
        let closing: [FileDescriptor]? = state.withLock { state in
            guard state.isShutDown else { return nil }
            let owned = state.entries.values.compactMap(\.ownedDescriptor)
            state.entries.removeAll()
            let loopDescriptors = [state.epoll, state.wake].compactMap { $0 }
            state.epoll = nil
            state.wake = nil
            return owned + loopDescriptors
        }
        guard let closing else { return false }
        for descriptor in closing { descriptor.close() }
        return true
    }
}
