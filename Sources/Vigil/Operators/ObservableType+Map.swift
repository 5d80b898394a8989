extension ObservableType {
    /// Transforms each value with `transform`.
    ///
    /// `transform` runs where the subscriber's callbacks run (see ``Delivery``), never under a lock.
    @inlinable
    public func map<Result: Sendable>(_ transform: @escaping @Sendable (Element) -> Result) -> Observable<Result> {
        Observable { delivery, onNext, onCompletion in
            self.subscribe(on: delivery, onNext: { onNext(transform($0)) }, onCompletion: onCompletion)
        }
    }

    /// Transforms each value with `transform` and delivers the non-nil results.
    @inlinable
    public func compactMap<Result: Sendable>(
        _ transform: @escaping @Sendable (Element) -> Result?
    ) -> Observable<Result> {
        Observable { delivery, onNext, onCompletion in
            self.subscribe(
                on: delivery,
                onNext: { value in
                    if let result = transform(value) { onNext(result) }
                },
                onCompletion: onCompletion
            )
        }
    }

    /// Delivers only the values for which `isIncluded` returns true.
    @inlinable
    public func filter(_ isIncluded: @escaping @Sendable (Element) -> Bool) -> Observable<Element> {
        Observable { delivery, onNext, onCompletion in
            self.subscribe(
                on: delivery,
                onNext: { value in
                    if isIncluded(value) { onNext(value) }
                },
                onCompletion: onCompletion
            )
        }
    }
}
