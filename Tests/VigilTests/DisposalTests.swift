import Dispatch
import Synchronization
import Testing
import Vigil

@Suite struct DisposalTests {
    @Test func disposeIsIdempotentAndThreadSafe() {
        let subject = PublishSubject<Int>()
        let recorder = Recorder<Int>()
        let subscription = recorder.subscribe(to: subject)
        concurrently(8) { _ in
            for _ in 0..<100 { subscription.dispose() }
        }
        #expect(subscription.isDisposed)
        subject.publish(1)
        #expect(recorder.values.isEmpty)
    }

    @Test func releasedSubscriptionStops() {
        let subject = PublishSubject<Int>()
        let recorder = Recorder<Int>()
        do {
            _ = recorder.subscribe(to: subject)
        }
        subject.publish(1)
        #expect(recorder.values.isEmpty)
    }

    @Test(arguments: [false, true])
    func noCallbackStartsAfterDisposeReturns(onQueue: Bool) {
        // A publisher thread delivers continuously while this thread disposes subscribers one by one.
        let subject = PublishSubject<Int>()
        let running = Atomic<Bool>(true)
        let publisher = DispatchQueue(label: "publisher")
        let consumer = DispatchQueue(label: "consumer")
        let delivery: Delivery = onQueue ? .queue(consumer) : .immediate
        publisher.async {
            var value = 0
            while running.load(ordering: .relaxed) {
                subject.publish(value)
                value += 1
            }
        }
        let violations = Atomic<Int>(0)
        for _ in 0..<200 {
            let disposed = Atomic<Bool>(false)
            let calls = Atomic<Int>(0)
            let subscription = subject.subscribe(on: delivery) { _ in
                calls.add(1, ordering: .relaxed)
                if disposed.load(ordering: .acquiring) { violations.add(1, ordering: .relaxed) }
            }
            _ = eventually(timeout: 1) { calls.load(ordering: .relaxed) > 0 }
            subscription.dispose()
            disposed.store(true, ordering: .releasing)
        }
        running.store(false, ordering: .relaxed)
        publisher.sync {}
        consumer.sync {}
        #expect(violations.load(ordering: .relaxed) == 0)
    }

    @Test(arguments: [false, true])
    func disposalReleasesTheClosures(onQueue: Bool) {
        let subject = BehaviorSubject(0)
        let queue = DispatchQueue(label: "consumer")
        weak var weakToken: LifetimeToken?
        let subscription: Subscription
        do {
            let token = LifetimeToken()
            weakToken = token
            subscription = subject.subscribe(
                on: onQueue ? .queue(queue) : .immediate,
                onNext: { _ in _ = token },
                onCompletion: { _ in _ = token }
            )
        }
        subject.publish(1)
        queue.sync {}
        #expect(weakToken != nil)
        subscription.dispose()
        queue.sync {}
        #expect(weakToken == nil)
    }

    @Test func operatorChainDisposalDisposesUpstream() {
        let subject = PublishSubject<Int>()
        weak var weakToken: LifetimeToken?
        let subscription: Subscription
        do {
            let token = LifetimeToken()
            weakToken = token
            subscription = subject.map { $0 * 2 }.filter { _ in
                _ = token; return true
            }.subscribe { _ in }
        }
        #expect(weakToken != nil)
        subscription.dispose()
        #expect(weakToken == nil)
    }
}
