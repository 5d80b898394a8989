import Dispatch

extension ObservableType {
    /// Delivers at most one value per `interval`, timed on `queue`.
    ///
    /// A value arriving while idle is delivered at once and opens a window of `interval`; values arriving inside
    /// the window are held (the newest if `latest`, else the first) and the held one is delivered when the window
    /// closes, opening the next. On finish, a held value is delivered before the completion; a failure is delivered
    /// at once. Values pass through `queue` (serially), then reach the subscriber as its delivery says.
    public func throttle(_ interval: Duration, on queue: DispatchQueue, latest: Bool) -> Observable<Element> {
        Observable.lifting { target in
            let serial = DispatchQueue(label: "vigil.throttle", target: queue)
            let relay = PublishSubject<Element>()
            let downstream = relay.subscribe(
                on: .immediate, onNext: target.onNext, onCompletion: target.onCompletion)
            let window = SerialBox(ThrottleWindow<Element>())
            @Sendable func closeWindow() {
                let held = window.withValue { $0.close() }
                guard let held else { return }
                relay.publish(held)
                serial.asyncAfter(deadline: .now() + interval.dispatchInterval, execute: closeWindow)
            }
            let upstream = self.subscribe(
                on: .queue(serial),
                onNext: { value in
                    let opens = window.withValue { $0.receive(value, keepLatest: latest) }
                    guard opens else { return }
                    relay.publish(value)
                    serial.asyncAfter(deadline: .now() + interval.dispatchInterval, execute: closeWindow)
                },
                onCompletion: { completion in
                    if case .finished = completion, let held = window.withValue({ $0.flush() }) {
                        relay.publish(held)
                    }
                    relay.terminate(with: completion)
                }
            )
            return [downstream, upstream]
        }
    }
}

/// Throttle's state: whether a window is open and what it holds.
struct ThrottleWindow<Element: Sendable>: Sendable {
    private var isOpen = false
    private var held: Element?

    /// Returns true when the value opens a new window and is to be delivered now; otherwise holds it.
    mutating func receive(_ value: Element, keepLatest: Bool) -> Bool {
        guard isOpen else {
            isOpen = true
            return true
        }
        if keepLatest || held == nil { held = value }
        return false
    }

    /// Closes the window; returns the held value, which opens the next window, or nil (the window stays closed).
    mutating func close() -> Element? {
        guard let value = held else {
            isOpen = false
            return nil
        }
        held = nil
        return value
    }

    /// Takes the held value at completion.
    mutating func flush() -> Element? {
        defer { held = nil }
        return held
    }
}

extension PublishSubject {
    /// Completes or fails as `completion` says.
    func terminate(with completion: Completion) {
        switch completion {
        case .finished: complete()
        case .failed(let error): fail(error)
        }
    }
}
