import Dispatch
import Synchronization
import Testing
import Vigil
import VigilTestSupport

/// An owner that records what it is handed; its lifetime is watched through a weak reference.
final class RecordingOwner: Sendable {
    let recorder = Recorder<Int>()
    let bag = DisposeBag()
}

@MainActor final class MainActorOwner {
    var values: [Int] = []
}

@Suite(.timeLimit(.minutes(10))) struct SubscribeWithOwnerTests {
    @Test func callbacksReceiveTheOwner() {
        let subject = PublishSubject<Int>()
        let owner = RecordingOwner()
        let ended = Recorder<Completion>()
        let subscription = subject.subscribe(
            with: owner,
            onNext: { owner, value in owner.recorder.record(value) },
            onCompletion: { _, completion in ended.record(completion) })
        subject.publish(1)
        subject.publish(2)
        subject.complete()
        #expect(owner.recorder.values == [1, 2])
        #expect(ended.count == 1)
        subscription.dispose()
    }

    @Test func releasingTheOwnerEndsTheSubscriptionAtTheNextValue() {
        let subject = PublishSubject<Int>()
        let calls = Atomic<Int>(0)
        weak var weakOwner: RecordingOwner?
        let subscription: Subscription
        do {
            let owner = RecordingOwner()
            weakOwner = owner
            subscription = subject.subscribe(with: owner) { _, _ in calls.add(1, ordering: .relaxed) }
            subject.publish(1)
        }
        #expect(weakOwner == nil)
        #expect(!subscription.isDisposed)
        subject.publish(2)
        #expect(subscription.isDisposed)
        #expect(calls.load(ordering: .relaxed) == 1)
        #expect(subject.subscriberCount == 0)
    }

    @Test func anOwnerKeepingItsSubscriptionIsNotKeptAlive() {
        let subject = BehaviorSubject(0)
        weak var weakOwner: RecordingOwner?
        do {
            let owner = RecordingOwner()
            weakOwner = owner
            subject.subscribe(with: owner) { owner, value in owner.recorder.record(value) }.disposed(by: owner.bag)
            subject.publish(1)
            #expect(owner.recorder.values == [0, 1])
        }
        // No cycle: the owner went away, and with its bag the subscription.
        #expect(weakOwner == nil)
        #expect(subject.subscriberCount == 0)
    }

    @Test func worksWithQueueDelivery() {
        let subject = PublishSubject<Int>()
        let queue = DispatchQueue(label: "consumer")
        let owner = RecordingOwner()
        let subscription = subject.subscribe(with: owner, on: .queue(queue)) { owner, value in
            owner.recorder.record(value)
        }
        for value in 1...5 { subject.publish(value) }
        #expect(eventually { owner.recorder.count == 5 })
        #expect(owner.recorder.values == [1, 2, 3, 4, 5])
        subscription.dispose()
    }

    @Test @MainActor func worksWithMainActorDelivery() async {
        let subject = PublishSubject<Int>()
        var owner: MainActorOwner? = MainActorOwner()
        weak let weakOwner = owner
        let subscription = subject.subscribe(with: owner!, on: .mainActor) { owner, value in owner.values.append(value)
        }
        subject.publish(1)
        #expect(await eventuallyOnMainActor { weakOwner?.values == [1] })
        owner = nil
        #expect(weakOwner == nil)
        subject.publish(2)
        #expect(await eventuallyOnMainActor { subscription.isDisposed })
    }
}
