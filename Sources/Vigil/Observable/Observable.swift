/// The read-only face of a stream of values: what ``ObservableType/asObservable()`` and every operator return.
///
/// An `Observable` holds what it was made from (a subject, or an upstream observable and an operator) and does the
/// subscribing when you subscribe. Holding an observable keeps its subject alive; a subscription does not.
public struct Observable<Element: Sendable>: ObservableType {
    /// The function that performs one subscription.
    public typealias SubscribeFunction =
        @Sendable (
            _ delivery: Delivery,
            _ onNext: @escaping @Sendable (Element) -> Void,
            _ onCompletion: @escaping @Sendable (Completion) -> Void
        ) -> Subscription

    private let subscribeFunction: SubscribeFunction
    /// For an observable of a subject: the same stream holding the subject weakly, for operators that keep their
    /// source for as long as a subscription lives (`retry`), so that they do not keep the subject alive.
    let weaklyHeld: (@Sendable () -> Observable<Element>)?

    /// Creates an observable from the function that performs a subscription.
    ///
    /// The function must honour the delivery (immediate or on the queue), call `onNext` serially, call
    /// `onCompletion` at most once and last, and return a subscription that stops it when disposed. Building on a
    /// subject or on existing operators gives all of that for free.
    ///
    /// Serially means never two calls at once, even from different threads: operators downstream count and
    /// accumulate on that promise (`scan`, `prefix`, `removeDuplicates`), and overlapping calls would reach them in
    /// no defined order. ``Observable/create(_:)`` serializes for you.
    public init(_ subscribe: @escaping SubscribeFunction) {
        subscribeFunction = subscribe
        weaklyHeld = nil
    }

    /// The observable of `subject`, which can also be had holding the subject weakly.
    init<Subject: ReleasableSubject<Element>>(of subject: Subject) {
        subscribeFunction = { delivery, onNext, onCompletion in
            subject.subscribe(on: delivery, onNext: onNext, onCompletion: onCompletion)
        }
        weaklyHeld = { Observable.weaklyHolding(subject) }
    }

    /// Subscribes to `subject` while it exists; once it has been released, a subscriber receives `.finished`, as
    /// the subject's own subscribers did when it went.
    static func weaklyHolding<Subject: ReleasableSubject<Element>>(_ subject: Subject) -> Observable<Element> {
        Observable { [weak subject] delivery, onNext, onCompletion in
            guard let subject else {
                return Observable.empty.subscribe(on: delivery, onNext: onNext, onCompletion: onCompletion)
            }
            return subject.subscribe(on: delivery, onNext: onNext, onCompletion: onCompletion)
        }
    }

    public func subscribe(
        on delivery: Delivery,
        onNext: @escaping @Sendable (Element) -> Void,
        onCompletion: @escaping @Sendable (Completion) -> Void
    ) -> Subscription {
        subscribeFunction(delivery, onNext, onCompletion)
    }
}

/// A subject (or relay): an object whose release finishes its subscribers.
protocol ReleasableSubject<Element>: ObservableType, AnyObject {}

extension PublishSubject: ReleasableSubject {}
extension BehaviorSubject: ReleasableSubject {}
extension ReplaySubject: ReleasableSubject {}
extension PublishRelay: ReleasableSubject {}
extension BehaviorRelay: ReleasableSubject {}
