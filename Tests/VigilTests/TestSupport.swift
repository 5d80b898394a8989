import Dispatch
import Synchronization
import Vigil

/// Collects values from callbacks on any thread.
final class Recorder<Value: Sendable>: Sendable {
    private let storage = Mutex<[Value]>([])
    private let completions = Mutex<[Completion]>([])

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

/// Waits up to `timeout` seconds for `condition`, polling; returns whether it became true.
func eventually(timeout: Double = 10, _ condition: () -> Bool) -> Bool {
    let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(timeout * 1e9)
    while DispatchTime.now().uptimeNanoseconds < deadline {
        if condition() { return true }
        usleepMilliseconds(1)
    }
    return condition()
}

func usleepMilliseconds(_ milliseconds: Int) {
    let semaphore = DispatchSemaphore(value: 0)
    _ = semaphore.wait(timeout: .now() + .milliseconds(milliseconds))
}

/// Runs `body(index)` on `count` threads at once and waits for all.
func concurrently(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    DispatchQueue.concurrentPerform(iterations: count, execute: body)
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
