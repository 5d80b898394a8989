extension ObservableType {
    /// Drops a value that `isDuplicate` says repeats the one delivered just before it.
    ///
    /// `isDuplicate(previous, current)` returns true to drop `current`; the first value is always delivered. As in
    /// Combine, `previous` is the value received just before, delivered or not (RxSwift's `distinctUntilChanged`
    /// compares with the last delivered one; the two differ only for a non-transitive `isDuplicate`). Each
    /// subscription compares its own values, before the subscriber's delivery, so a bounded ``BufferPolicy`` does
    /// not change what counts as a repeat. `isDuplicate` runs on the publishing thread, never under a lock.
    ///
    /// RxSwift: `distinctUntilChanged(_:)`; Combine: `removeDuplicates(by:)`.
    ///
    /// - Parameter isDuplicate: Returns true when the second value repeats the first.
    /// - Returns: This stream without consecutive repeats.
    @inlinable
    public func removeDuplicates(
        by isDuplicate: @escaping @Sendable (Element, Element) -> Bool
    ) -> Observable<Element> {
        Observable.lifting { target in
            let last = SerialBox<Element?>(nil)
            return [
                self.subscribe(
                    on: .immediate,
                    onNext: { value in
                        let previous = last.withValue { last in
                            defer { last = value }
                            return last
                        }
                        if let previous, isDuplicate(previous, value) { return }
                        target.onNext(value)
                    },
                    onCompletion: target.onCompletion
                )
            ]
        }
    }
}

extension ObservableType where Element: Equatable {
    /// Drops a value equal to the one delivered just before it.
    ///
    /// Each subscription compares against its own last value.
    ///
    /// RxSwift: `distinctUntilChanged()`; Combine: `removeDuplicates()`.
    ///
    /// - Returns: This stream without consecutive repeats.
    @inlinable
    public func removeDuplicates() -> Observable<Element> {
        removeDuplicates(by: ==)
    }
}
