extension Observable {
    /// Delivers pairs of the n-th values of `first` and `second`: each value waits until the other source delivers
    /// its n-th value.
    ///
    /// Finishes when a source has finished and no value of it is left waiting (no pair can follow), fails on the
    /// first failure, and either way disposes both sources at once. Values from different threads are serialized:
    /// callbacks never overlap.
    ///
    /// A source that runs ahead has its values held, at most `bufferLimit` of them per source; one more fails the
    /// zip with ``ZipOverflowError`` and releases both sources, rather than growing without bound or dropping a
    /// value (which would pair the wrong ones). Pairing happens before the subscriber's delivery, so a bounded
    /// ``BufferPolicy`` only drops whole pairs.
    ///
    /// RxSwift: `Observable.zip(_:_:)`; Combine: `zip(_:)`.
    ///
    /// - Parameters:
    ///   - first: The source of each pair's first value.
    ///   - second: The source of each pair's second value.
    ///   - bufferLimit: The most values held per source while waiting for the other (at least 1).
    /// - Returns: The stream of pairs.
    public static func zip<First: Sendable, Second: Sendable>(
        _ first: some ObservableType<First>,
        _ second: some ObservableType<Second>,
        bufferLimit: Int = 1_000
    ) -> Observable<Element> where Element == (First, Second) {
        Observable<[OneOf<First, Second, Never>]>.combining(
            [first.map { OneOf.first($0) }, second.map { OneOf.second($0) }],
            ZipStateMachine(sources: 2, limit: bufferLimit)
        )
        .map { pair in
            guard case .first(let first) = pair[0], case .second(let second) = pair[1] else {
                preconditionFailure("zip pairs the first source's value with the second's")
            }
            return (first, second)
        }
    }

    /// Delivers triples of the n-th values of three sources; see ``zip(_:_:bufferLimit:)``.
    ///
    /// Same completion, failure and buffering rules as the two-source form, with `bufferLimit` per source.
    ///
    /// RxSwift: `Observable.zip(_:_:_:)`; Combine: `zip(_:_:)`.
    ///
    /// - Parameters:
    ///   - first: The source of each triple's first value.
    ///   - second: The source of each triple's second value.
    ///   - third: The source of each triple's third value.
    ///   - bufferLimit: The most values held per source while waiting for the others (at least 1).
    /// - Returns: The stream of triples.
    public static func zip<First: Sendable, Second: Sendable, Third: Sendable>(
        _ first: some ObservableType<First>,
        _ second: some ObservableType<Second>,
        _ third: some ObservableType<Third>,
        bufferLimit: Int = 1_000
    ) -> Observable<Element> where Element == (First, Second, Third) {
        Observable<[OneOf<First, Second, Third>]>.combining(
            [first.map { OneOf.first($0) }, second.map { OneOf.second($0) }, third.map { OneOf.third($0) }],
            ZipStateMachine(sources: 3, limit: bufferLimit)
        )
        .map { triple in
            guard case .first(let first) = triple[0], case .second(let second) = triple[1],
                case .third(let third) = triple[2]
            else { preconditionFailure("zip takes each source's value from its own position") }
            return (first, second, third)
        }
    }

    /// Delivers arrays of the n-th values of all `sources`, in the order of `sources`.
    ///
    /// Same completion, failure and buffering rules as ``zip(_:_:bufferLimit:)``; with no sources it finishes at
    /// once. Sources are subscribed in order.
    ///
    /// RxSwift: `Observable.zip(_:)` over a collection; Combine has no array form.
    ///
    /// - Parameters:
    ///   - sources: The streams to zip.
    ///   - bufferLimit: The most values held per source while waiting for the others (at least 1).
    /// - Returns: The stream of arrays, each with one value per source.
    public static func zip<Source: ObservableType>(
        _ sources: [Source], bufferLimit: Int = 1_000
    ) -> Observable<Element> where Element == [Source.Element] {
        combining(sources.map { $0.asObservable() }, ZipStateMachine(sources: sources.count, limit: bufferLimit))
    }
}
