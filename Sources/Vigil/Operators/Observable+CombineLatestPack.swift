extension Observable {
    /// Delivers a tuple of the latest values of any number of streams each time one delivers, once all have.
    ///
    /// Same rules as the array form: finishes when all have finished, or when one finishes before it ever
    /// delivered; fails on the first failure; either way disposes every source at once. The two- and three-source
    /// forms are chosen first where they apply; this one takes four or more streams of different types, at the cost
    /// of boxing each value on its way through.
    ///
    /// RxSwift: `Observable.combineLatest(_:_:_:_:…)` (up to eight); Combine: `combineLatest` (up to four).
    ///
    /// - Parameter sources: The streams to combine, subscribed in order.
    /// - Returns: The stream of tuples, each with the latest value of every source, in the order of `sources`.
    public static func combineLatest<each Source: ObservableType>(
        _ sources: repeat each Source
    ) -> Observable<Element> where Element == (repeat (each Source).Element) {
        var boxed: [Observable<any Sendable>] = []
        for source in repeat each sources {
            boxed.append(source.map { $0 as any Sendable })
        }
        return Observable<[any Sendable]>.combineLatest(boxed).map { values in
            // Position n of `values` holds the n-th source's value, so each cast names the type it was boxed from.
            var position = 0
            func unbox<Value>(_: Value.Type) -> Value {
                defer { position += 1 }
                return values[position] as! Value
            }
            return (repeat unbox((each Source).Element.self))
        }
    }
}
