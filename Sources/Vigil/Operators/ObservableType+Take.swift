extension ObservableType {
    /// Delivers the first `count` values, then finishes and disposes the upstream subscription at once.
    ///
    /// With a `count` of zero or less it finishes at once.
    public func take(_ count: Int) -> Observable<Element> {
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
}
