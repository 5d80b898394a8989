extension ObservableType where Element: Equatable {
    /// Drops a value equal to the one delivered just before it.
    ///
    /// Each subscription compares against its own last value.
    @inlinable
    public func removeDuplicates() -> Observable<Element> {
        Observable { delivery, onNext, onCompletion in
            let last = LockedValue<Element?>(nil)
            return self.subscribe(
                on: delivery,
                onNext: { value in
                    let isNew = last.withLock { last -> Bool in
                        guard last != value else { return false }
                        last = value
                        return true
                    }
                    if isNew { onNext(value) }
                },
                onCompletion: onCompletion
            )
        }
    }
}
