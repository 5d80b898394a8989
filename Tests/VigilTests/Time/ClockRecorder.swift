import Vigil
import VigilTesting

/// One callback a subscriber received, with the manual clock's time when it ran.
enum Timed<Value: Equatable & Sendable>: Equatable, Sendable {
    case value(Value, at: Duration)
    case finished(at: Duration)
    /// A failure, by its error's description.
    case failed(String, at: Duration)
}

/// Records every callback with the time of `clock`, from any thread.
final class ClockRecorder<Value: Equatable & Sendable>: Sendable {
    let clock: ManualClock
    private let storage = FutexMutex<[Timed<Value>]>([])

    init(clock: ManualClock) {
        self.clock = clock
    }

    var events: [Timed<Value>] { storage.withLock { $0 } }
    var count: Int { storage.withLock { $0.count } }

    /// Subscribes to `source` and records everything it delivers.
    func subscribe(to source: some ObservableType<Value>, on delivery: Delivery = .immediate) -> Subscription {
        source.subscribe(
            on: delivery,
            onNext: { value in self.append(.value(value, at: self.clock.now.offset)) },
            onCompletion: { completion in
                let time = self.clock.now.offset
                switch completion {
                case .finished: self.append(.finished(at: time))
                case .failed(let error): self.append(.failed(String(describing: error), at: time))
                }
            }
        )
    }

    private func append(_ event: Timed<Value>) {
        storage.withLock { $0.append(event) }
    }
}

/// The setup most time tests share: a manual clock, a subject, and a recorder subscribed to `timed(subject, clock)`.
func recording(
    _ timed: (PublishSubject<Int>, ManualClock) -> Observable<Int>
) -> (ManualClock, PublishSubject<Int>, ClockRecorder<Int>, Subscription) {
    let clock = ManualClock()
    let subject = PublishSubject<Int>()
    let recorder = ClockRecorder<Int>(clock: clock)
    return (clock, subject, recorder, recorder.subscribe(to: timed(subject, clock)))
}

/// Milliseconds, for reading exact expectations.
func ms(_ milliseconds: Int) -> Duration {
    .milliseconds(milliseconds)
}

/// Waits, without blocking a thread of the concurrency pool, up to `timeout` seconds for `condition`; returns
/// whether it became true. For what a manual clock cannot settle: callbacks delivered on a queue.
func eventuallyAsync(timeout: Double = 10, _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now.advanced(by: .seconds(timeout))
    while ContinuousClock.now < deadline {
        if condition() { return true }
        await Task.yield()
        try? await Task.sleep(for: .milliseconds(1))
    }
    return condition()
}
