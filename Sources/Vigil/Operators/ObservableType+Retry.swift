extension ObservableType {
    /// On failure, subscribes to this stream again, up to `retries` times; the failure after the last retry is
    /// delivered.
    ///
    /// Each attempt's values pass through, so a stream that fails after some values delivers them again on the next
    /// attempt. The failed subscription is disposed before the next one is made. A stream that fails inside
    /// `subscribe` (``Observable/fail(_:)``) is retried in a loop, not by recursion, so a large count cannot
    /// overflow the stack. Disposing the subscription disposes the current attempt.
    ///
    /// A subject retried directly (`subject.retry(n)`, or `subject.asObservable().retry(n)`) is held weakly: when
    /// it is released, its `.finished` reaches the subscriber as it would without `retry`. A chain of operators
    /// is held as it is, for as long as the subscription lives, since every retry subscribes to it again; so a
    /// subject behind `subject.map(f).retry(n)` stays alive until that subscription ends.
    ///
    /// Combine: `retry(_:)`, with the same count. RxSwift's `retry(_:)` counts the first attempt too: its
    /// `retry(n)` is this `retry(n - 1)`.
    ///
    /// - Parameter retries: How many times to subscribe again after a failure; 0 or less passes the first failure on.
    /// - Returns: The values of every attempt, then the completion of the last one.
    public func retry(_ retries: Int) -> Observable<Element> {
        Observable.lifting { target in
            let source = asObservable()
            let attempts = RetryAttempts(source: source.weaklyHeld?() ?? source, target: target, retries: retries)
            attempts.subscribe()
            return [attempts.current]
        }
    }
}

/// The attempts of one `retry` subscription.
final class RetryAttempts<Element: Sendable>: Sendable {
    let current = SerialSubscription()
    private let source: Observable<Element>
    private let target: DeliveryTarget<Element>
    /// Locked: an attempt's failure may arrive on another thread while `subscribe()` is still subscribing it.
    private let state: FutexMutex<RetryState>

    init(source: Observable<Element>, target: DeliveryTarget<Element>, retries: Int) {
        self.source = source
        self.target = target
        state = FutexMutex(RetryState(remaining: max(retries, 0)))
    }

    /// Subscribes, and again for each failure that asked for a retry while this call was subscribing.
    func subscribe() {
        repeat {
            guard let generation = current.advance() else { return }
            state.withLock { $0.isSubscribing = true }
            let subscription = source.subscribe(
                on: .immediate, onNext: target.onNext, onCompletion: { self.handle($0) })
            current.store(subscription, generation: generation)
        } while state.withLock { $0.endSubscribing() }
    }

    private func handle(_ completion: Completion) {
        switch state.withLock({ $0.decide(completion) }) {
        case .deliver:
            target.onCompletion(completion)
            current.dispose()
        case .retryNow:
            subscribe()
        case .retryLater:
            break
        }
    }
}

/// retry's decisions: how many retries are left, and whether a retry must wait for the running `subscribe` call.
struct RetryState: Sendable {
    enum Decision {
        case deliver
        case retryNow
        case retryLater
    }

    var remaining: Int
    var isSubscribing = false
    private var retryRequested = false

    init(remaining: Int) {
        self.remaining = remaining
    }

    mutating func decide(_ completion: Completion) -> Decision {
        guard case .failed = completion, remaining > 0 else { return .deliver }
        remaining -= 1
        guard isSubscribing else { return .retryNow }
        retryRequested = true
        return .retryLater
    }

    /// Ends one `subscribe` call; returns whether a failure during it asked for another attempt.
    mutating func endSubscribing() -> Bool {
        isSubscribing = false
        defer { retryRequested = false }
        return retryRequested
    }
}
