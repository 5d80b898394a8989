import Testing
import Vigil
import VigilTestSupport

/// Operator state relies on a subscription's callbacks never overlapping, whichever threads publish.
@Suite(.timeLimit(.minutes(10))) struct OperatorStateTests {
    /// Stateful operators stay exact when their upstream is published from many threads at once: the subject
    /// serializes the publishes, so each step sees the state the previous one left, in publish order.
    @Test func operatorStateStaysExactUnderConcurrentPublishers() {
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
