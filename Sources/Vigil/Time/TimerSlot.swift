/// The one pending timer of a time-based operator's subscription: a task sleeping on the operator's clock.
///
/// Arming replaces (and cancels) the previous task; closing cancels the pending one and every one armed later, so
/// a timer armed while the subscription is being disposed on another thread never outlives it. Tasks are cancelled
/// outside the lock: cancelling runs the clock's cancellation handler, which takes the clock's own lock.
final class TimerSlot: Sendable {
    private struct State {
        var task: Task<Void, Never>?
        var isClosed = false
    }

    private let state = FutexMutex(State())

    /// Makes `task` the pending timer, cancelling the previous one (or `task` itself once closed).
    func arm(_ task: Task<Void, Never>) {
        let cancelled = state.withLock { state -> Task<Void, Never>? in
            guard !state.isClosed else { return task }
            defer { state.task = task }
            return state.task
        }
        cancelled?.cancel()
    }

    /// Cancels the pending timer, if any.
    func cancel() {
        state.withLock { state in
            defer { state.task = nil }
            return state.task
        }?.cancel()
    }

    /// Cancels the pending timer and every timer armed from now on.
    func close() {
        state.withLock { state in
            state.isClosed = true
            defer { state.task = nil }
            return state.task
        }?.cancel()
    }
}
