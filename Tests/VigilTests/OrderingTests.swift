import Dispatch
import Synchronization
import Testing
import Vigil
import VigilTestSupport

@Suite(.timeLimit(.minutes(10))) struct OrderingTests {
    @Test func immediateSubscriberReceivesValuesInPublishOrder() {
        let subject = PublishSubject<Int>()
        let recorder = Recorder<Int>()
        let subscription = recorder.subscribe(to: subject)
        for value in 0..<1000 { subject.publish(value) }
        #expect(recorder.values == Array(0..<1000))
        subscription.dispose()
    }

    @Test func subscribersAreCalledInTheOrderTheySubscribed() {
        let subject = PublishSubject<Int>()
        let log = Recorder<Int>()
        let subscriptions = (0..<5).map { index in subject.subscribe { _ in log.record(index) } }
        subject.publish(1)
        subject.publish(2)
        #expect(log.values == [0, 1, 2, 3, 4, 0, 1, 2, 3, 4])
        subscriptions.forEach { $0.dispose() }
    }

    @Test func manyPublishingThreadsReachEverySubscriberOnceInOneSharedOrder() {
        let subject = BehaviorSubject(-1)
        let threads = 8
        let perThread = 5000
        let recorders = (0..<4).map { _ in Recorder<Int>() }
        let overlapping = Atomic<Int>(0)
        let inside = Atomic<Int>(0)
        let subscriptions = recorders.map { recorder in
            subject.subscribe { value in
                if inside.add(1, ordering: .sequentiallyConsistent).newValue > 1 {
                    overlapping.add(1, ordering: .relaxed)
                }
                recorder.record(value)
                inside.subtract(1, ordering: .sequentiallyConsistent)
            }
        }
        concurrently(threads) { thread in
            for step in 0..<perThread { subject.publish(thread * perThread + step) }
        }
        let reference = recorders[0].values
        #expect(reference.first == -1)
        #expect(Set(reference.dropFirst()) == Set(0..<(threads * perThread)))
        #expect(reference.count == threads * perThread + 1)
        for recorder in recorders.dropFirst() {
            #expect(recorder.values == reference)
        }
        // Each publisher's own values keep their order.
        for thread in 0..<threads {
            let own = reference.filter { $0 >= thread * perThread && $0 < (thread + 1) * perThread }
            #expect(own == own.sorted())
        }
        #expect(overlapping.load(ordering: .relaxed) == 0, "callbacks overlapped")
        #expect(subject.value == reference.last, "value changed in another order than delivery")
        subscriptions.forEach { $0.dispose() }
    }

    @Test func queueDeliveryRunsOnTheQueueInPublishOrder() {
        let subject = PublishSubject<Int>()
        let queue = DispatchQueue(label: "consumer")
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 42)
        let recorder = Recorder<Int>()
        let onQueue = Atomic<Int>(0)
        let subscription = subject.subscribe(on: .queue(queue)) { value in
            if DispatchQueue.getSpecific(key: key) == 42 { onQueue.add(1, ordering: .relaxed) }
            recorder.record(value)
        }
        concurrently(1) { _ in for value in 0..<10_000 { subject.publish(value) } }
        #expect(eventually { recorder.count == 10_000 })
        #expect(recorder.values == Array(0..<10_000))
        #expect(onQueue.load(ordering: .relaxed) == 10_000)
        subscription.dispose()
    }
}
