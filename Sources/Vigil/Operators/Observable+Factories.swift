extension Observable {
    /// Delivers `value`, then finishes.
    ///
    /// Each subscriber receives it during `subscribe`, as its delivery says. RxSwift: `just`; Combine: `Just`.
    ///
    /// - Parameter value: The one value to deliver.
    public static func just(_ value: Element) -> Observable<Element> {
        Observable.lifting { target in
            target.onNext(value)
            target.onCompletion(.finished)
            return []
        }
    }

    /// Delivers the elements of `sequence` in order, then finishes.
    ///
    /// Each subscription iterates the sequence anew, synchronously inside `subscribe`: Vigil has no trampoline
    /// scheduler, so an operator downstream that ends early (`prefix`) cannot stop the iteration, and the sequence
    /// must be finite. RxSwift: `from(_:)` and `of(_:)`; Combine: `Publishers.Sequence` (`sequence.publisher`).
    ///
    /// - Parameter sequence: The elements to deliver; iterated once per subscription.
    public static func from<Elements: Sequence & Sendable>(_ sequence: Elements) -> Observable<Element>
    where Elements.Element == Element {
        Observable.lifting { target in
            for element in sequence { target.onNext(element) }
            target.onCompletion(.finished)
            return []
        }
    }

    /// Finishes at once, with no value. RxSwift: `empty()`; Combine: `Empty`.
    public static var empty: Observable<Element> {
        Observable.lifting { target in
            target.onCompletion(.finished)
            return []
        }
    }

    /// Never delivers anything, not even a completion. RxSwift: `never()`; Combine: `Empty(completeImmediately: false)`.
    public static var never: Observable<Element> {
        Observable { _, _, _ in Subscription(onDispose: {}) }
    }

    /// Fails at once with `error`, with no value. RxSwift: `error(_:)`; Combine: `Fail`.
    ///
    /// - Parameter error: The error every subscriber receives.
    public static func fail(_ error: any Error) -> Observable<Element> {
        Observable.lifting { target in
            target.onCompletion(.failed(error))
            return []
        }
    }

    /// Calls `makeSource` for each subscriber, when it subscribes, and subscribes it to the result.
    ///
    /// So each subscriber gets a stream of its own, made with the state of the moment it subscribes. An error thrown
    /// by `makeSource` fails that subscription. RxSwift: `deferred`; Combine: `Deferred`.
    ///
    /// - Parameter makeSource: Makes the stream for one subscription; called on the subscribing thread.
    public static func deferred<Source: ObservableType>(
        _ makeSource: @escaping @Sendable () throws -> Source
    ) -> Observable<Element> where Source.Element == Element {
        Observable.lifting { target in
            do {
                return [
                    try makeSource().subscribe(
                        on: .immediate, onNext: target.onNext, onCompletion: target.onCompletion)
                ]
            } catch {
                target.onCompletion(.failed(error))
                return []
            }
        }
    }
}
