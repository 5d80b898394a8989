/// Something that delivers values of one type to subscribers, then at most one completion.
///
/// Conforming types are ``PublishSubject``, ``BehaviorSubject`` and ``Observable`` (the read-only face that
/// operators and ``ObservableType/asObservable()`` return). Every operator is an extension of this protocol, so it
/// applies to subjects and observables alike.
public protocol ObservableType<Element>: Sendable {
    /// The type of the values delivered.
    associatedtype Element: Sendable

    /// Subscribes to values and to the completion.
    ///
    /// Callbacks run on the thread that `delivery` names and never under one of Vigil's locks, so they may publish,
    /// subscribe or dispose freely. Per subscriber, callbacks never overlap and values arrive in publish order.
    ///
    /// - Parameters:
    ///   - delivery: Where callbacks run: ``Delivery/immediate`` or ``Delivery/queue(_:buffer:)``.
    ///   - onNext: Called with each value.
    ///   - onCompletion: Called at most once, after the last value.
    /// - Returns: The subscription. It is disposed when it is released, so hold it or put it in a ``DisposeBag``.
    func subscribe(
        on delivery: Delivery,
        onNext: @escaping @Sendable (Element) -> Void,
        onCompletion: @escaping @Sendable (Completion) -> Void
    ) -> Subscription
}
