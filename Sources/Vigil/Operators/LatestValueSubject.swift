/// The subject behind `share(replay: 1)`: it keeps the newest value, gives it to each newcomer, then every later
/// value, and after the terminal event gives a newcomer the newest value and then the terminal event, as a
/// ``ReplaySubject`` of one value does.
///
/// A replay subject keeps a window and a cursor per subscriber (a lock of its own, taken for every value); this one
/// is a behavior subject's engine whose cached value is optional until the first value: nil is never delivered. So a
/// shared stream with a replay of one delivers at the cost of a subject.
@usableFromInline
final class LatestValueSubject<Element: Sendable>: ObservableType {
    /// The cached value is `.some(nil)` until the first value: present, so publishes replace it, but nothing to give.
    @usableFromInline let engine = SubjectEngine<Element?>(current: .some(nil), replaysAfterTermination: true)

    @inlinable
    init() {}

    deinit {
        engine.terminateOnRelease()
    }

    @inlinable
    func subscribe(
        on delivery: Delivery,
        onNext: @escaping @Sendable (Element) -> Void,
        onCompletion: @escaping @Sendable (Completion) -> Void
    ) -> Subscription {
        engine.subscribe(
            on: delivery,
            onNext: { value in
                if let value { onNext(value) }
            }, onCompletion: onCompletion)
    }
}

extension LatestValueSubject: SharingSubject {
    @inlinable
    func feed(_ value: Element) {
        engine.publishBackpressured(value)
    }

    @usableFromInline
    func terminate(with completion: Completion) {
        engine.terminate(completion)
    }
}
