extension ObservableType {
    /// Delivers, for each value of this stream, the latest value of `other`; values before `other` has one are
    /// dropped.
    ///
    /// Only this stream's values trigger a delivery. It finishes when this stream finishes (`other` finishing only
    /// freezes its latest value), fails when either fails, and on either end disposes both subscriptions at once.
    /// `other` is subscribed first, so a ``BehaviorSubject``'s current value is ready for this stream's first value.
    /// Values from different threads are serialized: callbacks never overlap.
    ///
    /// RxSwift: `withLatestFrom(_:)`; Combine has no such operator.
    ///
    /// - Parameter other: The stream whose latest value is delivered.
    /// - Returns: The stream of `other`'s latest values, one per value of this stream.
    public func withLatestFrom<Other: ObservableType>(_ other: Other) -> Observable<Other.Element> {
        withLatestFrom(other) { _, latest in latest }
    }

    /// Delivers, for each value of this stream, `resultSelector(value, latest)` with the latest value of `other`;
    /// values before `other` has one are dropped.
    ///
    /// Same rules as ``withLatestFrom(_:)``. `resultSelector` runs on the delivering thread, before the subscriber's
    /// delivery, never under a lock.
    ///
    /// RxSwift: `withLatestFrom(_:resultSelector:)`; Combine has no such operator.
    ///
    /// - Parameters:
    ///   - other: The stream whose latest value is combined.
    ///   - resultSelector: Combines a value of this stream with the latest value of `other`.
    /// - Returns: The stream of combined values, one per value of this stream once `other` has delivered.
    public func withLatestFrom<Other: ObservableType, Result: Sendable>(
        _ other: Other,
        resultSelector: @escaping @Sendable (Element, Other.Element) -> Result
    ) -> Observable<Result> {
        Observable<(Element, Other.Element)>.combining(
            [other.map { OneOf.second($0) }, map { OneOf.first($0) }],
            WithLatestFromStateMachine()
        )
        .map { value, latest in resultSelector(value, latest) }
    }
}

/// withLatestFrom's state: the latest value of the other stream. The other stream is source 0, the primary 1.
struct WithLatestFromStateMachine<Primary: Sendable, Other: Sendable>: SourceCombiningMachine {
    private var latest: Other?
    private var isDone = false

    mutating func apply(
        _ event: IndexedSourceEvent<OneOf<Primary, Other, Never>>
    ) -> CombiningStep<(Primary, Other)> {
        guard !isDone else { return .none }
        switch event {
        case .value(_, .second(let value)):
            latest = value
            return .none
        case .value(_, .first(let value)):
            guard let latest else { return .none }
            return CombiningStep(output: (value, latest), completion: nil)
        case .value(_, .third):
            return .none
        case .finished(let index):
            guard index == 1 else { return .none }
            return end(.finished)
        case .failed(let error):
            return end(.failed(error))
        }
    }

    private mutating func end(_ completion: Completion) -> CombiningStep<(Primary, Other)> {
        isDone = true
        latest = nil
        return CombiningStep(output: nil, completion: completion)
    }
}
