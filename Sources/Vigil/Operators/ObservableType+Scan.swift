extension ObservableType {
    /// Delivers a running accumulation: `next(previous, value)` for each value, starting from `initial`.
    ///
    /// Each subscription starts again from `initial`.
    @inlinable
    public func scan<Result: Sendable>(
        _ initial: Result,
        _ next: @escaping @Sendable (Result, Element) -> Result
    ) -> Observable<Result> {
        Observable.lifting { target in
            let accumulator = SerialBox(initial)
            return [
                self.subscribe(
                    on: .immediate,
                    onNext: { value in
                        let result = accumulator.withValue { accumulator -> Result in
                            accumulator = next(accumulator, value)
                            return accumulator
                        }
                        target.onNext(result)
                    },
                    onCompletion: target.onCompletion
                )
            ]
        }
    }
}
