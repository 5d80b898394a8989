extension ObservableType {
    /// Delivers no values, only this stream's completion or failure.
    ///
    /// RxSwift: `ignoreElements()`; Combine: `ignoreOutput()`. The element type stays this stream's, as in
    /// Combine, so the result merges with streams of the same type.
    ///
    /// - Returns: A stream that ends when this one does and delivers nothing before.
    public func ignoreOutput() -> Observable<Element> {
        Observable.lifting { target in
            [self.subscribe(on: .immediate, onNext: { _ in }, onCompletion: target.onCompletion)]
        }
    }
}
