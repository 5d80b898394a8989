extension ObservableType where Element: Equatable {
    /// Drops a value equal to the one delivered just before it.
    ///
    /// Each subscription compares against its own last value.
    @inlinable
    public func removeDuplicates() -> Observable<Element> {
        Observable.lifting { target in
            let last = SerialBox<Element?>(nil)
            return [
                self.subscribe(
                    on: .immediate,
                    onNext: { value in
                        let isNew = last.withValue { last -> Bool in
                            guard last != value else { return false }
                            last = value
                            return true
                        }
                        if isNew { target.onNext(value) }
                    },
                    onCompletion: target.onCompletion
                )
            ]
        }
    }
}
