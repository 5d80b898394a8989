/// What an ``Observable/create(_:)`` body publishes into: the values, then at most one completion.
///
/// Thread-safe: its calls are serialized like a ``PublishSubject``'s publishes (a call made from inside a callback
/// is queued behind the value in flight, never nested), and every call after the completion, or after the
/// subscription was disposed, is ignored. RxSwift: `AnyObserver` (`onNext`, `onCompleted`, `onError`); the closest
/// in the standard library is `AsyncStream.Continuation` (`yield`, `finish`).
public final class Observer<Element: Sendable>: Sendable {
    let relay = PublishSubject<Element>()

    init() {}

    /// Delivers `value` to the subscriber, unless the stream has ended.
    ///
    /// - Parameter value: The next value.
    public func publish(_ value: Element) {
        relay.publish(value)
    }

    /// Ends the stream normally; later calls are ignored.
    public func complete() {
        relay.complete()
    }

    /// Ends the stream with `error`; later calls are ignored.
    ///
    /// - Parameter error: The failure the subscriber receives.
    public func fail(_ error: any Error) {
        relay.fail(error)
    }

    /// Whether the stream is still open: false once completed or failed, or once the subscriber disposed its
    /// subscription. A producing loop can stop when it turns false.
    public var isActive: Bool {
        relay.engine.state.withLock { $0.terminal == nil && !$0.subscribers.isEmpty }
    }
}
