/// One upstream subscription at a time, replaced as an operator moves on: `catch` to its fallback, `retry` to a new
/// attempt, `flatMapLatest` to the newest inner stream.
///
/// Each replacement starts a generation and disposes the subscription it replaces. A subscription made for a
/// generation that has since been replaced (its source ended before `subscribe` returned, say) is disposed when it
/// is stored instead of overwriting the newer one; after ``dispose()`` every stored subscription is disposed at once.
final class SerialSubscription: Disposable {
    private struct State {
        var current: Subscription?
        var generation = 0
        var isDisposed = false
    }

    private let state = FutexMutex(State())

    /// Keeps `subscription` as the current one if `generation` is still the newest; otherwise disposes it now.
    func store(_ subscription: Subscription, generation: Int) {
        let kept = state.withLock { state -> Bool in
            guard !state.isDisposed, state.generation == generation else { return false }
            state.current = subscription
            return true
        }
        if !kept { subscription.dispose() }
    }

    /// Starts a new generation and disposes the current subscription; returns the generation to store under, or
    /// nil once disposed.
    func advance() -> Int? {
        let (replaced, generation) = state.withLock { state -> (Subscription?, Int?) in
            guard !state.isDisposed else { return (nil, nil) }
            state.generation += 1
            defer { state.current = nil }
            return (state.current, state.generation)
        }
        replaced?.dispose()
        return generation
    }

    /// Disposes the current subscription and every one stored later, without waiting.
    func dispose() {
        take()?.dispose()
    }

    /// Disposes the current subscription and waits for its callbacks running on other threads.
    func disposeAndWait() {
        take()?.disposeAndWait()
    }

    var isDisposed: Bool {
        state.withLock { $0.isDisposed }
    }

    private func take() -> Subscription? {
        state.withLock { state in
            state.isDisposed = true
            defer { state.current = nil }
            return state.current
        }
    }
}
