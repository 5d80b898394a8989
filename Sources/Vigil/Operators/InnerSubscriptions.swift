/// The inner subscriptions of one `flatMap` subscription, by number: each is disposed when its stream ends, and all
/// of them the moment the operator terminates.
///
/// A subscription added after termination is disposed at once, like ``UpstreamSet``'s.
final class InnerSubscriptions: Disposable {
    private struct State {
        var subscriptions: [Int: Subscription] = [:]
        var isTerminated = false
    }

    private let state = FutexMutex(State())

    /// Keeps `subscription` under `key` until it is removed or the operator terminates.
    func add(_ subscription: Subscription, key: Int) {
        let terminated = state.withLock { state -> Bool in
            if !state.isTerminated { state.subscriptions[key] = subscription }
            return state.isTerminated
        }
        if terminated { subscription.dispose() }
    }

    /// Disposes the subscription under `key`, if any, releasing what it holds.
    func remove(_ key: Int) {
        let removed = state.withLock { $0.subscriptions.removeValue(forKey: key) }
        removed?.dispose()
    }

    /// Terminates: disposes every inner subscription now, without waiting.
    func dispose() {
        for subscription in take() { subscription.dispose() }
    }

    /// Disposes every inner subscription and waits for their running callbacks.
    func disposeAndWait() {
        for subscription in take() { subscription.disposeAndWait() }
    }

    var isDisposed: Bool {
        state.withLock { $0.isTerminated }
    }

    private func take() -> [Subscription] {
        state.withLock { state in
            state.isTerminated = true
            defer { state.subscriptions = [:] }
            return Array(state.subscriptions.values)
        }
    }
}
