import Dispatch
import Testing
import Vigil
import VigilTestSupport

/// Operator state takes no lock: it relies on a subscription's callbacks never overlapping.
@Suite(.timeLimit(.minutes(10))) struct OperatorStateTests {
    #if DEBUG
        /// An `Observable` that breaks its contract (two threads in `onNext` at once) stops at the first overlap in a
        /// debug build instead of silently interleaving the operator's state.
        @Test func overlappingCallbacksTrapInDebugBuilds() async {
            await #expect(processExitsWith: .failure) {
                let firstInside = DispatchSemaphore(value: 0)
                let never = DispatchSemaphore(value: 0)
                let contractBreaker = Observable<Int> { _, onNext, _ in
                    TestThread.detach {
                        firstInside.wait()
                        onNext(2)
                    }
                    onNext(1)
                    return Subscription.disposed()
                }
                let sums = contractBreaker.scan(0) { sum, value in
                    if value == 1 {
                        // Holds the first callback inside the operator's state while the second arrives; a lock
                        // there would make the second wait these 5 s and then run, and the process exit cleanly.
                        firstInside.signal()
                        _ = never.wait(timeout: .now() + 5)
                    }
                    return sum + value
                }
                let subscription = sums.subscribe { _ in }
                subscription.dispose()
            }
        }
    #endif

    /// The operators without a lock stay exact when their upstream is published from many threads at once: the
    /// subject serializes the publishes, so each step sees the state the previous one left (ThreadSanitizer, which
    /// CI runs this under, would report an overlap as a race on that state).
    @Test func unlockedStateStaysExactUnderConcurrentPublishers() {
        let subject = PublishSubject<Int>()
        let counts = Recorder<Int>()
        let chain = subject.map { _ in 1 }.scan(0, +).removeDuplicates().dropFirst(10).prefix(39_980)
        let subscription = counts.subscribe(to: chain)
        concurrently(4) { _ in
            for _ in 0..<10_000 { subject.publish(0) }
        }
        subscription.dispose()
        #expect(counts.values == Array(11...39_990))
        #expect(counts.completionsReceived.map(\.isFinished) == [true])
    }
}
