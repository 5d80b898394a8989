extension ObservableType {
    /// Delivers `values` first, then this stream's values and its completion.
    ///
    /// Each subscription delivers `values` inside `subscribe`, on the subscribing thread (or on its queue, by its
    /// delivery), before this stream is subscribed; as with RxSwift's `startWith`, so a value published into an
    /// upstream `PublishSubject` from a callback for a prepended value is not seen, while an upstream
    /// `BehaviorSubject` replays it.
    ///
    /// RxSwift: `startWith(_:)`; Combine: `prepend(_:)`.
    ///
    /// - Parameter values: The values delivered before this stream's own.
    /// - Returns: The stream `values` followed by this stream.
    public func prepend(_ values: Element...) -> Observable<Element> {
        prepend(values)
    }

    /// Delivers the elements of `values` first, then this stream's values and its completion.
    ///
    /// `values` is read once, when this is called; every subscription delivers the same elements, at the same point
    /// as the variadic form's.
    ///
    /// RxSwift: `startWith(_:)`; Combine: `prepend(_:)`.
    ///
    /// - Parameter values: The values delivered before this stream's own; must be finite.
    /// - Returns: The stream of `values` followed by this stream.
    public func prepend(_ values: some Sequence<Element>) -> Observable<Element> {
        let values = Array(values)
        return Observable.lifting { target in
            // Counted as a delivery, like a subject's replay: a publish from these callbacks never waits.
            CallbackDepth.delivering {
                for value in values { target.onNext(value) }
            }
            return [self.subscribe(on: .immediate, onNext: target.onNext, onCompletion: target.onCompletion)]
        }
    }
}
