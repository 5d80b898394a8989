import Dispatch
import Testing
import Vigil
import VigilTestSupport

@Suite(.timeLimit(.minutes(10))) struct TerminationTests {
    @Test func completionReachesEachSubscriberOnceAndLaterPublishesAreIgnored() {
        let subject = BehaviorSubject(1)
        let recorders = (0..<3).map { _ in Recorder<Int>() }
        let subscriptions = recorders.map { $0.subscribe(to: subject) }
        subject.complete()
        subject.complete()
        subject.fail(TestError(code: 1))
        subject.publish(2)
        #expect(subject.value == 1)
        for recorder in recorders {
            #expect(recorder.values == [1])
            #expect(recorder.completionsReceived.count == 1)
            #expect(recorder.completionsReceived.first?.isFinished == true)
        }
        subscriptions.forEach { $0.dispose() }
    }

    @Test func failureReachesSubscribersAndLateSubscribersAtOnce() {
        let subject = PublishSubject<Int>()
        let early = Recorder<Int>()
        let earlySubscription = early.subscribe(to: subject)
        subject.fail(TestError(code: 7))
        let late = Recorder<Int>()
        let lateSubscription = late.subscribe(to: subject)
        for recorder in [early, late] {
            #expect(recorder.completionsReceived.count == 1)
            #expect(recorder.completionsReceived.first?.error as? TestError == TestError(code: 7))
        }
        earlySubscription.dispose()
        lateSubscription.dispose()
    }

    @Test func lateQueueSubscriberGetsTheTerminalEventOnItsQueue() {
        let subject = PublishSubject<Int>()
        subject.complete()
        let queue = DispatchQueue(label: "late")
        let recorder = Recorder<Int>()
        let subscription = recorder.subscribe(to: subject, on: .queue(queue))
        queue.sync {}
        #expect(recorder.completionsReceived.count == 1)
        subscription.dispose()
    }

    @Test func terminationReleasesEverySubscribersClosures() {
        let subject = PublishSubject<Int>()
        weak var weakToken: LifetimeToken?
        let subscription: Subscription
        do {
            let token = LifetimeToken()
            weakToken = token
            subscription = subject.subscribe(onNext: { _ in _ = token }, onCompletion: { _ in _ = token })
        }
        #expect(weakToken != nil)
        subject.complete()
        #expect(weakToken == nil)
        subscription.dispose()
    }

    @Test func completionFromManyThreadsIsDeliveredExactlyOnce() {
        let subject = PublishSubject<Int>()
        let recorder = Recorder<Int>()
        let subscription = recorder.subscribe(to: subject)
        concurrently(8) { index in
            subject.publish(index)
            if index % 2 == 0 { subject.complete() } else { subject.fail(TestError(code: index)) }
        }
        #expect(recorder.completionsReceived.count == 1)
        subscription.dispose()
    }
}
