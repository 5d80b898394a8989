extension ObservableType {
    /// The values as an asynchronous sequence: it ends on `.finished` and throws the error on `.failed`.
    ///
    /// Each iteration subscribes anew, when it starts (the first call to `next()`), not when this property is read.
    /// Values are buffered without limit until the consuming task takes them; cancelling that task, or dropping the
    /// iterator, disposes the subscription.
    ///
    /// ```swift
    /// for try await reading in battery.readings.values { print(reading) }
    /// ```
    public var values: ObservableValues<Element> {
        ObservableValues(source: asObservable())
    }
}

/// The values of an observable as an `AsyncSequence`; see ``ObservableType/values``.
public struct ObservableValues<Element: Sendable>: AsyncSequence, Sendable {
    public typealias Failure = any Error

    let source: Observable<Element>

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(source: source)
    }

    /// Iterates the values; it subscribes on its first ``next()``.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let source: Observable<Element>
        var stream: AsyncThrowingStream<Element, any Error>.AsyncIterator?

        /// The next value, or nil once the observable finished; throws its failure.
        public mutating func next() async throws -> Element? {
            if stream == nil { stream = Self.subscribe(to: source).makeAsyncIterator() }
            return try await stream?.next()
        }

        private static func subscribe(to source: Observable<Element>) -> AsyncThrowingStream<Element, any Error> {
            AsyncThrowingStream { continuation in
                let subscription = source.subscribe(
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
}
