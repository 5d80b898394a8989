extension Observable {
    /// Delivers an array of the latest value of every source each time one delivers, once all have delivered.
    ///
    /// Finishes when all sources have finished, or when one finishes before it ever delivered (no array can
    /// follow); fails on the first failure; either way it disposes every source at once. With no sources it
    /// finishes at once. Values from different threads are serialized: callbacks never overlap.
    ///
    /// RxSwift: `Observable.combineLatest(_:)` over a collection; Combine has no array form.
    ///
    /// - Parameter sources: The streams to combine, subscribed in order.
    /// - Returns: The stream of arrays, each with the latest value of every source, in the order of `sources`.
    public static func combineLatest<Source: ObservableType>(
        _ sources: [Source]
    ) -> Observable<Element> where Element == [Source.Element] {
        combining(sources.map { $0.asObservable() }, CombineLatestStateMachine(sources: sources.count))
    }
}

/// combineLatest's state for an array of sources: the latest value of each, and which have finished.
struct CombineLatestStateMachine<Value: Sendable>: SourceCombiningMachine {
    private var latest: [Value?]
    private var missing: Int
    private var finished: [Bool]
    private var unfinished: Int
    private var isDone = false

    init(sources: Int) {
        latest = Array(repeating: nil, count: sources)
        missing = sources
        finished = Array(repeating: false, count: sources)
        unfinished = sources
    }

    mutating func apply(_ event: IndexedSourceEvent<Value>) -> CombiningStep<[Value]> {
        guard !isDone else { return .none }
        switch event {
        case .value(let index, let value):
            if latest[index] == nil { missing -= 1 }
            latest[index] = value
            guard missing == 0 else { return .none }
            return CombiningStep(output: latest.map { $0! }, completion: nil)
        case .finished(let index):
            if !finished[index] {
                finished[index] = true
                unfinished -= 1
            }
            guard unfinished == 0 || latest[index] == nil else { return .none }
            return end(.finished)
        case .failed(let error):
            return end(.failed(error))
        }
    }

    private mutating func end(_ completion: Completion) -> CombiningStep<[Value]> {
        isDone = true
        latest = []
        return CombiningStep(output: nil, completion: completion)
    }
}
