extension Observable {
    /// Delivers a pair of the latest values of `first` and `second` each time either delivers, once both have.
    ///
    /// Finishes when both have finished (or when one finishes before it ever delivered, since no pair can follow);
    /// fails on the first failure. Values from different threads are serialized: callbacks never overlap.
    public static func combineLatest<First: Sendable, Second: Sendable>(
        _ first: some ObservableType<First>,
        _ second: some ObservableType<Second>
    ) -> Observable<Element> where Element == (First, Second) {
        Observable { delivery, onNext, onCompletion in
            let relay = PublishSubject<CombineEvent<First, Second>>()
            let latest = LockedValue(CombineState<First, Second>())
            // The pairing runs inside the relay's serialized delivery, so pairs come out in arrival order.
            let downstream = relay.subscribe(
                on: delivery,
                onNext: { event in
                    let output = latest.withLock { $0.apply(event) }
                    switch output {
                    case .none: break
                    case .pair(let pair): onNext(pair)
                    case .finished: relay.complete()  // queued behind this value; reaches onCompletion once
                    }
                },
                onCompletion: onCompletion
            )
            let firstSubscription = first.subscribe(
                on: .immediate,
                onNext: { relay.publish(.first($0)) },
                onCompletion: { Self.forward($0, as: .firstFinished, to: relay) }
            )
            let secondSubscription = second.subscribe(
                on: .immediate,
                onNext: { relay.publish(.second($0)) },
                onCompletion: { Self.forward($0, as: .secondFinished, to: relay) }
            )
            return Subscription(disposing: [downstream, firstSubscription, secondSubscription])
        }
    }

    /// Delivers a triple of the latest values of three streams each time one delivers, once all three have.
    ///
    /// Same completion rules as the two-stream form.
    public static func combineLatest<First: Sendable, Second: Sendable, Third: Sendable>(
        _ first: some ObservableType<First>,
        _ second: some ObservableType<Second>,
        _ third: some ObservableType<Third>
    ) -> Observable<Element> where Element == (First, Second, Third) {
        Observable<((First, Second), Third)>.combineLatest(
            Observable<(First, Second)>.combineLatest(first, second), third
        )
        .map { pair, third in (pair.0, pair.1, third) }
    }

    private static func forward<First, Second>(
        _ completion: Completion,
        as finished: CombineEvent<First, Second>,
        to relay: PublishSubject<CombineEvent<First, Second>>
    ) {
        switch completion {
        case .finished: relay.publish(finished)
        case .failed(let error): relay.fail(error)
        }
    }
}

/// What reaches combineLatest's serializing relay from either side.
enum CombineEvent<First: Sendable, Second: Sendable>: Sendable {
    case first(First)
    case second(Second)
    case firstFinished
    case secondFinished
}

/// combineLatest's per-subscription state: the latest value and whether it finished, per side.
struct CombineState<First: Sendable, Second: Sendable>: Sendable {
    enum Output {
        case none
        case pair((First, Second))
        case finished
    }

    private var first: First?
    private var second: Second?
    private var firstFinished = false
    private var secondFinished = false
    private var isDone = false

    mutating func apply(_ event: CombineEvent<First, Second>) -> Output {
        guard !isDone else { return .none }
        switch event {
        case .first(let value): first = value
        case .second(let value): second = value
        case .firstFinished: firstFinished = true
        case .secondFinished: secondFinished = true
        }
        let bothFinished = firstFinished && secondFinished
        let starved = (firstFinished && first == nil) || (secondFinished && second == nil)
        if bothFinished || starved {
            isDone = true
            return .finished
        }
        switch event {
        case .first, .second:
            guard let first, let second else { return .none }
            return .pair((first, second))
        case .firstFinished, .secondFinished:
            return .none
        }
    }
}
