extension ObservableType {
    /// Delivers the first `count` values, then finishes and disposes the upstream subscription at once.
    ///
    /// With a `count` of zero or less it finishes at once. Counting happens before the subscriber's delivery, so
    /// under a bounded ``BufferPolicy`` the count includes values the mailbox later drops.
    ///
    /// RxSwift: `take(_:)`; Combine: `prefix(_:)`.
    ///
    /// - Parameter count: How many values to deliver before finishing.
    /// - Returns: A stream of at most `count` values.
    public func prefix(_ count: Int) -> Observable<Element> {
        Observable.lifting { target in
            guard count > 0 else {
                target.onCompletion(.finished)
                return []
            }
            let remaining = SerialBox(count)
            let upstreams = UpstreamSet()
            upstreams.add(
                self.subscribe(
                    on: .immediate,
                    onNext: { value in
                        let left = remaining.withValue { remaining -> Int in
                            guard remaining > 0 else { return -1 }
                            remaining -= 1
                            return remaining
                        }
                        guard left >= 0 else { return }
                        target.onNext(value)
                        if left == 0 {
                            target.onCompletion(.finished)
                            upstreams.dispose()
                        }
                    },
                    onCompletion: { completion in
                        if remaining.withValue({ $0 > 0 }) { target.onCompletion(completion) }
                    }
                ))
            return [upstreams]
        }
    }

    /// Delivers values while `predicate` returns true; at the first value for which it returns false, finishes
    /// without that value and disposes the upstream subscription at once.
    ///
    /// `predicate` runs on the publishing thread, before the subscriber's delivery, never under a lock.
    ///
    /// RxSwift: `take(while:)`; Combine: `prefix(while:)`.
    ///
    /// - Parameter predicate: Returns true for a value to deliver; the first false ends the stream.
    /// - Returns: The leading run of values that satisfy `predicate`.
    public func prefix(while predicate: @escaping @Sendable (Element) -> Bool) -> Observable<Element> {
        Observable.lifting { target in
            let upstreams = UpstreamSet()
            upstreams.add(
                self.subscribe(
                    on: .immediate,
                    onNext: { value in
                        // Also guards against a value a concurrent publisher delivered before `add` disposed a
                        // subscription that ended inside `subscribe`.
                        guard !upstreams.isDisposed else { return }
                        guard predicate(value) else {
                            target.onCompletion(.finished)
                            upstreams.dispose()
                            return
                        }
                        target.onNext(value)
                    },
                    onCompletion: { completion in
                        if !upstreams.isDisposed { target.onCompletion(completion) }
                    }
                ))
            return [upstreams]
        }
    }
}
