/// A subject that replays its newest values to each new subscriber: the last `bufferSize` values, then every later
/// one, and after the end, the last values and then the completion.
///
/// ```swift
/// let log = ReplaySubject<String>(bufferSize: 2)
/// log.publish("a"); log.publish("b"); log.publish("c")
/// let subscription = log.subscribe { print($0) }   // prints "b", "c"
/// log.publish("d")                                 // prints "d"
/// ```
///
/// Thread-safe, with the same ordering guarantees as ``PublishSubject``. The replay to a new subscriber has no gap
/// and no duplicate: a value published by another thread meanwhile reaches it exactly once, after the replayed
/// ones. Memory is bounded: it holds at most `bufferSize` values, and each publish copies them (it is meant for
/// small buffers). When the subject is released, its live subscribers receive `.finished`.
/// RxSwift: `ReplaySubject.create(bufferSize:)`; Combine has none.
public final class ReplaySubject<Element: Sendable>: ObservableType {
    @usableFromInline let engine = SubjectEngine<ReplayWindow<Element>>(current: ReplayWindow())
    @usableFromInline let bufferSize: Int

    /// Creates a subject that replays up to `bufferSize` values; 0 or less replays none (only the completion).
    ///
    /// - Parameter bufferSize: How many of the newest values a new subscriber receives first.
    public init(bufferSize: Int) {
        self.bufferSize = max(bufferSize, 0)
    }

    deinit {
        engine.terminateOnRelease()
    }

    /// Delivers `value` to every current subscriber and keeps it for later ones; ignored once the subject ended.
    ///
    /// Delivered like ``PublishSubject/publish(_:)``: synchronously to immediate subscribers (or queued behind a
    /// delivery in progress, never nested), and through their mailbox to queue subscribers.
    ///
    /// - Parameter value: The value to deliver and keep.
    @inlinable
    public func publish(_ value: Element) {
        let limit = bufferSize
        engine.publishAdvancing { $0.adding(value, limit: limit) }
    }

    /// Publishes `value` from a sharing operator's upstream callback, waiting for a delivery in progress on another
    /// thread (see ``SubjectEngine/publishBackpressured(_:)``).
    @inlinable
    func feed(_ value: Element) {
        let limit = bufferSize
        engine.publishAdvancing(backpressured: true) { $0.adding(value, limit: limit) }
    }

    /// Ends the subject normally: each subscriber receives `.finished` after every value published before; later
    /// subscribers receive the kept values, then `.finished`.
    public func complete() {
        terminate(with: .finished)
    }

    /// Ends the subject with `error`: each subscriber receives the failure after every earlier value; later
    /// subscribers receive the kept values, then the failure.
    ///
    /// - Parameter error: The failure to deliver.
    public func fail(_ error: any Error) {
        terminate(with: .failed(error))
    }

    /// Ends the subject: the terminal window reaches every subscriber, then the engine ends and releases them.
    @usableFromInline
    func terminate(with completion: Completion) {
        engine.publishAdvancing { $0.ending(with: completion) }
        engine.terminate(.finished)
    }

    @inlinable
    public func subscribe(
        on delivery: Delivery,
        onNext: @escaping @Sendable (Element) -> Void,
        onCompletion: @escaping @Sendable (Completion) -> Void
    ) -> Subscription {
        let target = DeliveryTarget(delivery, onNext: onNext, onCompletion: onCompletion)
        let cursor = SerialBox(ReplayCursor())
        @Sendable func perform(_ step: ReplayCursor.Step<Element>) {
            switch step {
            case .none:
                return
            case .values(let values, let completion):
                for value in values { target.onNext(value) }
                if let completion { target.onCompletion(completion) }
            case .added(let value, let completion):
                if let value { target.onNext(value) }
                if let completion { target.onCompletion(completion) }
            }
        }
        let upstream = engine.subscribe(
            on: .immediate,
            onNext: { window in perform(cursor.withValue { $0.receive(window) }) },
            onCompletion: { [weak engine = self.engine] completion in
                let latest = engine?.state.withLock { $0.current }
                perform(cursor.withValue { $0.end(completion, latest: latest) })
            }
        )
        return target.subscription(disposing: [upstream])
    }
}
