import Synchronization

extension ObservableType {
    /// Delivers the first `count` values, then finishes and disposes the upstream subscription.
    ///
    /// With a `count` of zero or less it finishes at once.
    public func take(_ count: Int) -> Observable<Element> {
        Observable { delivery, onNext, onCompletion in
            guard count > 0 else {
                let relay = PublishSubject<Element>()
                relay.complete()
                return relay.subscribe(on: delivery, onNext: onNext, onCompletion: onCompletion)
            }
            let remaining = LockedValue(count)
            let upstream = UpstreamSlot()
            let subscription = self.subscribe(
                on: delivery,
                onNext: { value in
                    let left = remaining.withLock { remaining -> Int in
                        remaining -= 1
                        return remaining
                    }
                    guard left >= 0 else { return }
                    onNext(value)
                    if left == 0 {
                        onCompletion(.finished)
                        upstream.finish()
                    }
                },
                onCompletion: { completion in
                    if remaining.withLock({ $0 > 0 }) { onCompletion(completion) }
                }
            )
            upstream.attach(subscription)
            return subscription
        }
    }
}

/// Lets an operator dispose its own upstream subscription from inside a callback, even one that arrives before
/// `subscribe` has returned (a behavior subject's replay), without keeping it alive.
final class UpstreamSlot: Sendable {
    private struct State {
        weak var subscription: Subscription?
        var isFinished = false
    }

    private let state = Mutex(State())

    /// Records the upstream subscription; disposes it at once if the operator already finished.
    func attach(_ subscription: Subscription) {
        let finished = state.withLock { state -> Bool in
            state.subscription = subscription
            return state.isFinished
        }
        if finished { subscription.dispose() }
    }

    /// Marks the operator finished and disposes the upstream subscription if it is known yet.
    func finish() {
        let subscription = state.withLock { state -> Subscription? in
            state.isFinished = true
            return state.subscription
        }
        subscription?.dispose()
    }
}
