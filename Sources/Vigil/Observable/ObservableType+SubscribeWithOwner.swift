extension ObservableType {
    /// Subscribes on behalf of `owner`, held weakly: the callbacks receive it, and the subscription ends once it is
    /// gone.
    ///
    /// The subscription never keeps `owner` alive, so `owner` may keep the subscription (in a ``DisposeBag`` of its
    /// own, say) without a retain cycle, and the callbacks need no `[weak self]`. The first callback that finds
    /// `owner` released is not called: the subscription is disposed instead. RxSwift spells it the same way.
    ///
    /// ```swift
    /// ages.subscribe(with: self) { owner, age in owner.show(age) }.disposed(by: bag)
    /// ```
    ///
    /// - Parameters:
    ///   - owner: The object the callbacks act on; held weakly.
    ///   - delivery: Where the callbacks run; see ``Delivery``.
    ///   - onNext: Called with the owner and each value.
    ///   - onCompletion: Called with the owner at most once, after the last value.
    /// - Returns: The subscription; hold it or put it in a ``DisposeBag``, or it is disposed when released.
    public func subscribe<Owner: AnyObject & Sendable>(
        with owner: Owner,
        on delivery: Delivery = .immediate,
        onNext: @escaping @Sendable (Owner, Element) -> Void,
        onCompletion: @escaping @Sendable (Owner, Completion) -> Void
    ) -> Subscription {
        let link = OwnerLink(owner)
        return link.link(subscribe(on: delivery, onNext: link.bind(onNext), onCompletion: link.bind(onCompletion)))
    }

    /// Subscribes to values on behalf of `owner`, held weakly, ignoring the completion.
    ///
    /// See ``subscribe(with:on:onNext:onCompletion:)-(_,Delivery,_,_)``.
    ///
    /// - Parameters:
    ///   - owner: The object the callback acts on; held weakly.
    ///   - delivery: Where the callback runs; see ``Delivery``.
    ///   - onNext: Called with the owner and each value.
    /// - Returns: The subscription; hold it or put it in a ``DisposeBag``, or it is disposed when released.
    public func subscribe<Owner: AnyObject & Sendable>(
        with owner: Owner,
        on delivery: Delivery = .immediate,
        _ onNext: @escaping @Sendable (Owner, Element) -> Void
    ) -> Subscription {
        subscribe(with: owner, on: delivery, onNext: onNext, onCompletion: { _, _ in })
    }

    /// Subscribes on behalf of `owner`, held weakly, with callbacks that run on the main actor.
    ///
    /// As ``subscribe(with:on:onNext:onCompletion:)``, delivered as `subscribe(on: .mainActor)` delivers.
    ///
    /// - Parameters:
    ///   - owner: The object the callbacks act on (a `@MainActor` class, typically); held weakly.
    ///   - delivery: ``MainActorDelivery/mainActor`` or ``MainActorDelivery/mainActor(buffer:)``.
    ///   - onNext: Called on the main actor with the owner and each value.
    ///   - onCompletion: Called on the main actor with the owner at most once, after the last value.
    /// - Returns: The subscription; hold it or put it in a ``DisposeBag``, or it is disposed when released.
    public func subscribe<Owner: AnyObject & Sendable>(
        with owner: Owner,
        on delivery: MainActorDelivery,
        onNext: @escaping @MainActor (Owner, Element) -> Void,
        onCompletion: @escaping @MainActor (Owner, Completion) -> Void
    ) -> Subscription {
        let link = OwnerLink(owner)
        return link.link(
            subscribe(
                on: delivery, onNext: link.bindOnMainActor(onNext), onCompletion: link.bindOnMainActor(onCompletion)))
    }

    /// Subscribes to values on behalf of `owner`, held weakly, with a callback that runs on the main actor.
    ///
    /// - Parameters:
    ///   - owner: The object the callback acts on (a `@MainActor` class, typically); held weakly.
    ///   - delivery: ``MainActorDelivery/mainActor`` or ``MainActorDelivery/mainActor(buffer:)``.
    ///   - onNext: Called on the main actor with the owner and each value.
    /// - Returns: The subscription; hold it or put it in a ``DisposeBag``, or it is disposed when released.
    public func subscribe<Owner: AnyObject & Sendable>(
        with owner: Owner,
        on delivery: MainActorDelivery,
        _ onNext: @escaping @MainActor (Owner, Element) -> Void
    ) -> Subscription {
        subscribe(with: owner, on: delivery, onNext: onNext, onCompletion: { _, _ in })
    }
}
