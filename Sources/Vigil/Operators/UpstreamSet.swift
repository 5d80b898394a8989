/// The upstream subscriptions of one operator subscription, disposed together the moment the operator terminates.
///
/// An operator may terminate from inside a callback that arrives before `subscribe` has returned (a behavior
/// subject's replay): a subscription added after termination is disposed at once.
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
            if !state.isTerminated { state.subscriptions.append(subscription) }
            return state.isTerminated
        }
        if terminated { subscription.dispose() }
    }

    /// Terminates: disposes every upstream subscription now, without waiting.
    @inlinable
    func dispose() {
        for subscription in take() { subscription.dispose() }
    }

    /// Disposes every upstream subscription and waits for their running callbacks.
    @inlinable
    func disposeAndWait() {
        for subscription in take() { subscription.disposeAndWait() }
    }

    @inlinable
    var isDisposed: Bool {
        state.withLock { $0.isTerminated }
    }

    @inlinable
    func take() -> [Subscription] {
        state.withLock { state in
            state.isTerminated = true
            defer { state.subscriptions = [] }
            return state.subscriptions
        }
    }
}
