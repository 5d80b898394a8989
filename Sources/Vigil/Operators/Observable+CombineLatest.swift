extension Observable {
    /// Delivers a pair of the latest values of `first` and `second` each time either delivers, once both have.
    ///
    /// Finishes when both have finished (or when one finishes before it ever delivered, since no pair can follow);
    /// fails on the first failure; either way it disposes both sources at once. Values from different threads are serialized: callbacks never overlap.
    public static func combineLatest<First: Sendable, Second: Sendable>(
        _ first: some ObservableType<First>,
        _ second: some ObservableType<Second>
    ) -> Observable<Element> where Element == (First, Second) {
        Observable.lifting { target in
            // The relay serializes both sides; the pairing runs inside its delivery, so pairs come out in arrival
            // order and the state's lock is never contended.
            let relay = PublishSubject<CombineEvent<First, Second>>()
            let latest = SerialBox(CombineState<First, Second>())
            let upstreams = UpstreamSet()
            // Each side's subscription is released the moment that side ends.
            let feeds = InnerSubscriptions()
            upstreams.add(
                relay.subscribe { event in
                    switch latest.withValue({ $0.apply(event) }) {
                    case .none:
                        break
                    case .pair(let pair):
                        target.onNext(pair)
                    case .ended(let completion):
                        target.onCompletion(completion)
                        upstreams.dispose()
                        feeds.dispose()
                    }
                })
            feeds.subscribe(
                first, key: 0, onNext: { relay.feed(.first($0)) }, onCompletion: { relay.feed(.firstEnded($0)) })
            feeds.subscribe(
                second, key: 1, onNext: { relay.feed(.second($0)) }, onCompletion: { relay.feed(.secondEnded($0)) })
            return [upstreams, feeds]
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
}

/// What reaches combineLatest's serializing relay from either side.
enum CombineEvent<First: Sendable, Second: Sendable>: Sendable {
    case first(First)
    case second(Second)
    case firstEnded(Completion)
    case secondEnded(Completion)
}

/// combineLatest's per-subscription state: the latest value and whether it finished, per side.
struct CombineState<First: Sendable, Second: Sendable>: Sendable {
    enum Output {
        case none
        case pair((First, Second))
        case ended(Completion)
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
        case .firstEnded(.failed(let error)), .secondEnded(.failed(let error)):
            isDone = true
            return .ended(.failed(error))
        case .firstEnded(.finished): firstFinished = true
        case .secondEnded(.finished): secondFinished = true
        }
        let bothFinished = firstFinished && secondFinished
        let starved = (firstFinished && first == nil) || (secondFinished && second == nil)
        if bothFinished || starved {
            isDone = true
            return .ended(.finished)
        }
        switch event {
        case .first, .second:
            guard let first, let second else { return .none }
            return .pair((first, second))
        case .firstEnded, .secondEnded:
            return .none
        }
    }
}
