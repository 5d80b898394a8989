/// A ``BehaviorSubject`` that cannot complete or fail: state that lives as long as its owner.
///
/// It holds ``value``, replays it to each new subscriber, and offers ``publish(_:)``, ``modify(_:)`` and, for
/// `Equatable` values, ``publishIfChanged(_:)``, but no way to end the stream, so code handed the relay can update
/// the state but never end it for everyone else. Subscribers receive `.finished` only when the relay itself is
/// released. Every guarantee of ``BehaviorSubject`` holds, since the relay is a thin wrapper around one.
///
/// ```swift
/// final class Session: Sendable {
///     let userName = BehaviorRelay("guest")
/// }
/// session.userName.modify { $0 = $0.uppercased() }
/// ```
///
/// The name is RxRelay's (`BehaviorRelay`), where the concept comes from: neither the Swift standard library nor
/// Combine has a subject that cannot complete. RxRelay's `accept(_:)` is spelled ``publish(_:)`` here, as on the
/// subjects.
public final class BehaviorRelay<Element: Sendable>: ObservableType {
    @usableFromInline let subject: BehaviorSubject<Element>

    /// Creates a relay holding `value`.
    ///
    /// - Parameter value: The initial value.
    public init(_ value: Element) {
        subject = BehaviorSubject(value)
    }

    /// How many subscriptions are live: subscribed and not yet disposed.
    public var subscriberCount: Int {
        subject.subscriberCount
    }

    /// The latest published value (or the initial one); see ``BehaviorSubject/value``.
    public var value: Element {
        subject.value
    }

    /// Sets ``value`` and delivers it to every subscriber, as ``BehaviorSubject/publish(_:)`` does.
    ///
    /// - Parameter value: The new value.
    @inlinable
    public func publish(_ value: Element) {
        subject.publish(value)
    }

    /// Changes ``value`` in place and publishes the result once, as one atomic step; see
    /// ``BehaviorSubject/modify(_:)``.
    ///
    /// No lock is held while `body` runs, so it may run more than once (only its last run counts) when another
    /// thread's step takes effect meanwhile. Subscribers, of this relay and of subjects `body` publishes to, are
    /// called after the step, so one of them may modify this relay; a `modify` of this relay from inside its own
    /// running `body` on the same thread is rejected, publishing nothing.
    ///
    /// - Parameter body: Changes the value in place; its result is returned.
    /// - Returns: What `body` returned, on its last run.
    /// - Throws: What `body` threw; then nothing was published.
    @discardableResult
    public func modify<Result, Failure: Error>(
        _ body: (inout Element) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try subject.modify(body)
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

extension BehaviorRelay where Element: Equatable {
    /// Publishes `value` only if it differs from ``value``; see ``BehaviorSubject/publishIfChanged(_:)``.
    ///
    /// One step of ``modify(_:)``, with its rules.
    ///
    /// - Parameter value: The candidate new value.
    /// - Returns: Whether `value` was published: false when it equals the current value, or when made on the same
    ///   thread while a `modify` body of this relay runs.
    @discardableResult
    public func publishIfChanged(_ value: Element) -> Bool {
        subject.publishIfChanged(value)
    }
}
