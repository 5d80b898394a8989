extension ObservableType {
    /// On failure, continues with the stream `handler` makes from the error, instead of failing.
    ///
    /// Values before the failure pass through; the failed subscription is released, then the fallback is subscribed
    /// from inside the failure's callback and its values, completion or failure follow. An error thrown by `handler`
    /// fails the stream with that error. Disposing the subscription disposes whichever of the two is current.
    /// RxSwift: `catch(_:)` (formerly `catchError`); Combine: `catch(_:)` and `tryCatch(_:)`.
    ///
    /// - Parameter handler: Makes the fallback stream from the error; runs on the thread that delivered the failure.
    /// - Returns: This stream's values, then, if it fails, the fallback's.
    public func `catch`<Fallback: ObservableType>(
        _ handler: @escaping @Sendable (any Error) throws -> Fallback
    ) -> Observable<Element> where Fallback.Element == Element {
        Observable.lifting { target in
            let current = SerialSubscription()
            let upstream = self.subscribe(
                on: .immediate,
                onNext: target.onNext,
                onCompletion: { completion in
                    guard case .failed(let error) = completion else {
                        target.onCompletion(completion)
                        current.dispose()
                        return
                    }
                    guard let generation = current.advance() else { return }
                    do {
                        let fallback = try handler(error).subscribe(
                            on: .immediate, onNext: target.onNext, onCompletion: target.onCompletion)
                        current.store(fallback, generation: generation)
                    } catch {
                        target.onCompletion(.failed(error))
                        current.dispose()
                    }
                }
            )
            current.store(upstream, generation: 0)
            return [current]
        }
    }

    /// On failure, delivers `value` and finishes, instead of failing.
    ///
    /// RxSwift: `catchAndReturn(_:)` (formerly `catchErrorJustReturn`); Combine: `replaceError(with:)`.
    ///
    /// - Parameter value: What to deliver in place of the failure.
    /// - Returns: This stream's values, and `value` if it fails.
    public func replaceError(with value: Element) -> Observable<Element> {
        Observable.lifting { target in
            [
                self.subscribe(
                    on: .immediate,
                    onNext: target.onNext,
                    onCompletion: { completion in
                        if case .failed = completion { target.onNext(value) }
                        target.onCompletion(.finished)
                    }
                )
            ]
        }
    }
}
