import Dispatch
import Glibc
import Synchronization
import Testing
import Vigil
import VigilTestSupport

@Suite(.timeLimit(.minutes(10))) struct ShareTests {
    @Test func subscribersShareOneUpstreamSubscriptionReleasedWithTheLast() {
        let source = ProbedSource<Int>()
        let shared = source.observable.share()
        let recorders = [Recorder<Int>(), Recorder<Int>()]
        var subscriptions = [recorders[0].subscribe(to: shared)]
        source.subject.publish(1)
        subscriptions.append(recorders[1].subscribe(to: shared))
        source.subject.publish(2)
        #expect(source.subscriptionCount == 1)
        #expect(recorders[0].values == [1, 2] && recorders[1].values == [2])
        subscriptions[0].dispose()
        #expect(source.isSubscribed)
        subscriptions[1].dispose()
        #expect(!source.isSubscribed)

        let again = Recorder<Int>()
        let third = again.subscribe(to: shared)
        #expect(source.subscriptionCount == 2 && source.isSubscribed)
        source.subject.publish(3)
        #expect(again.values == [3])
        third.dispose()
        #expect(!source.isSubscribed)
    }

    @Test func theUpstreamsCompletionReachesEverySubscriberAndTheNextOneResubscribes() {
        let subscriptions = Atomic<Int>(0)
        let source = Observable<Int>.deferred {
            Observable.just(subscriptions.add(1, ordering: .relaxed).newValue)
        }
        .share()
        let first = Recorder<Int>()
        let second = Recorder<Int>()
        let firstSubscription = first.subscribe(to: source)
        let secondSubscription = second.subscribe(to: source)
        #expect(first.values == [1] && first.completionsReceived.map(\.isFinished) == [true])
        #expect(second.values == [2] && second.completionsReceived.map(\.isFinished) == [true])
        firstSubscription.dispose()
        secondSubscription.dispose()

        let failing = PublishSubject<Int>()
        let shared = failing.share()
        let recorders = [Recorder<Int>(), Recorder<Int>()]
        let failures = recorders.map { $0.subscribe(to: shared) }
        failing.fail(TestError(code: 5))
        for recorder in recorders {
            #expect(recorder.completionsReceived.first?.error as? TestError == TestError(code: 5))
        }
        failures.forEach { $0.dispose() }
    }

    @Test func shareReplayGivesAJoinerTheNewestValuesOfTheCurrentSubscription() {
        let source = ProbedSource<Int>()
        let shared = source.observable.share(replay: 2)
        let first = Recorder<Int>()
        let firstSubscription = first.subscribe(to: shared)
        for value in 1...3 { source.subject.publish(value) }
        let joiner = Recorder<Int>()
        let joinerSubscription = joiner.subscribe(to: shared)
        source.subject.publish(4)
        #expect(joiner.values == [2, 3, 4])
        #expect(source.subscriptionCount == 1)
        firstSubscription.dispose()
        joinerSubscription.dispose()
        #expect(!source.isSubscribed)

        let fresh = Recorder<Int>()
        let freshSubscription = fresh.subscribe(to: shared)
        #expect(fresh.values.isEmpty, "a new subscription has nothing to replay")
        source.subject.publish(5)
        #expect(fresh.values == [5])
        freshSubscription.dispose()
    }

    @Test func theFirstSubscriberReceivesWhatTheUpstreamDeliversDuringSubscribe() {
        let state = BehaviorSubject(7)
        let recorder = Recorder<Int>()
        let shared = state.share(replay: 1)
        let first = recorder.subscribe(to: shared)
        let joiner = Recorder<Int>()
        let second = joiner.subscribe(to: shared)
        #expect(recorder.values == [7] && joiner.values == [7])
        first.dispose()
        second.dispose()
    }

    @Test func aSubscriberPublishingIntoTheUpstreamFromItsCallbackDoesNotDeadlock() {
        let subject = PublishSubject<Int>()
        let shared = subject.share(replay: 1)
        let recorder = Recorder<Int>()
        let feedback = shared.subscribe { value in
            if value < 5 { subject.publish(value + 1) }
        }
        let subscription = recorder.subscribe(to: shared)
        #expect(finishes { subject.publish(1) })
        #expect(recorder.values == [1, 2, 3, 4, 5])
        feedback.dispose()
        subscription.dispose()
    }

    @Test func sharedValuesReachAQueueSubscriberOnItsQueue() {
        let subject = PublishSubject<Int>()
        let delivered = QueueRecorder<Int>()
        let subscription = delivered.subscribe(to: subject.share())
        subject.publish(1)
        subject.complete()
        #expect(eventually { delivered.recorder.completionsReceived.count == 1 })
        #expect(delivered.recorder.values == [1])
        #expect(delivered.offQueue == 0)
        subscription.dispose()
    }
}

/// Run under ThreadSanitizer too: `swift test --sanitize=thread --filter ShareReplayConcurrencyTests`.
@Suite(.timeLimit(.minutes(10))) struct ShareReplayConcurrencyTests {
    @Test func joinersAndLeaversOnManyThreadsEachGetTheReplayThenEveryLaterValue() {
        let source = ProbedSource<Int>()
        let shared = source.observable.share(replay: 1)
        let anchor = Recorder<Int>()
        let anchorSubscription = anchor.subscribe(to: shared)
        let publisher = TirelessPublisher(into: source.subject)
        #expect(eventually { anchor.count > 0 })
        let broken = FutexMutex<[String]>([])
        let rounds = Atomic<Int>(0)
        concurrently(4) { thread in
            for round in 0..<40 {
                let joiner = Recorder<Int>()
                let delivery: Delivery = thread.isMultiple(of: 2) ? .immediate : .queue(DispatchQueue(label: "joiner"))
                let subscription = joiner.subscribe(to: shared, on: delivery)
                let enough = eventually { joiner.count >= 3 }
                subscription.disposeAndWait()
                let values = joiner.values
                let gaps = zip(values, values.dropFirst()).filter { $0 + 1 != $1 }
                if !enough || !gaps.isEmpty {
                    broken.withLock { $0.append("thread \(thread) round \(round): \(values.count) values, \(gaps)") }
                }
                rounds.add(1, ordering: .relaxed)
            }
        }
        publisher.stop()
        #expect(rounds.load(ordering: .relaxed) == 160)
        #expect(broken.withLock { $0 }.isEmpty)
        #expect(source.subscriptionCount == 1, "the upstream was subscribed once while the anchor listened")
        let anchorValues = anchor.values
        #expect(zip(anchorValues, anchorValues.dropFirst()).allSatisfy { $0 + 1 == $1 })
        anchorSubscription.dispose()
        #expect(!source.isSubscribed)
    }

    @Test func theLastToLeaveOnOneThreadAndTheFirstToJoinOnAnotherNeverShareADeadSubscription() {
        let source = ProbedSource<Int>()
        let shared = source.observable.share(replay: 1)
        let publisher = TirelessPublisher(into: source.subject)
        let starved = Atomic<Int>(0)
        concurrently(2) { _ in
            for _ in 0..<100 {
                let joiner = Recorder<Int>()
                let subscription = joiner.subscribe(to: shared)
                if !eventually({ joiner.count >= 2 }) { starved.add(1, ordering: .relaxed) }
                subscription.dispose()
            }
        }
        publisher.stop()
        #expect(starved.load(ordering: .relaxed) == 0)
        #expect(!source.isSubscribed)
        #expect(source.subscriptionCount == source.disposalCount)
    }
}
