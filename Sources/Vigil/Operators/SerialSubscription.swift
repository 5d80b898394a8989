/// One upstream subscription at a time, replaced as an operator moves on: `catch` to its fallback, `retry` to a new
/// attempt, `flatMapLatest` to the newest inner stream.
///
/// Each replacement starts a generation and disposes the subscription it replaces. A subscription made for a
/// generation that has since been replaced (its source ended before `subscribe` returned, say) is disposed when it
/// is stored instead of overwriting the newer one; after ``dispose()`` every stored subscription is disposed at once.
///
/// For ``disposeAndWait()`` it keeps, disposed, the subscription that termination disposed and the one replaced
/// last: a replacement runs inside a callback of the one it replaces (a failure, a new outer value), which may still
/// be running on another thread. Two at most, however often it is replaced.
final class SerialSubscription: Disposable {
    private struct State {
        var current: Subscription?
        /// The subscription replaced last, kept disposed for ``disposeAndWait()``.
        var replaced: Subscription?
        var generation = 0
        /// A generation whose stream ended before its subscription was stored.
        var endedEarly: Int?
        var isDisposed = false
    }

    private let state = FutexMutex(State())

    /// Keeps `subscription` as the current one if `generation` is still the newest and its stream has not ended;
    /// otherwise disposes it now.
    func store(_ subscription: Subscription, generation: Int) {
        let kept = state.withLock { state -> Bool in
            guard !state.isDisposed, state.generation == generation, state.endedEarly != generation else {
                state.replaced = subscription
                return false
            }
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
            state.endedEarly = nil
            if let current = state.current { state.replaced = current }
            defer { state.current = nil }
            return (state.current, state.generation)
        }
        replaced?.dispose()
        return generation
    }

    /// The stream of `generation` ended: disposes its subscription now, or as soon as it is stored.
    func end(_ generation: Int) {
        let ended = state.withLock { state -> Subscription? in
            guard !state.isDisposed, state.generation == generation else { return nil }
            guard let current = state.current else {
                state.endedEarly = generation
                return nil
            }
            state.replaced = current
            state.current = nil
            return current
        }
        ended?.dispose()
    }

    /// Disposes the current subscription and every one stored later, without waiting.
    func dispose() {
        take()?.dispose()
    }

    /// Disposes the current subscription, then waits for the callbacks of it and of the one replaced last that are
    /// running on other threads.
    func disposeAndWait() {
        take()?.dispose()
        let (current, replaced) = state.withLock { ($0.current, $0.replaced) }
        current?.disposeAndWait()
        replaced?.disposeAndWait()
    }

    var isDisposed: Bool {
        state.withLock { $0.isDisposed }
    }

    /// Marks this disposed; returns the current subscription, which stays kept for ``disposeAndWait()``.
    private func take() -> Subscription? {
        state.withLock { state in
            guard !state.isDisposed else { return nil }
            state.isDisposed = true
            return state.current
        }
    }
}
