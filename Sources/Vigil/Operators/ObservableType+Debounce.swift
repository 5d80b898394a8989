import Dispatch

extension ObservableType {
    /// Delivers a value only after `interval` has passed without a newer one, timed on `queue`.
    ///
    /// On finish, a value still waiting is delivered before the completion; a failure is delivered at once and
    /// drops it. Values pass through `queue` (serially), then reach the subscriber as its delivery says.
    public func debounce(_ interval: Duration, on queue: DispatchQueue) -> Observable<Element> {
        Observable.lifting { target in
            let serial = DispatchQueue(label: "vigil.debounce", target: queue)
            let relay = PublishSubject<Element>()
            let downstream = relay.subscribe(
                on: .immediate, onNext: target.onNext, onCompletion: target.onCompletion)
            let waiting = SerialBox(DebounceState<Element>())
            let upstream = self.subscribe(
                on: .queue(serial),
                onNext: { value in
                    let generation = waiting.withValue { $0.hold(value) }
                    serial.asyncAfter(deadline: .now() + interval.dispatchInterval) {
                        if let due = waiting.withValue({ $0.take(ifGeneration: generation) }) {
                            relay.publish(due)
                        }
                    }
                },
                onCompletion: { completion in
                    let due = waiting.withValue { $0.takeAny() }
                    if case .finished = completion, let due { relay.publish(due) }
                    relay.terminate(with: completion)
                }
            )
            return [downstream, upstream]
        }
    }
}

/// Debounce's state: the value waiting and a generation that each newer value advances.
struct DebounceState<Element: Sendable>: Sendable {
    private var waiting: Element?
    private var generation = 0

    mutating func hold(_ value: Element) -> Int {
        waiting = value
        generation += 1
        return generation
    }

    /// Takes the waiting value if no newer one arrived since `generation`.
    mutating func take(ifGeneration expected: Int) -> Element? {
        guard expected == generation else { return nil }
        defer { waiting = nil }
        return waiting
    }

    mutating func takeAny() -> Element? {
        defer { waiting = nil }
        return waiting
    }
}
