extension Observable {
    /// Delivers the values of all `sources` as they come; finishes when all have finished, fails on the first
    /// failure, and disposes every source the moment it ends.
    ///
    /// Values from sources that publish on different threads are serialized: callbacks never overlap.
    public static func merge(_ sources: [Observable<Element>]) -> Observable<Element> {
        Observable.lifting { target in
            guard !sources.isEmpty else {
                target.onCompletion(.finished)
                return []
            }
            // The relay serializes the sources; the merging runs inside its delivery, so its lock is never contended.
            let relay = PublishSubject<SourceEvent<Element>>()
            let running = SerialBox(sources.count)
            let upstreams = UpstreamSet()
            // Each source's subscription is released the moment that source ends.
            let feeds = InnerSubscriptions()
            upstreams.add(
                relay.subscribe { event in
                    switch event {
                    case .value(let value):
                        target.onNext(value)
                    case .finished:
                        let left = running.withValue { running -> Int in
                            running -= 1
                            return running
                        }
                        guard left == 0 else { return }
                        target.onCompletion(.finished)
                        upstreams.dispose()
                    case .failed(let error):
                        target.onCompletion(.failed(error))
                        upstreams.dispose()
                        feeds.dispose()
                    }
                })
            for (index, source) in sources.enumerated() {
                relay.feed(from: source, into: feeds, key: index, as: { $0 })
            }
            return [upstreams, feeds]
        }
    }

    /// Delivers the values of all `sources` as they come; see ``merge(_:)-swift.type.method``.
    public static func merge(_ sources: Observable<Element>...) -> Observable<Element> {
        merge(sources)
    }
}

extension ObservableType {
    /// Delivers the values of this stream and of `others` as they come; finishes when all have finished.
    public func merge(_ others: any ObservableType<Element>...) -> Observable<Element> {
        Observable.merge([asObservable()] + others.map { $0.asObservable() })
    }
}

/// What reaches an operator's serializing relay from one of its sources.
enum SourceEvent<Value: Sendable>: Sendable {
    case value(Value)
    case finished
    case failed(any Error)
}

extension PublishSubject {
    /// Subscribes to `source` immediately, under `key` in `feeds`, and publishes its values (wrapped by `wrap`) and
    /// its end into this relay; its subscription is released the moment it ends.
    ///
    /// The relay never completes itself: the operator decides, inside the relay's serialized delivery, when it ends.
    func feed<Value: Sendable, Source: ObservableType>(
        from source: Source, into feeds: InnerSubscriptions, key: Int,
        as wrap: @escaping @Sendable (Source.Element) -> Value
    ) where Element == SourceEvent<Value> {
        feeds.subscribe(
            source,
            key: key,
            onNext: { self.feed(.value(wrap($0))) },
            onCompletion: { completion in
                switch completion {
                case .finished: self.feed(.finished)
                case .failed(let error): self.feed(.failed(error))
                }
            }
        )
    }
}
