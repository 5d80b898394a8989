extension ObservableType {
    /// Subscribes to values and the completion with callbacks that run on the main actor.
    ///
    /// Delivery is applied once, at this subscriber: operators before it see every value, and a mailbox of this
    /// subscriber's own, drained in batches by a task on the main actor, holds what the main actor has not taken
    /// yet, as ``MainActorDelivery/buffer`` says. Values arrive in publish order, the completion after the last
    /// value, and callbacks never overlap and never run under a lock. Once ``Subscription/dispose()`` returns, no
    /// new callback starts; ``Subscription/disposeAndWait()`` called off the main actor also waits for one that is
    /// running.
    ///
    /// - Parameters:
    ///   - delivery: ``MainActorDelivery/mainActor`` or ``MainActorDelivery/mainActor(buffer:)``.
    ///   - onNext: Called on the main actor with each value.
    ///   - onCompletion: Called on the main actor at most once, after the last value.
    /// - Returns: The subscription; hold it or put it in a ``DisposeBag``, or it is disposed when released.
    public func subscribe(
        on delivery: MainActorDelivery,
        onNext: @escaping @MainActor (Element) -> Void,
        onCompletion: @escaping @MainActor (Completion) -> Void
    ) -> Subscription {
        // The mailbox calls these only from its drain, which runs in a task isolated to the main actor.
        subscribe(
            through: DeliveryTarget(
                mailboxOn: .mainActor, buffer: delivery.buffer,
                onNext: { value in MainActor.assumeIsolated { onNext(value) } },
                onCompletion: { completion in MainActor.assumeIsolated { onCompletion(completion) } }))
    }

    /// Subscribes to values with a callback that runs on the main actor, ignoring the completion.
    ///
    /// The guarantees are those of the form with `onCompletion`.
    ///
    /// - Parameters:
    ///   - delivery: ``MainActorDelivery/mainActor`` or ``MainActorDelivery/mainActor(buffer:)``.
    ///   - onNext: Called on the main actor with each value.
    /// - Returns: The subscription; hold it or put it in a ``DisposeBag``, or it is disposed when released.
    public func subscribe(
        on delivery: MainActorDelivery, _ onNext: @escaping @MainActor (Element) -> Void
    ) -> Subscription {
        subscribe(on: delivery, onNext: onNext, onCompletion: { _ in })
    }

    /// Subscribes to values and the completion with callbacks isolated to an actor.
    ///
    /// Each callback receives the actor as its `isolated` first argument. Delivery is applied once, at this
    /// subscriber: a mailbox of its own holds what the actor has not taken yet, as ``ActorDelivery/buffer`` says,
    /// and a task on the actor drains it in batches. Values arrive in publish order, the completion after the last
    /// value, and callbacks never overlap and never run under a lock. Once ``Subscription/dispose()`` returns, no new
    /// callback starts.
    ///
    /// - Parameters:
    ///   - delivery: ``ActorDelivery/actor(_:buffer:)``.
    ///   - onNext: Called on the actor with each value.
    ///   - onCompletion: Called on the actor at most once, after the last value.
    /// - Returns: The subscription; hold it or put it in a ``DisposeBag``, or it is disposed when released.
    public func subscribe<IsolatedActor: Actor>(
        on delivery: ActorDelivery<IsolatedActor>,
        onNext: @escaping @Sendable (isolated IsolatedActor, Element) -> Void,
        onCompletion: @escaping @Sendable (isolated IsolatedActor, Completion) -> Void
    ) -> Subscription {
        let actor = delivery.actor
        // The mailbox calls these only from its drain, which runs isolated to `actor`.
        return subscribe(
            through: DeliveryTarget(
                mailboxOn: .actor(actor), buffer: delivery.buffer,
                onNext: { value in actor.assumeIsolated { onNext($0, value) } },
                onCompletion: { completion in actor.assumeIsolated { onCompletion($0, completion) } }))
    }

    /// Subscribes to values with a callback isolated to an actor, ignoring the completion.
    ///
    /// - Parameters:
    ///   - delivery: ``ActorDelivery/actor(_:buffer:)``.
    ///   - onNext: Called on the actor with each value.
    /// - Returns: The subscription; hold it or put it in a ``DisposeBag``, or it is disposed when released.
    public func subscribe<IsolatedActor: Actor>(
        on delivery: ActorDelivery<IsolatedActor>,
        _ onNext: @escaping @Sendable (isolated IsolatedActor, Element) -> Void
    ) -> Subscription {
        subscribe(on: delivery, onNext: onNext, onCompletion: { _, _ in })
    }

    /// Subscribes upstream synchronously and hands what arrives to `target`, whose mailbox applies the delivery.
    @inlinable
    func subscribe(through target: DeliveryTarget<Element>) -> Subscription {
        target.subscription(disposing: [
            subscribe(on: .immediate, onNext: target.onNext, onCompletion: target.onCompletion)
        ])
    }
}
