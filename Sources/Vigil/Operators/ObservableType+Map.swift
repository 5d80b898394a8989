extension ObservableType {
    /// Transforms each value with `transform`.
    ///
    /// `transform` runs on the publishing thread, before the subscriber's delivery (see ``Delivery``), never under a
    /// lock.
    @inlinable
    public func map<Result: Sendable>(_ transform: @escaping @Sendable (Element) -> Result) -> Observable<Result> {
        Observable.lifting { target in
            [
                self.subscribe(
                    on: .immediate, onNext: { target.onNext(transform($0)) }, onCompletion: target.onCompletion)
            ]
        }
    }

    /// Transforms each value with `transform` and delivers the non-nil results.
    @inlinable
    public func compactMap<Result: Sendable>(
        _ transform: @escaping @Sendable (Element) -> Result?
    ) -> Observable<Result> {
        Observable.lifting { target in
            [
                self.subscribe(
                    on: .immediate,
                    onNext: { value in
                        if let result = transform(value) { target.onNext(result) }
                    },
                    onCompletion: target.onCompletion
                )
            ]
        }
    }

    /// Delivers only the values for which `isIncluded` returns true.
    @inlinable
    public func filter(_ isIncluded: @escaping @Sendable (Element) -> Bool) -> Observable<Element> {
        Observable.lifting { target in
            [
                self.subscribe(
                    on: .immediate,
                    onNext: { value in
                        if isIncluded(value) { target.onNext(value) }
                    },
                    onCompletion: target.onCompletion
                )
            ]
        }
    }
}
