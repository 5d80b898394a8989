import CLinuxSupport
import Dispatch
import Glibc
import Synchronization
import Vigil

/// The one thread that waits on every descriptor and timer of every source.
///
/// It is an epoll loop rather than Dispatch sources: epoll reports `EPOLLPRI` (sysfs attributes that notify), which
/// `DispatchSource` cannot watch, it gives one thread and one total order of handlers for the whole process, and an
/// idle loop sleeps in `epoll_wait(2)` without any timer, so it burns no CPU. An `eventfd` wakes the thread for
/// ``shutdown()``.
///
/// Timers are deadlines in a heap on the loop's clock, as in SwiftNIO's selector: on `ContinuousClock` (the default)
/// or `SuspendingClock` one `timerfd` on the same epoll set is armed for the earliest deadline, so fifty polled
/// sources need one timer descriptor, not fifty. On any other clock (a test's `ManualClock`) a task sleeps on the
/// clock until the earliest deadline and then wakes the thread; advancing a `ManualClock` runs the timers due, on the
/// loop thread as always, and the advance returns once they have run.
///
/// The thread starts lazily with the first registration. `register(fileDescriptor:interest:handler:)`,
/// `schedule(every:handler:)` and `Registration.cancel()` (package API) are safe from any thread, including from
/// inside a handler. Handlers run one at a time on the loop thread, never under a lock of the loop; keep them short
/// (read, parse, publish) and non-blocking.
public final class EventLoop: Sendable {
    /// The process-wide loop every source uses by default, on `ContinuousClock`.
    public static let shared = EventLoop()

    /// What a registration watches.
    enum Kind {
        case descriptor(Int32)
        /// A timer; `period` is nil for a one-shot timer.
        case timer(period: Duration?)
    }

    private struct Entry {
        let kind: Kind
        let handler: @Sendable (Interest) -> Void
    }

    private struct State {
        var epoll: FileDescriptor?
        var wake: FileDescriptor?
        /// The one timer descriptor (kernel clocks only), armed for the earliest deadline.
        var timer: FileDescriptor?
        var isShutDown = false
        var entries: [UInt64: Entry] = [:]
        var deadlines = DeadlineHeap()
        /// The deadline the timer descriptor or the sleeper is armed for; nil when neither is known to be.
        var armed: Duration?
        /// On a clock the kernel cannot follow: the task sleeping on it until `armed`.
        var sleeper: Task<Void, Never>?
        /// Sleepers on a tracking clock that woke and whose due timers have not run yet.
        var unsettled = 0
        var nextToken: UInt64 = 2
        /// The token whose handler is running on the loop thread.
        var running: UInt64?
        /// Threads in ``unregister(_:)`` waiting for `running` to finish.
        var waiters: [DispatchSemaphore] = []
    }

    private static let wakeToken: UInt64 = 0
    private static let timerToken: UInt64 = 1
    private static let batchSize = 64
    /// The loop thread's name, as shown in `/proc/self/task/*/comm` and by debuggers.
    package static let threadName = "vigil-loop"

    private let state = FutexMutex(State())
    private let clock: LoopClock
    /// Notices wakes from a suspend for the sources on this loop that re-read after one (see ``WakeWatch``).
    package let wakeWatch = WakeWatch()
    /// `pthread_self()` of the loop thread, 0 before it starts.
    private let loopThread = Atomic<UInt>(0)

    /// Creates a loop of its own, with its own thread once something is registered.
    ///
    /// Sources use ``shared``; a private loop is for code that must not share the thread (for example a test that
    /// blocks a handler on purpose) or that runs its timers on another clock. Call ``shutdown()`` to end its thread.
    ///
    /// - Parameter clock: The clock that measures every timer of the loop: `ContinuousClock` by default (which keeps
    ///   counting while the machine sleeps), `SuspendingClock`, or a manual clock in tests (VigilTesting's
    ///   `ManualClock`), on which timers fire only as the test advances it.
    public init(clock: some Clock<Duration> = ContinuousClock()) {
        self.clock = LoopClock(clock)
    }

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
        try add(.descriptor(fileDescriptor), interest: interest, handler: handler)
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
        if let wake { Self.signal(wake) }
    }

    /// Adds a descriptor (watched for `interest`) or a timer (first due `delay` from now).
    func add(
        _ kind: Kind, interest: Interest = [], delay: Duration = .zero,
        handler: @escaping @Sendable (Interest) -> Void
    ) throws(SensorError) -> Registration {
        let target: String
        switch kind {
        case .descriptor(let fileDescriptor): target = "descriptor \(fileDescriptor)"
        case .timer: target = "event loop timer"
        }
        let result: Result<(UInt64, Task<Void, Never>?), SensorError> = state.withLock { state in
            if state.isShutDown { return .failure(.unavailable(source: "event loop", reason: "it was shut down")) }
            do throws(Errno) {
                let epoll = try startIfNeeded(&state)
                let token = state.nextToken
                var replaced: Task<Void, Never>?
                switch kind {
                case .descriptor(let fileDescriptor):
                    try Epoll.add(epoll, fileDescriptor: fileDescriptor, events: interest.epollEvents, token: token)
                case .timer:
                    state.deadlines.insert(token, deadline: clock.now() + delay)
                    replaced = try arm(&state, replacing: false)
                }
                state.nextToken += 1
                state.entries[token] = Entry(kind: kind, handler: handler)
                return .success((token, replaced))
            } catch {
                state.deadlines.remove(state.nextToken)
                let call = if case .timer = kind { "timerfd_settime" } else { "epoll_ctl" }
                return .failure(.systemCall(name: call, target: target, errno: error))
            }
        }
        switch result {
        case .success(let (token, replaced)):
            replaced?.cancel()
            return Registration(loop: self, token: token)
        case .failure(let error):
            throw error
        }
    }

    /// Watches `token`'s descriptor for `interest` from now on; does nothing once it is unregistered, or for a timer.
    func modify(_ token: UInt64, interest: Interest) throws(SensorError) {
        let failure: Errno? = state.withLock { state in
            guard case .descriptor(let fileDescriptor) = state.entries[token]?.kind, let epoll = state.epoll else {
                return nil
            }
            do throws(Errno) {
                try Epoll.modify(
                    epoll.rawValue, fileDescriptor: fileDescriptor, events: interest.epollEvents, token: token)
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

    /// Removes `token` (its descriptor from the epoll set, or its deadline from the heap); waits for its running
    /// handler unless called on the loop thread.
    func unregister(_ token: UInt64) {
        let onLoopThread = pthread_self() == loopThread.load(ordering: .acquiring)
        let (waiter, replaced) = state.withLock { state -> (DispatchSemaphore?, Task<Void, Never>?) in
            var replaced: Task<Void, Never>?
            switch state.entries.removeValue(forKey: token)?.kind {
            case .descriptor(let fileDescriptor):
                if let epoll = state.epoll { try? Epoll.remove(epoll.rawValue, fileDescriptor: fileDescriptor) }
            case .timer:
                // Re-armed for the next deadline (or disarmed), so a cancelled timer never wakes the loop.
                state.deadlines.remove(token)
                replaced = try? arm(&state, replacing: true)
            case nil:
                break
            }
            guard state.running == token, !onLoopThread else { return (nil, replaced) }
            let semaphore = DispatchSemaphore(value: 0)
            state.waiters.append(semaphore)
            return (semaphore, replaced)
        }
        replaced?.cancel()
        waiter?.wait()
    }

    /// Creates the epoll set, the timer descriptor (on a kernel clock) and the thread on first use; returns the epoll
    /// descriptor.
    private func startIfNeeded(_ state: inout State) throws(Errno) -> Int32 {
        if let epoll = state.epoll { return epoll.rawValue }
        let epoll = try Epoll.create()
        let wake = try Epoll.eventFileDescriptor()
        try Epoll.add(epoll.rawValue, fileDescriptor: wake.rawValue, events: vigil_epollin(), token: Self.wakeToken)
        var timer: FileDescriptor?
        if let kernelClock = clock.kernelClock {
            let descriptor = try Epoll.timer(clock: kernelClock)
            try Epoll.add(
                epoll.rawValue, fileDescriptor: descriptor.rawValue, events: vigil_epollin(), token: Self.timerToken)
            timer = descriptor
        }
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
        state.timer = timer
        return epoll.rawValue
    }

    private func run() {
        loopThread.store(pthread_self(), ordering: .releasing)
        _ = vigil_set_thread_name(Self.threadName)
        guard let (epoll, wake) = state.withLock({ state in state.epoll.map { ($0.rawValue, state.wake!.rawValue) } })
        else { return }
        let timer = state.withLock { $0.timer?.rawValue }
        var events = [epoll_event](repeating: epoll_event(), count: Self.batchSize)
        while true {
            let count = events.withUnsafeMutableBufferPointer { buffer in
                epoll_wait(epoll, buffer.baseAddress, Int32(buffer.count), -1)
            }
            if count < 0 {
                precondition(Errno.current == .interrupted, "epoll_wait failed: \(Errno.current)")
                continue
            }
            var timersMayBeDue = false
            for index in 0..<Int(count) {
                let token = events[index].data.u64
                switch token {
                case Self.wakeToken:
                    Epoll.drainCounter(wake)
                    if finishIfShutDown() { return }
                    timersMayBeDue = true
                case Self.timerToken:
                    if let timer { Epoll.drainCounter(timer) }
                    timersMayBeDue = true
                default:
                    dispatch(token, ready: Interest(epollEvents: events[index].events))
                }
            }
            if timersMayBeDue { runDueTimers() }
        }
    }

    /// Runs the handler of `token` unless it was unregistered meanwhile; a one-shot timer is removed once it ran.
    private func dispatch(_ token: UInt64, ready: Interest) {
        let handler: (@Sendable (Interest) -> Void)? = state.withLock { state in
            guard let entry = state.entries[token] else { return nil }
            state.running = token
            return entry.handler
        }
        guard let handler else { return }
        handler(ready)
        let waiters = state.withLock { state in
            state.running = nil
            defer { state.waiters.removeAll() }
            if case .timer(period: nil) = state.entries[token]?.kind { state.entries[token] = nil }
            return state.waiters
        }
        for waiter in waiters { waiter.signal() }
    }

    /// Runs, in deadline order, the timers due now, then arms for the next deadline.
    ///
    /// A repeating timer that fell behind (a loop kept busy, a manual clock advanced by several periods) runs once,
    /// and its next deadline is one period after now: missed expiries are coalesced, never made up in a burst.
    private func runDueTimers() {
        let (due, settling) = state.withLock { state -> ([UInt64], Int) in
            let now = clock.now()
            var due: [UInt64] = []
            while let element = state.deadlines.popDue(at: now) {
                due.append(element.token)
                guard case .timer(let period?) = state.entries[element.token]?.kind else { continue }
                state.deadlines.insert(
                    element.token, deadline: Self.nextDeadline(after: element.deadline, period: period, now: now))
            }
            // The timer that woke the loop has fired: what was armed is no longer. (It is armed one-shot for each
            // earliest deadline, relative to now: a repeating kernel timer would keep the phase of the moment it was
            // armed, not of the deadlines, and drift from them.)
            state.armed = nil
            defer { state.unsettled = 0 }
            return (due, state.unsettled)
        }
        for token in due { dispatch(token, ready: .readable) }
        let replaced = state.withLock { state in try? arm(&state, replacing: true) }
        replaced?.cancel()
        for _ in 0..<settling { clock.tracking?.timerSettled() }
    }

    /// The deadline after `deadline` of a repeating timer running at `now`: one `period` later, or one `period`
    /// after `now` if that has passed already (missed expiries coalesced, the period kept from then on).
    static func nextDeadline(after deadline: Duration, period: Duration, now: Duration) -> Duration {
        let next = deadline + period
        return next > now ? next : now + period
    }

    /// Arms the timer descriptor (or, on another clock, a sleeping task) for the earliest deadline; returns the
    /// sleeper it replaced, to cancel after the lock.
    ///
    /// - Parameter replacing: False when a deadline was just added: arm only if it is earlier than what is armed.
    ///   True after timers ran: arm exactly for the earliest deadline, or disarm when there is none.
    private func arm(_ state: inout State, replacing: Bool) throws(Errno) -> Task<Void, Never>? {
        let earliest = state.deadlines.earliest?.deadline
        let needed: Bool
        if replacing {
            needed = earliest != state.armed
        } else if let earliest {
            needed = state.armed.map { earliest < $0 } ?? true
        } else {
            needed = false
        }
        guard needed else { return nil }
        if let timer = state.timer {
            try Epoll.arm(timer.rawValue, after: earliest.map { $0 - clock.now() })
            state.armed = earliest
            return nil
        }
        state.armed = earliest
        defer { state.sleeper = earliest.map(startSleeper(until:)) }
        return state.sleeper
    }

    /// A task that sleeps on the loop's clock until `deadline`, then wakes the loop thread to run the timers due.
    ///
    /// On a tracking clock the sleep is announced before the task starts and settled once the loop has run the
    /// timers, so that advancing a `ManualClock` returns only after the handlers it made due have run. The task runs
    /// on the sleepers' own thread (``SleeperExecutor``), never waiting for a thread of the shared pool.
    private func startSleeper(until deadline: Duration) -> Task<Void, Never> {
        let clock = clock
        clock.tracking?.timerArmed()
        return Task(executorPreference: SleeperExecutor.shared) { [weak self] in
            do {
                if clock.tracking != nil {
                    try await TimerTracking.$isTracked.withValue(true) { try await clock.sleep(deadline) }
                } else {
                    try await clock.sleep(deadline)
                }
            } catch {
                return
            }
            guard let self else {
                clock.tracking?.timerSettled()
                return
            }
            self.sleeperWoke()
        }
    }

    /// A sleeper reached its deadline: count it to settle, and wake the loop thread to run the timers due.
    private func sleeperWoke() {
        let wake: Int32? = state.withLock { state in
            guard !state.isShutDown, let wake = state.wake else { return nil }
            if clock.tracking != nil { state.unsettled += 1 }
            return wake.rawValue
        }
        guard let wake else {
            clock.tracking?.timerSettled()
            return
        }
        Self.signal(wake)
    }

    /// Adds one to the eventfd `wake`, waking the loop thread.
    private static func signal(_ wake: Int32) {
        var one: UInt64 = 1
        _ = withUnsafeBytes(of: &one) { write(wake, $0.baseAddress, 8) }
    }

    /// After ``shutdown()``: drops every entry, closes the loop's descriptors, settles woken sleepers and returns true.
    private func finishIfShutDown() -> Bool {
        let finished: (descriptors: [FileDescriptor], sleeper: Task<Void, Never>?, unsettled: Int)? =
            state.withLock { state in
                guard state.isShutDown else { return nil }
                state.entries.removeAll()
                state.deadlines = DeadlineHeap()
                let descriptors = [state.epoll, state.wake, state.timer].compactMap { $0 }
                defer {
                    state.epoll = nil
                    state.wake = nil
                    state.timer = nil
                    state.sleeper = nil
                    state.unsettled = 0
                }
                return (descriptors, state.sleeper, state.unsettled)
            }
        guard let finished else { return false }
        finished.sleeper?.cancel()
        for descriptor in finished.descriptors { descriptor.close() }
        for _ in 0..<finished.unsettled { clock.tracking?.timerSettled() }
        return true
    }
}
