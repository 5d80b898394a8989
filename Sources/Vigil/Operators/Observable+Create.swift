extension Observable {
    /// An observable made from a function: `subscribe` runs `body` with an ``Observer`` to publish into, and `body`
    /// returns what stops the work it started (the teardown).
    ///
    /// ```swift
    /// let ticks = Observable<Int>.create { observer in
    ///     let timer = DispatchSource.makeTimerSource()
    ///     var count = 0
    ///     timer.setEventHandler { count += 1; observer.publish(count) }
    ///     timer.schedule(deadline: .now(), repeating: .seconds(1))
    ///     timer.resume()
    ///     return Subscription { timer.cancel() }
    /// }
    /// ```
    ///
    /// `body` runs once per subscription, on the subscribing thread. The teardown is disposed exactly once: after the
    /// completion reached the subscriber, or when the subscription is disposed, whichever comes first (if `body`
    /// completes before it returns, as soon as it returns). The observer may be called from any thread: its calls
    /// are serialized like a subject's publishes, and ignored after the completion or the disposal.
    /// RxSwift: `create`; Combine has no counterpart (the closest is a `PassthroughSubject` behind `Deferred`).
    ///
    /// - Parameter body: Starts producing for one subscriber; returns the teardown.
    public static func create(_ body: @escaping @Sendable (Observer<Element>) -> any Disposable) -> Observable<Element>
    {
        Observable.lifting { target in
            let observer = Observer<Element>()
            let teardown = Teardown(keeping: observer)
            let downstream = observer.relay.subscribe(
                on: .immediate,
                onNext: target.onNext,
                onCompletion: { completion in
                    target.onCompletion(completion)
                    teardown.dispose()
                }
            )
            teardown.install(body(observer))
            return [downstream, teardown]
        }
    }
}

/// The teardown a `create` body returned, disposed once; it keeps the observer (and so its relay) alive as long as
/// the subscription, so a body that does not hold its observer does not end the stream.
final class Teardown: Disposable {
    private enum State {
        case waiting(any Sendable)
        case installed(any Disposable, any Sendable)
        case disposed
    }

    private let state: FutexMutex<State>

    init(keeping observer: any Sendable) {
        state = FutexMutex(.waiting(observer))
    }

    /// Takes the teardown `body` returned; disposes it at once if the stream already ended.
    func install(_ disposable: any Disposable) {
        let installed = state.withLock { state -> Bool in
            guard case .waiting(let observer) = state else { return false }
            state = .installed(disposable, observer)
            return true
        }
        if !installed { disposable.dispose() }
    }

    func dispose() {
        let taken = state.withLock { state -> (any Disposable)? in
            defer { state = .disposed }
            guard case .installed(let disposable, _) = state else { return nil }
            return disposable
        }
        taken?.dispose()
    }

    var isDisposed: Bool {
        state.withLock { state in
            if case .disposed = state { return true }
            return false
        }
    }
}
