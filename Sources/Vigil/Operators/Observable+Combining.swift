extension Observable {
    /// A multi-source operator: subscribes to every source, serializes their events through a relay, and runs a
    /// copy of `machine` per subscription on each event.
    ///
    /// The machine runs inside the relay's delivery, so its lock is never contended and outputs come out in arrival
    /// order. When a step carries a completion, the operator delivers it and disposes every upstream at once; a source that
    /// ends has its subscription released at once, on the thread that ended it. With
    /// no sources it finishes at once. Sources are subscribed in order.
    static func combining<Machine: SourceCombiningMachine>(
        _ sources: [Observable<Machine.Value>], _ machine: Machine
    ) -> Observable<Element> where Machine.Output == Element {
        Observable.lifting { target in
            guard !sources.isEmpty else {
                target.onCompletion(.finished)
                return []
            }
            let relay = PublishSubject<IndexedSourceEvent<Machine.Value>>()
            let state = SerialBox(machine)
            let upstreams = UpstreamSet()
            // Each source's subscription is released the moment that source ends.
            let feeds = InnerSubscriptions()
            upstreams.add(
                relay.subscribe { event in
                    let step = state.withValue { $0.apply(event) }
                    if let output = step.output { target.onNext(output) }
                    guard let completion = step.completion else { return }
                    target.onCompletion(completion)
                    upstreams.dispose()
                    feeds.dispose()
                })
            for (index, source) in sources.enumerated() {
                feeds.subscribe(
                    source,
                    key: index,
                    onNext: { relay.feed(.value(index, $0)) },
                    onCompletion: { completion in
                        switch completion {
                        case .finished: relay.feed(.finished(index))
                        case .failed(let error): relay.feed(.failed(error))
                        }
                    }
                )
            }
            return [upstreams, feeds]
        }
    }
}

/// What reaches a multi-source operator's relay: an event of the source at an index.
enum IndexedSourceEvent<Value: Sendable>: Sendable {
    case value(Int, Value)
    case finished(Int)
    case failed(any Error)
}

/// A multi-source operator's logic for one subscription: an event in, what to deliver out.
///
/// A value type, testable without threads; ``Observable/combining(_:_:)`` holds it and acts on its steps.
protocol SourceCombiningMachine: Sendable {
    associatedtype Value: Sendable
    associatedtype Output: Sendable

    /// Takes one event; returns what to deliver. After a step with a completion, it is not called again.
    mutating func apply(_ event: IndexedSourceEvent<Value>) -> CombiningStep<Output>
}

/// What a ``SourceCombiningMachine`` delivers for one event: perhaps a value, then perhaps the completion.
struct CombiningStep<Output: Sendable> {
    var output: Output?
    var completion: Completion?

    static var none: Self { Self(output: nil, completion: nil) }
}

/// A value from one of up to three sources of different types, so they can share one relay (`Never` for an
/// unused case).
enum OneOf<First: Sendable, Second: Sendable, Third: Sendable>: Sendable {
    case first(First)
    case second(Second)
    case third(Third)
}
