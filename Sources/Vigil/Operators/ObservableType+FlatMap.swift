extension ObservableType {
    /// Maps each value to a stream and delivers the values of all those streams as they come, at most
    /// `maxConcurrent` of them subscribed at a time.
    ///
    /// `transform` runs on each value as it arrives. While `maxConcurrent` inner streams are running, the streams of
    /// newer values wait, in arrival order, and each is subscribed when a running one finishes; `waiting` bounds that
    /// queue as a ``BufferPolicy`` bounds a mailbox (`.oldest(n)` drops the newest streams while `n` wait,
    /// `.newest(n)` and `.latest` drop the oldest waiting one). Vigil has no demand, so without a bound the queue
    /// holds every stream that arrives faster than the running ones finish.
    ///
    /// Finishes when this stream and every inner stream (running or waiting) have finished; fails on the first
    /// failure of any of them. Either way, and when the subscription is disposed, it disposes this stream's
    /// subscription and every inner one at once; each inner subscription is also disposed as soon as that stream
    /// finishes. Values from streams publishing on different threads are serialized: callbacks never overlap. An
    /// inner stream that publishes into this one from its callback does not deadlock: Vigil queues the value behind
    /// the one in flight (RxSwift would deliver it nested).
    ///
    /// RxSwift: `flatMap`, and `merge(maxConcurrent:)` after `map`; Combine: `flatMap(maxPublishers:_:)`.
    ///
    /// - Parameters:
    ///   - maxConcurrent: How many inner streams may be subscribed at once; unlimited by default. Values below 1
    ///     count as 1.
    ///   - waiting: What the queue of streams waiting for a free slot keeps; everything by default.
    ///   - transform: Makes the inner stream of one value; runs on the thread that delivered the value.
    /// - Returns: The values of the inner streams.
    public func flatMap<Inner: ObservableType>(
        maxConcurrent: Int = .max,
        waiting: BufferPolicy = .unbounded,
        _ transform: @escaping @Sendable (Element) -> Inner
    ) -> Observable<Inner.Element> {
        Observable<Inner.Element>.lifting { target in
            let merger = FlatMapMerger(target: target, limit: maxConcurrent, waiting: waiting)
            merger.relay.feed(fromOuter: self, into: merger.outer, transform)
            return [merger.upstreams, merger.outer, merger.inners]
        }
    }

    /// Maps each value to a stream and delivers those streams' values one stream after the other: each is
    /// subscribed when the one before it has finished.
    ///
    /// ``flatMap(maxConcurrent:waiting:_:)`` with `maxConcurrent` 1: the same completion, failure and disposal.
    /// RxSwift: `concatMap`; Combine: `flatMap(maxPublishers: .max(1))`.
    ///
    /// - Parameters:
    ///   - waiting: What the queue of streams waiting for their turn keeps; everything by default.
    ///   - transform: Makes the inner stream of one value; runs on the thread that delivered the value.
    /// - Returns: The values of the inner streams, stream by stream.
    public func concatMap<Inner: ObservableType>(
        waiting: BufferPolicy = .unbounded,
        _ transform: @escaping @Sendable (Element) -> Inner
    ) -> Observable<Inner.Element> {
        flatMap(maxConcurrent: 1, waiting: waiting, transform)
    }
}

/// What reaches a flatMap's serializing relay: the outer stream's inner streams and end, and the inner streams'
/// values and ends, each tagged with its inner stream's key.
@usableFromInline
enum FlatMapEvent<Value: Sendable>: Sendable {
    case outer(Observable<Value>)
    case outerEnded(Completion)
    case inner(Int, Value)
    case innerEnded(Int, Completion)
}

extension PublishSubject {
    /// Subscribes to `outer` immediately, in `feeds`, and publishes the inner stream `transform` makes of each of
    /// its values, and its end, into this relay; the outer subscription is released the moment it ends.
    @inlinable
    func feed<Outer: ObservableType, Inner: ObservableType>(
        fromOuter outer: Outer, into feeds: InnerSubscriptions,
        _ transform: @escaping @Sendable (Outer.Element) -> Inner
    ) where Element == FlatMapEvent<Inner.Element> {
        feeds.subscribe(
            outer,
            key: 0,
            onNext: { self.feed(.outer(transform($0).asObservable())) },
            onCompletion: { self.feed(.outerEnded($0)) }
        )
    }
}

/// One flatMap subscription: everything reaches it through the relay, whose delivery serializes the events, so the
/// state's lock is never contended and an inner stream subscribed from inside it queues its first events behind.
final class FlatMapMerger<Value: Sendable>: Sendable {
    let relay = PublishSubject<FlatMapEvent<Value>>()
    /// The relay's subscription.
    let upstreams = UpstreamSet()
    let outer = InnerSubscriptions()
    let inners = InnerSubscriptions()
    private let target: DeliveryTarget<Value>
    private let state: SerialBox<FlatMapState<Value>>

    init(target: DeliveryTarget<Value>, limit: Int, waiting: BufferPolicy) {
        self.target = target
        state = SerialBox(FlatMapState(limit: max(limit, 1), policy: waiting))
        // The relay's subscription holds the merger, and the merger the relay, until the subscription ends.
        upstreams.add(relay.subscribe { event in self.handle(event) })
    }

    private func handle(_ event: FlatMapEvent<Value>) {
        switch event {
        case .inner(_, let value):
            target.onNext(value)
        case .outer(let inner):
            if let key = state.withValue({ $0.admit(inner) }) { start(inner, key: key) }
        case .outerEnded(.finished):
            if state.withValue({ $0.finishOuter() }) { terminate(.finished) }
        case .innerEnded(_, .finished):
            let (next, isComplete) = state.withValue { $0.finishInner() }
            if let next { start(next.0, key: next.1) }
            if isComplete { terminate(.finished) }
        case .outerEnded(.failed(let error)), .innerEnded(_, .failed(let error)):
            terminate(.failed(error))
        }
    }

    private func start(_ inner: Observable<Value>, key: Int) {
        inners.subscribe(
            inner,
            key: key,
            onNext: { self.relay.feed(.inner(key, $0)) },
            onCompletion: { self.relay.feed(.innerEnded(key, $0)) }
        )
    }

    private func terminate(_ completion: Completion) {
        target.onCompletion(completion)
        upstreams.dispose()
        outer.dispose()
        inners.dispose()
    }
}

/// flatMap's decisions: how many inner streams run, which wait, and whether everything has finished.
struct FlatMapState<Value: Sendable>: Sendable {
    private let limit: Int
    private let policy: BufferPolicy
    private var waiting = PendingQueue<Observable<Value>>()
    private var running = 0
    private var nextKey = 0
    private var outerFinished = false

    init(limit: Int, policy: BufferPolicy) {
        self.limit = limit
        self.policy = policy
    }

    /// Takes a new inner stream: returns its key if it is to be subscribed now; otherwise queues it (or drops it,
    /// or the oldest waiting one, as the policy says).
    mutating func admit(_ inner: Observable<Value>) -> Int? {
        guard running >= limit else {
            running += 1
            return takeKey()
        }
        switch policy {
        case .unbounded:
            waiting.append(inner)
        case .latest:
            waiting.removeAll()
            waiting.append(inner)
        case .newest(let bound):
            if waiting.count >= max(bound, 1) { waiting.dropFirst() }
            waiting.append(inner)
        case .oldest(let bound):
            if waiting.count < max(bound, 1) { waiting.append(inner) }
        }
        return nil
    }

    /// Records that the outer stream finished; returns whether everything has.
    mutating func finishOuter() -> Bool {
        outerFinished = true
        return running == 0 && waiting.isEmpty
    }

    /// Records that an inner stream finished; returns the waiting stream to subscribe in its place, if any, and
    /// whether everything has finished.
    mutating func finishInner() -> (next: (Observable<Value>, Int)?, isComplete: Bool) {
        if let inner = waiting.popFirst() { return ((inner, takeKey()), false) }
        running -= 1
        return (nil, outerFinished && running == 0)
    }

    private mutating func takeKey() -> Int {
        defer { nextKey += 1 }
        return nextKey
    }
}
