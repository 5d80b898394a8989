import Dispatch
import Synchronization
import Testing
import Vigil
import VigilTestSupport

@Suite(.timeLimit(.minutes(10))) struct QueueDeliveryTests {
    @Test func mailboxIsDrainedInBatchesNotOneAsyncPerValue() {
        // One async per value would run the marker block between the first value and the rest.
        let subject = PublishSubject<Int>()
        let queue = DispatchQueue(label: "consumer")
        let log = Recorder<String>()
        let subscription = subject.subscribe(on: .queue(queue)) { log.record("value \($0)") }
        let release = block(queue)
        subject.publish(1)
        queue.async { log.record("marker") }
        for value in 2...100 { subject.publish(value) }
        release()
        #expect(eventually { log.count == 101 })
        #expect(log.values == (1...100).map { "value \($0)" } + ["marker"])
        subscription.dispose()
    }

    @Test(arguments: [
        (BufferPolicy.unbounded, Array(1...100)),
        (BufferPolicy.latest, [100]),
        (BufferPolicy.newest(3), [98, 99, 100]),
        (BufferPolicy.oldest(3), [1, 2, 3]),
    ])
    func boundedBufferDropsByItsPolicyOnly(policy: BufferPolicy, expected: [Int]) {
        let subject = PublishSubject<Int>()
        let queue = DispatchQueue(label: "slow consumer")
        let recorder = Recorder<Int>()
        let subscription = recorder.subscribe(to: subject, on: .queue(queue, buffer: policy))
        let release = block(queue)
        for value in 1...100 { subject.publish(value) }
        subject.complete()
        release()
        #expect(eventually { recorder.completionsReceived.count == 1 })
        #expect(recorder.values == expected)
        subscription.dispose()
    }

    @Test func latestBufferNeverDropsWhenTheConsumerKeepsUp() {
        let subject = PublishSubject<Int>()
        let queue = DispatchQueue(label: "consumer")
        let recorder = Recorder<Int>()
        let subscription = recorder.subscribe(to: subject, on: .queue(queue, buffer: .latest))
        for value in 0..<50 {
            subject.publish(value)
            queue.sync {}
        }
        #expect(recorder.values == Array(0..<50))
        subscription.dispose()
    }

    @Test func disposingDropsValuesStillQueued() {
        let subject = PublishSubject<Int>()
        let queue = DispatchQueue(label: "consumer")
        let recorder = Recorder<Int>()
        let subscription = recorder.subscribe(to: subject, on: .queue(queue))
        let release = block(queue)
        for value in 0..<10 { subject.publish(value) }
        subscription.dispose()
        release()
        queue.sync {}
        #expect(recorder.values.isEmpty)
        #expect(recorder.completionsReceived.isEmpty)
    }

    @Test func completionArrivesOnTheQueueAfterEveryValue() {
        let subject = PublishSubject<Int>()
        let queue = DispatchQueue(label: "consumer")
        let log = Recorder<String>()
        let subscription = subject.subscribe(
            on: .queue(queue),
            onNext: { log.record("\($0)") },
            onCompletion: { _ in log.record("end") }
        )
        for value in 0..<3 { subject.publish(value) }
        subject.complete()
        #expect(eventually { log.count == 4 })
        #expect(log.values == ["0", "1", "2", "end"])
        subscription.dispose()
    }
}
