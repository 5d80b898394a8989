extension ObservableType {
    /// Delivers a running accumulation: `next(previous, value)` for each value, starting from `initial`.
    ///
    /// Each subscription starts again from `initial`.
    @inlinable
    public func scan<Result: Sendable>(
        _ initial: Result,
        _ next: @escaping @Sendable (Result, Element) -> Result
    ) -> Observable<Result> {
        Observable { delivery, onNext, onCompletion in
            let accumulator = LockedValue(initial)
            return self.subscribe(
                on: delivery,
                onNext: { value in
                    // Callbacks of one subscription never overlap, so reading then writing is not a race.
                    let result = next(accumulator.withLock { $0 }, value)
                    accumulator.withLock { $0 = result }
                    onNext(result)
                },
                onCompletion: onCompletion
            )
        }
    }
}
