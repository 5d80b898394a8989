extension Observable {
    /// Delivers the values of all `sources` as they come; finishes when all have finished, fails on the first
    /// failure.
    ///
    /// Values from sources that publish on different threads are serialized: callbacks never overlap.
    public static func merge(_ sources: [Observable<Element>]) -> Observable<Element> {
        Observable { delivery, onNext, onCompletion in
            let relay = PublishSubject<Element>()
            let downstream = relay.subscribe(on: delivery, onNext: onNext, onCompletion: onCompletion)
            guard !sources.isEmpty else {
                relay.complete()
                return downstream
            }
            let running = LockedValue(sources.count)
            let upstreams = sources.map { source in
                source.subscribe(
                    on: .immediate,
                    onNext: { relay.publish($0) },
                    onCompletion: { completion in
                        switch completion {
                        case .failed(let error):
                            relay.fail(error)
                        case .finished:
                            let left = running.withLock { running -> Int in
                                running -= 1
                                return running
                            }
                            if left == 0 { relay.complete() }
                        }
                    }
                )
            }
            return Subscription(disposing: [downstream] + upstreams)
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
