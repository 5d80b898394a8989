/// The subscriptions of an operator's sources or inner streams, by key: each is disposed the moment its stream
/// ends, and all of them the moment the operator terminates.
///
/// A stream may end before its subscription is stored (it ended inside `subscribe`): its key is remembered, and the
/// subscription is disposed as soon as it arrives. A subscription added after termination is disposed at once.
/// Those live at termination are kept, disposed, so that ``disposeAndWait()`` can wait for a callback of theirs
/// still running on another thread; a stream that ended is forgotten, so the set never holds more than the streams
/// that were live at once.
@usableFromInline
final class InnerSubscriptions: Disposable {
    private struct State {
        var live: [Int: Subscription] = [:]
        /// Keys whose stream ended before its subscription was stored.
        var endedEarly: Set<Int> = []
        /// What termination disposed, kept for ``disposeAndWait()``.
        var retired: [Subscription] = []
        var isTerminated = false
    }

    private let state = FutexMutex(State())

    @usableFromInline
    init() {}

    /// Keeps `subscription` under `key` until its stream ends or the operator terminates.
    @usableFromInline
    func add(_ subscription: Subscription, key: Int) {
        let keep = state.withLock { state -> Bool in
            if state.endedEarly.remove(key) != nil { return false }
            if state.isTerminated {
                state.retired.append(subscription)
                return false
            }
            state.live[key] = subscription
            return true
        }
        if !keep { subscription.dispose() }
    }

    /// The stream under `key` ended: disposes its subscription now, or as soon as it is added.
    @usableFromInline
    func remove(_ key: Int) {
        let removed = state.withLock { state -> Subscription? in
            guard let removed = state.live.removeValue(forKey: key) else {
                if !state.isTerminated { state.endedEarly.insert(key) }
                return nil
            }
            return removed
        }
        removed?.dispose()
    }

    /// Terminates: disposes every live subscription now, without waiting.
    @usableFromInline
    func dispose() {
        for subscription in terminate() { subscription.dispose() }
    }

    /// Disposes every live subscription, then waits for the callbacks of each (also of those disposed by an
    /// earlier termination) running on other threads.
    @usableFromInline
    func disposeAndWait() {
        dispose()
        for subscription in state.withLock({ $0.retired }) { subscription.disposeAndWait() }
    }

    @usableFromInline
    var isDisposed: Bool {
        state.withLock { $0.isTerminated }
    }

    private func terminate() -> [Subscription] {
        state.withLock { state in
            guard !state.isTerminated else { return [] }
            state.isTerminated = true
            let live = Array(state.live.values)
            state.retired.append(contentsOf: live)
            state.live = [:]
            state.endedEarly = []
            return live
        }
    }
}

extension InnerSubscriptions {
    /// Subscribes to `source` immediately under `key`; when it ends, its subscription is disposed at once, on the
    /// thread that ended it and before `onCompletion` runs, so a finished source is released even while another
    /// thread is delivering the operator's output.
    @inlinable
    func subscribe<Source: ObservableType>(
        _ source: Source,
        key: Int,
        onNext: @escaping @Sendable (Source.Element) -> Void,
        onCompletion: @escaping @Sendable (Completion) -> Void
    ) {
        add(
            source.subscribe(
                on: .immediate,
                onNext: onNext,
                onCompletion: { completion in
                    self.remove(key)
                    onCompletion(completion)
                }
            ),
            key: key)
    }
}
