extension Observable {
    /// An operator: `subscribeUpstream` receives the subscriber's callbacks with its delivery applied (a target),
    /// subscribes upstream with `.immediate`, runs the operator's logic on every value, and returns what to dispose.
    ///
    /// So the delivery is applied once, at the final subscriber: the operator sees every value under every buffer
    /// policy, and only its output waits in the mailbox.
    @inlinable
    static func lifting(
        _ subscribeUpstream: @escaping @Sendable (DeliveryTarget<Element>) -> [any Disposable]
    ) -> Observable<Element> {
        Observable { delivery, onNext, onCompletion in
            let target = DeliveryTarget(delivery, onNext: onNext, onCompletion: onCompletion)
            return target.subscription(disposing: subscribeUpstream(target))
        }
    }
}
