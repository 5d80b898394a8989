extension ObservableType {
    /// The values as an asynchronous sequence: it ends on `.finished` and throws the error on `.failed`.
    ///
    /// Each iteration subscribes anew. Values are buffered without limit until the consuming task takes them;
    /// cancelling that task (or dropping the iterator) disposes the subscription.
    ///
    /// ```swift
    /// for try await reading in battery.readings.values { print(reading) }
    /// ```
    @inlinable
    public var values: AsyncThrowingStream<Element, any Error> {
        AsyncThrowingStream { continuation in
            let subscription = subscribe(
                on: .immediate,
                onNext: { continuation.yield($0) },
                onCompletion: { completion in
                    switch completion {
                    case .finished: continuation.finish()
                    case .failed(let error): continuation.finish(throwing: error)
                    }
                }
            )
            continuation.onTermination = { _ in subscription.dispose() }
        }
    }
}
