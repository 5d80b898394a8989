/// The upstream subscriptions of one operator subscription, disposed together the moment the operator terminates.
///
/// An operator may terminate from inside a callback that arrives before `subscribe` has returned (a behavior
/// subject's replay): a subscription added after termination is disposed at once.
///
/// Terminating disposes the subscriptions but keeps them, disposed, so that a later ``disposeAndWait()`` can still
/// wait for a callback of theirs running on another thread: the operator's own termination and the user's
/// `dispose()` both come before the wait. A disposed subscription holds none of the subscriber's closures, and
/// the set holds no more subscriptions than the operator added.
@usableFromInline
final class UpstreamSet: Disposable {
    @usableFromInline
    struct State {
        @usableFromInline var subscriptions: [Subscription] = []
        @usableFromInline var isTerminated = false

        @inlinable
        init() {}
    }

    @usableFromInline let state = FutexMutex(State())

    @inlinable
    init() {}

    /// Keeps `subscription` until termination; disposes it at once if the operator already terminated.
    @inlinable
    func add(_ subscription: Subscription) {
        let terminated = state.withLock { state -> Bool in
            state.subscriptions.append(subscription)
            return state.isTerminated
        }
        if terminated { subscription.dispose() }
    }

    /// Terminates: disposes every upstream subscription now, without waiting.
    @inlinable
    func dispose() {
        for subscription in terminate() { subscription.dispose() }
    }

    /// Disposes every upstream subscription, then waits for the callbacks of each (also of those disposed by an
    /// earlier termination) that are running on other threads.
    @inlinable
    func disposeAndWait() {
        for subscription in terminate() { subscription.dispose() }
        for subscription in state.withLock({ $0.subscriptions }) { subscription.disposeAndWait() }
    }

    @inlinable
    var isDisposed: Bool {
        state.withLock { $0.isTerminated }
    }

    /// Marks the set terminated; returns the subscriptions to dispose (none the second time).
    @inlinable
    func terminate() -> [Subscription] {
        state.withLock { state in
            guard !state.isTerminated else { return [] }
            state.isTerminated = true
            return state.subscriptions
        }
    }
}
