import Dispatch
import Synchronization

/// A queue subscriber's mailbox: values wait here until the subscriber's queue delivers them, in batches.
///
/// Publishing appends under a short lock and schedules one drain on the queue if none is scheduled; the drain takes
/// everything pending at once and delivers it outside the lock, so a burst of values costs one `async`, not one each.
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

    @usableFromInline let queue: DispatchQueue
    @usableFromInline let policy: BufferPolicy
    @usableFromInline let state: Mutex<State>
    /// Set once the subscriber is disposed; read by the drain before each callback.
    @usableFromInline let isCancelled = Atomic<Bool>(false)
    /// True while the drain is deciding on or running a callback; a disposer on another thread waits for false.
    @usableFromInline let isCalling = Atomic<Bool>(false)
    /// The thread running the drain, so a dispose from inside the callback does not wait for itself.
    @usableFromInline let drainingThread = Atomic<UInt>(0)

    @inlinable
    init(
        queue: DispatchQueue,
        policy: BufferPolicy,
        onNext: @escaping @Sendable (Element) -> Void,
        onCompletion: @escaping @Sendable (Completion) -> Void
    ) {
        self.queue = queue
        self.policy = policy
        self.state = Mutex(State(onNext: onNext, onCompletion: onCompletion))
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

    /// Drops pending values and the closures; once it returns, no callback starts, and one that was running on
    /// another thread has returned.
    @inlinable
    func cancel() {
        isCancelled.store(true, ordering: .sequentiallyConsistent)
        let (released, wasScheduled) = state.withLock { state -> (Released, Bool) in
            state.isClosed = true
            state.pending.removeAll()
            let released = Released(onNext: state.onNext, onCompletion: state.onCompletion)
            state.onNext = nil
            state.onCompletion = nil
            return (released, state.isScheduled)
        }
        if wasScheduled && drainingThread.load(ordering: .acquiring) != currentThreadID() {
            CrossThreadFence.synchronize()
            CrossThreadFence.wait { !isCalling.load(ordering: .acquiring) }
        }
        withExtendedLifetime(released) {}
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
        queue.async { self.drain() }
    }

    @inlinable
    func drain() {
        drainingThread.store(currentThreadID(), ordering: .releasing)
        defer { drainingThread.store(0, ordering: .releasing) }
        var batch: [Element] = []
        var delivered = 0
        while true {
            let step = state.withLock { state -> DrainStep in
                if state.isClosed {
                    state.isScheduled = false
                    return .stop
                }
                if !state.pending.isEmpty, let onNext = state.onNext {
                    if delivered >= Self.drainLimit { return .reschedule }
                    state.pending.moveAll(into: &batch)
                    return .values(onNext)
                }
                if let completion = state.completion, let onCompletion = state.onCompletion {
                    state.isClosed = true
                    state.isScheduled = false
                    state.onNext = nil
                    state.onCompletion = nil
                    return .complete(completion, onCompletion)
                }
                state.isScheduled = false
                return .stop
            }
            switch step {
            case .stop:
                return
            case .reschedule:
                schedule()
                return
            case .values(let onNext):
                for value in batch {
                    isCalling.store(true, ordering: .releasing)
                    atomicMemoryFence(ordering: .acquiringAndReleasing)
                    if isCancelled.load(ordering: .acquiring) { break }
                    onNext(value)
                }
                isCalling.store(false, ordering: .releasing)
                delivered += batch.count
            case .complete(let completion, let onCompletion):
                isCalling.store(true, ordering: .releasing)
                atomicMemoryFence(ordering: .acquiringAndReleasing)
                if !isCancelled.load(ordering: .acquiring) { onCompletion(completion) }
                isCalling.store(false, ordering: .releasing)
                return
            }
        }
    }

    @usableFromInline
    enum DrainStep {
        case stop
        case reschedule
        case values(@Sendable (Element) -> Void)
        case complete(Completion, @Sendable (Completion) -> Void)
    }
}
