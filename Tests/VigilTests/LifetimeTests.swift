import Synchronization
import Testing
import Vigil

@Suite(.timeLimit(.minutes(10))) struct LifetimeTests {
    @Test func releasedSubjectIsDeallocatedAndItsLiveSubscribersFinish() {
        weak var weakSubject: PublishSubject<Int>?
        let recorder = Recorder<Int>()
        let subscription: Subscription
        do {
            let subject = PublishSubject<Int>()
            weakSubject = subject
            subscription = recorder.subscribe(to: subject)
            subject.publish(1)
        }
        #expect(weakSubject == nil)
        #expect(recorder.values == [1])
        #expect(recorder.completionsReceived.count == 1)
        #expect(recorder.completionsReceived.first?.isFinished == true)
        subscription.dispose()
    }

    @Test func releasedBehaviorSubjectIsDeallocatedEvenWhenTheCallbackCapturesTheSubscription() {
        weak var weakSubject: BehaviorSubject<Int>?
        weak var weakToken: LifetimeToken?
        let bag = DisposeBag()
        do {
            let subject = BehaviorSubject(0)
            let token = LifetimeToken()
            weakSubject = subject
            weakToken = token
            subject.subscribe { _ in _ = token }.disposed(by: bag)
        }
        #expect(weakSubject == nil)
        #expect(weakToken == nil, "termination released the observer")
        bag.dispose()
    }

    @Test func subscriptionHeldByItsOwnObserverFormsNoCycle() {
        weak var weakOwner: Owner?
        weak var weakSubject: PublishSubject<Int>?
        do {
            let subject = PublishSubject<Int>()
            let owner = Owner()
            weakOwner = owner
            weakSubject = subject
            let subscription = subject.subscribe { [owner] _ in owner.touch() }
            owner.subscription.withLock { $0 = subscription }
        }
        #expect(weakSubject == nil)
        #expect(weakOwner == nil)
    }
}

/// An object that holds its own subscription, which captures the object.
private final class Owner: Sendable {
    let subscription = FutexMutex<Subscription?>(nil)

    func touch() {}
}
