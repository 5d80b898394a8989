extension ObservableType {
    /// Subscribes to values, delivered synchronously on the publishing thread, ignoring the completion.
    ///
    /// - Returns: The subscription; hold it or put it in a ``DisposeBag``, or it is disposed when released.
    @inlinable
    public func subscribe(_ onNext: @escaping @Sendable (Element) -> Void) -> Subscription {
        subscribe(on: .immediate, onNext: onNext, onCompletion: { _ in })
    }

    /// Subscribes to values, delivered as `delivery` says, ignoring the completion.
    ///
    /// - Returns: The subscription; hold it or put it in a ``DisposeBag``, or it is disposed when released.
    @inlinable
    public func subscribe(on delivery: Delivery, _ onNext: @escaping @Sendable (Element) -> Void) -> Subscription {
        subscribe(on: delivery, onNext: onNext, onCompletion: { _ in })
    }

    /// Subscribes to values and the completion, delivered synchronously on the publishing thread.
    ///
    /// Either callback may be left out: `subscribe(onNext: { … })` ignores the completion, and
    /// `subscribe(onCompletion: { … })` only learns how the stream ended.
    ///
    /// - Parameters:
    ///   - onNext: Called with each value; by default, nothing.
    ///   - onCompletion: Called at most once, after the last value; by default, nothing.
    /// - Returns: The subscription; hold it or put it in a ``DisposeBag``, or it is disposed when released.
    @inlinable
    public func subscribe(
        onNext: @escaping @Sendable (Element) -> Void = { _ in },
        onCompletion: @escaping @Sendable (Completion) -> Void = { _ in }
    ) -> Subscription {
        subscribe(on: .immediate, onNext: onNext, onCompletion: onCompletion)
    }

    /// The read-only face of this stream, hiding `publish` and the rest of a subject's API.
    public func asObservable() -> Observable<Element> {
        if let observable = self as? Observable<Element> { return observable }
        if let subject = self as? any ReleasableSubject<Element> { return Observable(of: subject) }
        return Observable { delivery, onNext, onCompletion in
            self.subscribe(on: delivery, onNext: onNext, onCompletion: onCompletion)
        }
    }
}
