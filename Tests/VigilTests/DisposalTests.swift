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

@Suite struct ManySubscriptionsTests {
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
            var generator = SplitMix(seed: 42)
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

/// A small deterministic random number generator for reproducible shuffles.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
