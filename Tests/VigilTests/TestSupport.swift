import Dispatch
import Glibc
import Synchronization
import Vigil
import VigilTestSupport

/// Collects values from callbacks on any thread.
final class Recorder<Value: Sendable>: Sendable {
    private let storage = FutexMutex<[Value]>([])
    private let completions = FutexMutex<[Completion]>([])

    var values: [Value] { storage.withLock { $0 } }
    var completionsReceived: [Completion] { completions.withLock { $0 } }
    var count: Int { storage.withLock { $0.count } }

    func record(_ value: Value) { storage.withLock { $0.append(value) } }
    func recordCompletion(_ completion: Completion) { completions.withLock { $0.append(completion) } }

    /// Subscribes to `source` and records everything.
    func subscribe(to source: some ObservableType<Value>, on delivery: Delivery = .immediate) -> Subscription {
        source.subscribe(on: delivery, onNext: { self.record($0) }, onCompletion: { self.recordCompletion($0) })
    }
}

/// An object whose lifetime tests observe through a weak reference.
final class LifetimeToken: Sendable {}

struct TestError: Error, Equatable {
    let code: Int
}

func usleepMilliseconds(_ milliseconds: Int) {
    let semaphore = DispatchSemaphore(value: 0)
    _ = semaphore.wait(timeout: .now() + .milliseconds(milliseconds))
}

/// Blocks `queue` until the returned function is called.
func block(_ queue: DispatchQueue) -> @Sendable () -> Void {
    let gate = DispatchSemaphore(value: 0)
    let entered = DispatchSemaphore(value: 0)
    queue.async {
        entered.signal()
        gate.wait()
    }
    entered.wait()
    return { gate.signal() }
}

extension Completion {
    var isFailure: Bool { !isFinished }
}

/// Counts live instances: each one counts itself while it exists.
final class LiveCounter: Sendable {
    private let live = Atomic<Int>(0)
    var count: Int { live.load(ordering: .acquiring) }

    /// A value that counts itself here while it lives.
    final class Tracked: Sendable {
        let counter: LiveCounter
        let number: Int

        init(_ number: Int, counter: LiveCounter) {
            self.number = number
            self.counter = counter
            counter.live.add(1, ordering: .relaxed)
        }

        deinit {
            counter.live.subtract(1, ordering: .relaxed)
        }
    }
}

/// A source that counts its subscriptions and disposals: for checking that operators subscribe when they should
/// and release their upstream when they end.
final class ProbedSource<Value: Sendable>: Sendable {
    let subject = PublishSubject<Value>()
    private let subscriptions = Atomic<Int>(0)
    private let disposals = Atomic<Int>(0)

    var subscriptionCount: Int { subscriptions.load(ordering: .acquiring) }
    var disposalCount: Int { disposals.load(ordering: .acquiring) }
    /// Subscribed and not yet disposed.
    var isSubscribed: Bool { subscriptionCount > disposalCount }

    var observable: Observable<Value> {
        Observable { delivery, onNext, onCompletion in
            self.subscriptions.add(1, ordering: .relaxed)
            let inner = self.subject.subscribe(on: delivery, onNext: onNext, onCompletion: onCompletion)
            return Subscription {
                self.disposals.add(1, ordering: .relaxed)
                inner.dispose()
            }
        }
    }
}

extension Atomic where Value == Int {
    /// Raises the value to `candidate` if it is larger.
    func max(_ candidate: Int) {
        var current = load(ordering: .relaxed)
        while candidate > current {
            let (exchanged, found) = compareExchange(expected: current, desired: candidate, ordering: .relaxed)
            if exchanged { return }
            current = found
        }
    }
}

/// Publishes 0, 1, 2, … into a subject without pause, on a queue of its own, until ``stop()``.
final class TirelessPublisher: Sendable {
    private let running = Atomic<Bool>(true)
    private let queue = DispatchQueue(label: "tireless publisher")

    init(into subject: PublishSubject<Int>) {
        queue.async { [self] in
            var value = 0
            while isRunning {
                subject.publish(value)
                value += 1
            }
        }
    }

    var isRunning: Bool { running.load(ordering: .relaxed) }

    /// Stops publishing; returns once the last publish has returned.
    func stop() {
        running.store(false, ordering: .relaxed)
        queue.sync {}
    }
}
