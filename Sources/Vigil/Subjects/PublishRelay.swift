/// A ``PublishSubject`` that cannot complete or fail: events that live as long as their owner.
///
/// Only ``publish(_:)`` is offered, so code handed the relay can send values but can never end the stream for
/// everyone else. Subscribers receive `.finished` only when the relay itself is released. Every guarantee of
/// ``PublishSubject`` holds, since the relay is a thin wrapper around one.
///
/// The name is RxRelay's (`PublishRelay`), where the concept comes from: neither the Swift standard library nor
/// Combine has a subject that cannot complete. RxRelay's `accept(_:)` is spelled ``publish(_:)`` here, as on the
/// subjects.
public final class PublishRelay<Element: Sendable>: ObservableType {
    @usableFromInline let subject = PublishSubject<Element>()

    /// Creates a relay with no subscribers.
    public init() {}

    /// How many subscriptions are live: subscribed and not yet disposed.
    public var subscriberCount: Int {
        subject.subscriberCount
    }

    /// Delivers `value` to every current subscriber, as ``PublishSubject/publish(_:)`` does.
    ///
    /// - Parameter value: The value to deliver.
    @inlinable
    public func publish(_ value: Element) {
        subject.publish(value)
    }

    @inlinable
    public func subscribe(
        on delivery: Delivery,
        onNext: @escaping @Sendable (Element) -> Void,
        onCompletion: @escaping @Sendable (Completion) -> Void
    ) -> Subscription {
        subject.subscribe(on: delivery, onNext: onNext, onCompletion: onCompletion)
    }
}
