extension ObservableType {
    /// Transforms each value with `transform`; an error it throws fails the stream.
    ///
    /// On a throw the subscriber receives `.failed(error)` with the thrown error, the upstream subscription is
    /// disposed at once, and nothing follows. `transform` runs on the publishing thread, before the subscriber's
    /// delivery, never under a lock.
    ///
    /// RxSwift: `map` with a throwing closure; Combine: `tryMap(_:)`.
    ///
    /// - Parameter transform: Turns a value into the value to deliver, or throws to fail the stream.
    /// - Returns: The transformed stream.
    public func tryMap<Result: Sendable>(
        _ transform: @escaping @Sendable (Element) throws -> Result
    ) -> Observable<Result> {
        throwingOperator { value, target in
            target.onNext(try transform(value))
        }
    }

    /// Delivers only the values for which `isIncluded` returns true; an error it throws fails the stream.
    ///
    /// On a throw the subscriber receives `.failed(error)`, the upstream subscription is disposed at once, and
    /// nothing follows. `isIncluded` runs on the publishing thread, never under a lock.
    ///
    /// RxSwift: `filter` with a throwing closure; Combine: `tryFilter(_:)`.
    ///
    /// - Parameter isIncluded: Returns true for a value to deliver, or throws to fail the stream.
    /// - Returns: The filtered stream.
    public func tryFilter(_ isIncluded: @escaping @Sendable (Element) throws -> Bool) -> Observable<Element> {
        throwingOperator { value, target in
            if try isIncluded(value) { target.onNext(value) }
        }
    }

    /// Delivers a running accumulation, `next(previous, value)` from `initial`; an error it throws fails the stream.
    ///
    /// Each subscription starts again from `initial`. On a throw the subscriber receives `.failed(error)`, the
    /// upstream subscription is disposed at once, and nothing follows. `next` runs on the publishing thread, never
    /// under a lock.
    ///
    /// RxSwift: `scan` with a throwing closure; Combine: `tryScan(_:_:)`.
    ///
    /// - Parameters:
    ///   - initial: The accumulation before the first value.
    ///   - next: Combines the accumulation so far with a value, or throws to fail the stream.
    /// - Returns: The stream of accumulations.
    public func tryScan<Result: Sendable>(
        _ initial: Result,
        _ next: @escaping @Sendable (Result, Element) throws -> Result
    ) -> Observable<Result> {
        Observable<Result>.lifting { target in
            let accumulator = SerialBox(initial)
            return throwingSubscription(target) { value, target in
                // Callbacks never overlap: read, combine outside the lock, then store.
                let result = try next(accumulator.withValue { $0 }, value)
                accumulator.withValue { $0 = result }
                target.onNext(result)
            }
        }
    }

    /// An operator whose per-value step may throw; see ``throwingSubscription(_:_:)``.
    func throwingOperator<Result: Sendable>(
        _ step: @escaping @Sendable (Element, DeliveryTarget<Result>) throws -> Void
    ) -> Observable<Result> {
        Observable<Result>.lifting { target in throwingSubscription(target, step) }
    }

    /// Subscribes upstream and runs `step` on each value; a throw fails `target` and disposes upstream at once.
    ///
    /// After the failure nothing reaches `target`, even a value that a concurrent publisher delivered before the
    /// upstream subscription was added (a behavior subject's replay can throw inside `subscribe`).
    func throwingSubscription<Result: Sendable>(
        _ target: DeliveryTarget<Result>,
        _ step: @escaping @Sendable (Element, DeliveryTarget<Result>) throws -> Void
    ) -> [any Disposable] {
        let upstreams = UpstreamSet()
        upstreams.add(
            subscribe(
                on: .immediate,
                onNext: { value in
                    guard !upstreams.isDisposed else { return }
                    do {
                        try step(value, target)
                    } catch {
                        target.onCompletion(.failed(error))
                        upstreams.dispose()
                    }
                },
                onCompletion: { completion in
                    guard !upstreams.isDisposed else { return }
                    target.onCompletion(completion)
                }
            ))
        return [upstreams]
    }
}
