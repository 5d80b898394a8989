extension ObservableType {
    /// Maps each value to a stream and delivers the values of the newest one only: each new value disposes the
    /// stream of the one before.
    ///
    /// Values the previous inner stream delivered after the switch are dropped. Finishes when this stream and the
    /// current inner stream have finished; fails on the first failure of this stream or of the current inner one.
    /// Either way, and when the subscription is disposed, it disposes this stream's subscription and the inner one
    /// at once. An inner stream that publishes into this one from its callback does not deadlock: Vigil queues the
    /// value behind the one in flight (RxSwift would deliver it nested).
    ///
    /// RxSwift: `flatMapLatest`; Combine: `map(_:)` then `switchToLatest()`.
    ///
    /// - Parameter transform: Makes the inner stream of one value; runs on the thread that delivered the value.
    /// - Returns: The values of the newest inner stream.
    @inlinable
    public func flatMapLatest<Inner: ObservableType>(
        _ transform: @escaping @Sendable (Element) -> Inner
    ) -> Observable<Inner.Element> {
        Observable<Inner.Element>.lifting { target in
            let switcher = LatestSwitcher(target: target)
            switcher.relay.feed(fromOuter: self, into: switcher.outer, transform)
            return [switcher.upstreams, switcher.outer, switcher.current]
        }
    }
}

/// One flatMapLatest subscription: events reach it through the relay, serialized, each inner event tagged with the
/// generation of its stream so that a replaced stream's late events are recognised and dropped.
///
/// Inlinable, so the path of every value (inner stream, relay, handler) is compiled for the element type where
/// `flatMapLatest` is called; unspecialized, each value looked up generic metadata at every step.
@usableFromInline
final class LatestSwitcher<Value: Sendable>: Sendable {
    @usableFromInline let relay = PublishSubject<FlatMapEvent<Value>>()
    /// The relay's subscription.
    @usableFromInline let upstreams = UpstreamSet()
    @usableFromInline let outer = InnerSubscriptions()
    @usableFromInline let current = SerialSubscription()
    @usableFromInline let target: DeliveryTarget<Value>
    @usableFromInline let state = SerialBox(LatestState())

    @inlinable
    init(target: DeliveryTarget<Value>) {
        self.target = target
        // The relay's subscription holds the switcher, and the switcher the relay, until the subscription ends.
        upstreams.add(relay.subscribe { event in self.handle(event) })
    }

    @inlinable
    func handle(_ event: FlatMapEvent<Value>) {
        switch event {
        case .outer(let inner):
            guard let generation = current.advance() else { return }
            state.withValue { $0.switchTo(generation) }
            current.store(
                inner.subscribe(
                    on: .immediate,
                    onNext: { self.relay.feed(.inner(generation, $0)) },
                    onCompletion: { completion in
                        // Released at once, on the thread that ended it, not when the relay gets to the end.
                        self.current.end(generation)
                        self.relay.feed(.innerEnded(generation, completion))
                    }
                ),
                generation: generation)
        case .inner(let generation, let value):
            if state.withValue({ $0.isCurrent(generation) }) { target.onNext(value) }
        case .innerEnded(let generation, .finished):
            if state.withValue({ $0.finishInner(generation) }) { terminate(.finished) }
        case .innerEnded(let generation, .failed(let error)):
            if state.withValue({ $0.isCurrent(generation) }) { terminate(.failed(error)) }
        case .outerEnded(.finished):
            if state.withValue({ $0.finishOuter() }) { terminate(.finished) }
        case .outerEnded(.failed(let error)):
            terminate(.failed(error))
        }
    }

    @inlinable
    func terminate(_ completion: Completion) {
        target.onCompletion(completion)
        upstreams.dispose()
        outer.dispose()
        current.dispose()
    }
}

/// flatMapLatest's decisions: which inner stream is current, and whether it and the outer stream have finished.
@usableFromInline
struct LatestState: Sendable {
    @usableFromInline var generation: Int?
    @usableFromInline var innerRunning = false
    @usableFromInline var outerFinished = false

    @inlinable
    init() {}

    @inlinable
    mutating func switchTo(_ newGeneration: Int) {
        generation = newGeneration
        innerRunning = true
    }

    @inlinable
    func isCurrent(_ candidate: Int) -> Bool {
        generation == candidate
    }

    /// Records that the stream of `candidate` finished; returns whether everything has.
    @inlinable
    mutating func finishInner(_ candidate: Int) -> Bool {
        guard generation == candidate else { return false }
        innerRunning = false
        return outerFinished
    }

    /// Records that the outer stream finished; returns whether everything has.
    @inlinable
    mutating func finishOuter() -> Bool {
        outerFinished = true
        return !innerRunning
    }
}
