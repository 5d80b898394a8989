/// A subject that holds a current value: a state store with a cached value.
///
/// A new subscriber first receives the current value, then every later one. ``publish(_:)`` updates ``value``
/// before any subscriber is called, so a publisher always reads its own write.
///
/// ```swift
/// let name = BehaviorSubject("zhangsan")
/// let subscription = name.subscribe { print($0) }   // prints "zhangsan"
/// name.publish("lisi")                              // prints "lisi"; name.value == "lisi"
/// ```
///
/// Thread-safe, with the same ordering guarantees as ``PublishSubject``. The replay to a new subscriber happens
/// outside the lock with no gap and no duplicate: a value published by another thread meanwhile reaches the new
/// subscriber exactly once, after the replayed one. Subscribing from inside a callback replays the current value
/// once, right after the value in flight has reached every subscriber. A completed subject replays nothing: late
/// subscribers receive the completion at once.
public final class BehaviorSubject<Element: Sendable>: ObservableType {
    @usableFromInline let engine: SubjectEngine<Element>

    /// Creates a subject holding `value`.
    @inlinable
    public init(_ value: Element) {
        engine = SubjectEngine(current: value)
    }

    deinit {
        engine.terminateOnRelease()
    }

    /// The latest published value (or the initial one); safe to read from any thread.
    ///
    /// It changes when ``publish(_:)`` is called, before delivery. Inside a callback, the delivered argument is the
    /// value being delivered; `value` may already be newer when more publishes are queued behind it. After the
    /// subject completes, `value` keeps the last value published before completion.
    @inlinable
    public var value: Element {
        engine.state.withLock { $0.current! }
    }

    /// Sets ``value`` and delivers it to every subscriber; ignored once the subject has completed or failed.
    ///
    /// Immediate subscribers are called synchronously, inside this call or, when another thread is delivering at
    /// the same moment (or this is called from inside a callback), inside that delivery, right after the value in
    /// flight. Called from inside a ``BehaviorSubject/modify(_:)`` body, they are called once that step is over,
    /// before `modify` returns. Queue subscribers receive it on their queue.
    ///
    /// Called from inside any Vigil callback it never waits: the value is queued behind the one in flight. Called
    /// from outside while another thread is delivering, it queues the value and waits, asleep and for at most
    /// 2 ms, until the value was delivered: backpressure, so a thread publishing without pause cannot trap the
    /// delivering thread or grow the queue without limit. The bound only matters if the delivering thread is
    /// itself blocked, for example on a lock this caller holds.
    @inlinable
    public func publish(_ value: Element) {
        engine.publish(value)
    }

    /// Ends the subject normally: each subscriber receives `.finished` once, after every value published before.
    public func complete() {
        engine.terminate(.finished)
    }

    /// Ends the subject with `error`: each subscriber receives `.failed(error)` once, after every earlier value.
    public func fail(_ error: any Error) {
        engine.terminate(.failed(error))
    }

    /// How many subscriptions are live: subscribed and not yet disposed; zero once the subject has completed.
    ///
    /// A snapshot: other threads may subscribe or dispose at any moment.
    public var subscriberCount: Int {
        engine.subscriberCount
    }

    @inlinable
    public func subscribe(
        on delivery: Delivery,
        onNext: @escaping @Sendable (Element) -> Void,
        onCompletion: @escaping @Sendable (Completion) -> Void
    ) -> Subscription {
        engine.subscribe(on: delivery, onNext: onNext, onCompletion: onCompletion)
    }
}
