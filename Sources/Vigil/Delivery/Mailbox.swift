import Dispatch
import Synchronization

/// A subscriber's mailbox: values wait here until the subscriber's queue (or actor) delivers them.
///
/// It sits between the last operator and the subscriber's callbacks, so operators see every value and only what
/// they emit is buffered. Publishing appends under a short lock and schedules one drain on the queue if none is
/// scheduled. With ``BufferPolicy/unbounded`` the drain takes everything pending at once and delivers it outside the
/// lock, so a burst costs one `async`; with a bounded policy it takes one value at a time, so the mailbox never
/// holds more than the policy's bound plus the value being delivered. The drain runs on the ``MailboxExecutor``: a
/// serial queue, the main actor or another actor, all serial, so drains never overlap.
@usableFromInline
final class Mailbox<Element: Sendable>: Sendable {
    @usableFromInline
    struct State {
        @usableFromInline var pending = PendingQueue<Element>()
        @usableFromInline var onNext: (@Sendable (Element) -> Void)?
        @usableFromInline var onCompletion: (@Sendable (Completion) -> Void)?
        @usableFromInline var completion: Completion?
        @usableFromInline var isScheduled = false
        @usableFromInline var isClosed = false

        @inlinable
        init(onNext: (@Sendable (Element) -> Void)?, onCompletion: (@Sendable (Completion) -> Void)?) {
            self.onNext = onNext
            self.onCompletion = onCompletion
        }
    }

    /// The most values one drain delivers before it yields the queue to other work and reschedules itself.
    @inlinable
    static var drainLimit: Int { 4096 }

    @usableFromInline let executor: MailboxExecutor
    @usableFromInline let policy: BufferPolicy
    @usableFromInline let state: FutexMutex<State>
    /// Set once the subscriber is disposed; read by the drain before each callback.
    @usableFromInline let isCancelled = Atomic<Bool>(false)
    /// The thread running the drain (0 when none), for ``awaitCallbacks()``.
    @usableFromInline let drainingThread = Atomic<UInt>(0)
    /// Advanced after each callback and at the end of each drain.
    @usableFromInline let progress = ProgressWord()
    /// Whether this mailbox relies on `membarrier(2)` (see ``CrossThreadFence``).
    @usableFromInline let asymmetric = CrossThreadFence.isAsymmetric

    @inlinable
    init(
        executor: MailboxExecutor,
        policy: BufferPolicy,
        onNext: @escaping @Sendable (Element) -> Void,
        onCompletion: @escaping @Sendable (Completion) -> Void
    ) {
        self.executor = executor
        self.policy = policy
        self.state = FutexMutex(State(onNext: onNext, onCompletion: onCompletion))
    }

    /// Adds a value by the buffer policy and makes sure a drain is scheduled.
    @inlinable
    func push(_ value: Element) {
        let mustSchedule = state.withLock { state -> Bool in
            guard !state.isClosed, state.completion == nil else { return false }
            switch policy {
            case .unbounded:
                state.pending.append(value)
            case .latest:
                state.pending.removeAll()
                state.pending.append(value)
            case .newest(let limit):
                if state.pending.count >= max(limit, 1) { state.pending.dropFirst() }
                state.pending.append(value)
            case .oldest(let limit):
                guard state.pending.count < max(limit, 1) else { return false }
                state.pending.append(value)
            }
            return Self.claimSchedule(&state)
        }
        if mustSchedule { schedule() }
    }

    /// Queues the completion behind the pending values.
    @inlinable
    func complete(_ completion: Completion) {
        let mustSchedule = state.withLock { state -> Bool in
            guard !state.isClosed, state.completion == nil else { return false }
            state.completion = completion
            return Self.claimSchedule(&state)
        }
        if mustSchedule { schedule() }
    }

    /// Drops pending values and the closures; no callback starts after this returns. Never waits.
    @inlinable
    func cancel() {
        isCancelled.store(true, ordering: .sequentiallyConsistent)
        let released = state.withLock { state -> Released in
            state.isClosed = true
            state.pending.removeAll()
            let released = Released(onNext: state.onNext, onCompletion: state.onCompletion)
            state.onNext = nil
            state.onCompletion = nil
            return released
        }
        withExtendedLifetime(released) {}
    }

    /// Waits until a callback running on another thread has returned; call after ``cancel()``.
    ///
    /// The count is read before the draining thread: read after, a drain that ended in between (its last advance
    /// already counted) would leave this waiting for an advance that no drain of a cancelled mailbox makes. Read
    /// before, every drain seen running ends with an advance past it.
    @inlinable
    func awaitCallbacks() {
        let me = currentThreadID()
        progress.register(asymmetric: asymmetric)
        defer { progress.unregister() }
        let seen = progress.count
        let draining = drainingThread.load(ordering: .acquiring)
        guard draining != 0, draining != me else { return }
        _ = progress.sleep(until: { progress.count != seen })
    }

    /// The closures a cancel takes out of the lock, so that releasing them (which may run deinit code) happens after.
    @usableFromInline
    struct Released {
        @usableFromInline let onNext: (@Sendable (Element) -> Void)?
        @usableFromInline let onCompletion: (@Sendable (Completion) -> Void)?

        @inlinable
        init(onNext: (@Sendable (Element) -> Void)?, onCompletion: (@Sendable (Completion) -> Void)?) {
            self.onNext = onNext
            self.onCompletion = onCompletion
        }
    }

    @inlinable
    static func claimSchedule(_ state: inout State) -> Bool {
        guard !state.isScheduled else { return false }
        state.isScheduled = true
        return true
    }

    @inlinable
    func schedule() {
        switch executor {
        case .queue(let queue): queue.async { self.drain() }
        case .mainActor: Task { @MainActor in self.drain() }
        case .actor(let actor): Task { await self.drain(isolatedTo: actor) }
        }
    }

    /// Drains on `actor`: the task hops there, and the drain runs to its end without suspending, so it is serial.
    @usableFromInline
    func drain(isolatedTo actor: isolated any Actor) {
        drain()
    }
}
