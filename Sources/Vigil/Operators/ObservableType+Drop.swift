extension ObservableType {
    /// Skips the first `count` values, then delivers the rest; completion and failure pass through.
    ///
    /// With a `count` of zero or less it skips nothing. Each subscription counts from its own start, before the
    /// subscriber's delivery: under a bounded ``BufferPolicy`` the skipped values are the first that arrive, not the
    /// first the mailbox would have kept.
    ///
    /// RxSwift: `skip(_:)`; Combine: `dropFirst(_:)`.
    ///
    /// - Parameter count: How many values to skip.
    /// - Returns: This stream without its first `count` values.
    public func dropFirst(_ count: Int = 1) -> Observable<Element> {
        Observable.lifting { target in
            let remaining = SerialBox(Swift.max(count, 0))
            return [
                self.subscribe(
                    on: .immediate,
                    onNext: { value in
                        let isSkipped = remaining.withValue { remaining -> Bool in
                            guard remaining > 0 else { return false }
                            remaining -= 1
                            return true
                        }
                        if !isSkipped { target.onNext(value) }
                    },
                    onCompletion: target.onCompletion
                )
            ]
        }
    }

    /// Skips values while `predicate` returns true; from the first value for which it returns false, delivers
    /// everything, and no longer calls `predicate`.
    ///
    /// `predicate` runs on the publishing thread, before the subscriber's delivery, never under a lock.
    ///
    /// RxSwift: `skip(while:)`; Combine: `drop(while:)`.
    ///
    /// - Parameter predicate: Returns true for a value to skip.
    /// - Returns: This stream from the first value that does not satisfy `predicate`.
    public func drop(while predicate: @escaping @Sendable (Element) -> Bool) -> Observable<Element> {
        Observable.lifting { target in
            let isDropping = SerialBox(true)
            return [
                self.subscribe(
                    on: .immediate,
                    onNext: { value in
                        // Callbacks never overlap, so reading and then clearing the flag in two steps is safe, and
                        // the predicate runs outside the lock.
                        if isDropping.withValue({ $0 }) {
                            guard !predicate(value) else { return }
                            isDropping.withValue { $0 = false }
                        }
                        target.onNext(value)
                    },
                    onCompletion: target.onCompletion
                )
            ]
        }
    }
}
