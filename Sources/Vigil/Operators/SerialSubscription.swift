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
@usableFromInline
final class SerialSubscription: Disposable {
    private struct State {
        var current: Subscription?
        /// The subscription replaced last, kept disposed for ``disposeAndWait()``.
        var replaced: Subscription?
        var generation = 0
        /// A generation whose stream ended before its subscription was stored.
        var endedEarly: Int?
        var isDisposed = false

        /// Keeps `subscription` as the one replaced last; returns the one it displaces, to be released after the
        /// lock (releasing may run deinit code).
        mutating func keep(replaced subscription: Subscription) -> Subscription? {
            defer { replaced = subscription }
            return replaced
        }
    }

    private let state = FutexMutex(State())

    @usableFromInline
    init() {}

    /// Keeps `subscription` as the current one if `generation` is still the newest and its stream has not ended;
    /// otherwise disposes it now.
    @usableFromInline
    func store(_ subscription: Subscription, generation: Int) {
        let (kept, dropped) = state.withLock { state -> (Bool, Subscription?) in
            guard !state.isDisposed, state.generation == generation, state.endedEarly != generation else {
                return (false, state.keep(replaced: subscription))
            }
            state.current = subscription
            return (true, nil)
        }
        if !kept { subscription.dispose() }
        withExtendedLifetime(dropped) {}
    }

    /// Starts a new generation and disposes the current subscription; returns the generation to store under, or
    /// nil once disposed.
    @usableFromInline
    func advance() -> Int? {
        let (replaced, dropped, generation) = state.withLock { state -> (Subscription?, Subscription?, Int?) in
            guard !state.isDisposed else { return (nil, nil, nil) }
            state.generation += 1
            state.endedEarly = nil
            guard let current = state.current else { return (nil, nil, state.generation) }
            state.current = nil
            return (current, state.keep(replaced: current), state.generation)
        }
        replaced?.dispose()
        withExtendedLifetime(dropped) {}
        return generation
    }

    /// The stream of `generation` ended: disposes its subscription now, or as soon as it is stored.
    @usableFromInline
    func end(_ generation: Int) {
        let (ended, dropped) = state.withLock { state -> (Subscription?, Subscription?) in
            guard !state.isDisposed, state.generation == generation else { return (nil, nil) }
            guard let current = state.current else {
                state.endedEarly = generation
                return (nil, nil)
            }
            state.current = nil
            return (current, state.keep(replaced: current))
        }
        ended?.dispose()
        withExtendedLifetime(dropped) {}
    }

    /// Disposes the current subscription and every one stored later, without waiting.
    @usableFromInline
    func dispose() {
        take()?.dispose()
    }

    /// Disposes the current subscription, then waits for the callbacks of it and of the one replaced last that are
    /// running on other threads.
    @usableFromInline
    func disposeAndWait() {
        take()?.dispose()
        let (current, replaced) = state.withLock { ($0.current, $0.replaced) }
        current?.disposeAndWait()
        replaced?.disposeAndWait()
    }

    @usableFromInline
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
