import Dispatch
import Synchronization
import Testing
import Vigil
import VigilTestSupport

@Suite(.timeLimit(.minutes(10))) struct DisposalTests {
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

    @Test(arguments: [false, true], [false, true])
    func afterDisposeOnlyTheCallbackAlreadyRunningMayFinish(onQueue: Bool, waiting: Bool) {
        // A publisher thread delivers continuously while this thread disposes subscribers one by one. After
        // dispose() returns, at most the one callback that had already started may still run; after
        // disposeAndWait() returns, none.
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
        let worst = Atomic<Int>(0)
        for _ in 0..<200 {
            let disposed = Atomic<Bool>(false)
            let calls = Atomic<Int>(0)
            let late = Atomic<Int>(0)
            let subscription = subject.subscribe(on: delivery) { _ in
                calls.add(1, ordering: .relaxed)
                if disposed.load(ordering: .acquiring) { late.add(1, ordering: .relaxed) }
            }
            _ = eventually(timeout: 1) { calls.load(ordering: .relaxed) > 0 }
            if waiting { subscription.disposeAndWait() } else { subscription.dispose() }
            disposed.store(true, ordering: .releasing)
            usleepMilliseconds(1)
            worst.max(late.load(ordering: .relaxed))
        }
        running.store(false, ordering: .relaxed)
        publisher.sync {}
        consumer.sync {}
        #expect(worst.load(ordering: .relaxed) <= (waiting ? 0 : 1))
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

@Suite(.timeLimit(.minutes(10))) struct ManySubscriptionsTests {
    @Test(arguments: ["oldest first", "newest first", "shuffled"])
    func disposingManyInAnyOrderKeepsTheRestInSubscriptionOrder(order: String) {
        let subject = PublishSubject<Int>()
        let log = Recorder<Int>()
        var subscriptions = (0..<2000).map { index in subject.subscribe { _ in log.record(index) } }
        let keep = Set(stride(from: 0, to: 2000, by: 7))
        var doomed = Array((0..<2000).filter { !keep.contains($0) })
        switch order {
        case "newest first": doomed.reverse()
        case "shuffled":
            var generator = SeededRandom(seed: 42)
            doomed.shuffle(using: &generator)
        default: break
        }
        for index in doomed { subscriptions[index].dispose() }
        subject.publish(1)
        #expect(log.values == keep.sorted())
        subscriptions.removeAll()
        subject.publish(2)
        #expect(log.values == keep.sorted())
    }
}
