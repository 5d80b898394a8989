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
        values(buffer: .unbounded)
    }

    /// The values as an asynchronous sequence that keeps what `buffer` says while the consuming task falls behind.
    ///
    /// As ``values``, but the values waiting for the consumer are bounded by the policy: `.latest` keeps only the
    /// newest, `.newest(n)` the newest `n`, `.oldest(n)` the first `n` (dropping later ones while full), and
    /// `.unbounded` everything (the same as ``values``). The completion is never dropped: it comes after the values
    /// kept.
    ///
    /// ```swift
    /// for try await reading in cpu.readings.values(buffer: .latest) { await show(reading) }
    /// ```
    ///
    /// - Parameter buffer: What to keep for a slow consumer; see ``BufferPolicy``.
    /// - Returns: A sequence that subscribes when its iteration starts.
    public func values(buffer: BufferPolicy) -> ObservableValues<Element> {
        ObservableValues(source: asObservable(), buffer: buffer)
    }
}

/// The values of an observable as an `AsyncSequence`; see ``ObservableType/values`` and
/// ``ObservableType/values(buffer:)``.
public struct ObservableValues<Element: Sendable>: AsyncSequence, Sendable {
    public typealias Failure = any Error

    let source: Observable<Element>
    let buffer: BufferPolicy

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(source: source, buffer: buffer)
    }

    /// Iterates the values; it subscribes on its first ``next()``.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let source: Observable<Element>
        let buffer: BufferPolicy
        var stream: AsyncThrowingStream<Element, any Error>.AsyncIterator?

        /// The next value, or nil once the observable finished; throws its failure.
        public mutating func next() async throws -> Element? {
            start()
            return try await stream?.next()
        }

        /// Subscribes, unless it already did.
        mutating func start() {
            if stream == nil { stream = Self.subscribe(to: source, buffer: buffer).makeAsyncIterator() }
        }

        private static func subscribe(
            to source: Observable<Element>, buffer: BufferPolicy
        ) -> AsyncThrowingStream<Element, any Error> {
            AsyncThrowingStream(bufferingPolicy: buffer.streamPolicy()) { continuation in
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

extension BufferPolicy {
    /// The same policy for an `AsyncThrowingStream`'s buffer; a bound below one keeps one, as a mailbox does.
    func streamPolicy<Element>() -> AsyncThrowingStream<Element, any Error>.Continuation.BufferingPolicy {
        switch self {
        case .unbounded: .unbounded
        case .latest: .bufferingNewest(1)
        case .newest(let limit): .bufferingNewest(max(limit, 1))
        case .oldest(let limit): .bufferingOldest(max(limit, 1))
        }
    }
}
