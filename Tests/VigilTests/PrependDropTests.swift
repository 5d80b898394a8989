import Testing
import Vigil
import VigilTestSupport

@Suite(.timeLimit(.minutes(10))) struct PrependTests {
    @Test func deliversTheValuesThenTheUpstreamsValuesAndCompletion() {
        let subject = PublishSubject<Int>()
        let recorder = Recorder<Int>()
        let subscription = recorder.subscribe(to: subject.prepend(1, 2))
        #expect(recorder.values == [1, 2])
        subject.publish(3)
        subject.complete()
        #expect(recorder.values == [1, 2, 3])
        #expect(recorder.completionsReceived.map(\.isFinished) == [true])
        subscription.dispose()
    }

    @Test func aSequenceIsReadOnceAndEverySubscriptionGetsItBeforeABehaviorSubjectsReplay() {
        let subject = BehaviorSubject(9)
        let prepended = subject.prepend(stride(from: 1, through: 3, by: 1))
        let first = Recorder<Int>()
        let second = Recorder<Int>()
        let subscriptions = [first.subscribe(to: prepended), second.subscribe(to: prepended)]
        #expect(first.values == [1, 2, 3, 9])
        #expect(second.values == [1, 2, 3, 9])
        subscriptions.forEach { $0.dispose() }
    }

    @Test func failurePassesThroughAndUpstreamIsReleasedOnDisposal() {
        let source = ProbedSource<Int>()
        let recorder = Recorder<Int>()
        let subscription = recorder.subscribe(to: source.observable.prepend(0))
        #expect(source.isSubscribed)
        source.subject.fail(TestError(code: 4))
        #expect(recorder.values == [0])
        #expect(recorder.completionsReceived.first?.error as? TestError == TestError(code: 4))
        subscription.dispose()
        #expect(!source.isSubscribed)
    }

    @Test func aPrefixThatEndsInsideThePrependedValuesReleasesTheUpstreamAtOnce() {
        let source = ProbedSource<Int>()
        let recorder = Recorder<Int>()
        let subscription = recorder.subscribe(to: source.observable.prepend(1, 2, 3).prefix(2))
        #expect(recorder.values == [1, 2])
        #expect(recorder.completionsReceived.count == 1)
        #expect(!source.isSubscribed)
        subscription.dispose()
    }

    @Test func aCallbackPublishingIntoTheUpstreamDoesNotDeadlock() {
        let subject = BehaviorSubject(0)
        let recorder = Recorder<Int>()
        let done = finishes {
            let subscription = subject.prepend(-1).subscribe { value in
                recorder.record(value)
                // For the prepended value the subject is not subscribed yet: it replays what was published.
                if value < 3 { subject.publish(value + 2) }
            }
            subscription.dispose()
        }
        #expect(done)
        #expect(recorder.values == [-1, 1, 3])
    }
}

@Suite(.timeLimit(.minutes(10))) struct DropTests {
    @Test func dropFirstSkipsTheFirstValuesOfEachSubscription() {
        let subject = PublishSubject<Int>()
        let dropped = subject.dropFirst(2)
        let first = Recorder<Int>()
        let one = Recorder<Int>()
        let firstSubscription = first.subscribe(to: dropped)
        let oneSubscription = one.subscribe(to: subject.dropFirst())
        subject.publish(1)
        let second = Recorder<Int>()
        let secondSubscription = second.subscribe(to: dropped)
        for value in 2...4 { subject.publish(value) }
        subject.complete()
        #expect(first.values == [3, 4])
        #expect(one.values == [2, 3, 4])
        #expect(second.values == [4])
        #expect(first.completionsReceived.map(\.isFinished) == [true])
        [firstSubscription, oneSubscription, secondSubscription].forEach { $0.dispose() }
    }

    @Test(arguments: [0, -3])
    func dropFirstOfZeroOrLessSkipsNothing(count: Int) {
        let subject = PublishSubject<Int>()
        let recorder = Recorder<Int>()
        let subscription = recorder.subscribe(to: subject.dropFirst(count))
        subject.publish(1)
        #expect(recorder.values == [1])
        subscription.dispose()
    }

    @Test func dropWhileSkipsUntilTheFirstFalseAndThenStopsAsking() {
        let subject = PublishSubject<Int>()
        let recorder = Recorder<Int>()
        let asked = Recorder<Int>()
        let subscription = recorder.subscribe(
            to: subject.drop(while: { value in
                asked.record(value)
                return value < 3
            }))
        for value in [1, 2, 5, 1, 6] { subject.publish(value) }
        subject.fail(TestError(code: 1))
        #expect(recorder.values == [5, 1, 6])
        #expect(asked.values == [1, 2, 5])
        #expect(recorder.completionsReceived.first?.error as? TestError == TestError(code: 1))
        subscription.dispose()
    }

    @Test func aCallbackPublishingIntoTheUpstreamIsQueuedNotNested() {
        let subject = PublishSubject<Int>()
        let recorder = Recorder<Int>()
        let done = finishes {
            let subscription = subject.dropFirst().drop(while: { $0 < 2 }).subscribe { value in
                recorder.record(value)
                if value < 5 { subject.publish(value + 1) }
            }
            subject.publish(0)
            subject.publish(1)
            subject.publish(2)
            subscription.dispose()
        }
        #expect(done)
        #expect(recorder.values == [2, 3, 4, 5])
    }
}

@Suite(.timeLimit(.minutes(10))) struct PrefixWhileTests {
    @Test func deliversWhileTrueThenFinishesAndReleasesTheUpstream() {
        let source = ProbedSource<Int>()
        let recorder = Recorder<Int>()
        let subscription = recorder.subscribe(to: source.observable.prefix(while: { $0 < 3 }))
        source.subject.publish(1)
        source.subject.publish(2)
        #expect(source.isSubscribed)
        source.subject.publish(3)
        #expect(!source.isSubscribed)
        source.subject.publish(1)
        #expect(recorder.values == [1, 2])
        #expect(recorder.completionsReceived.map(\.isFinished) == [true])
        subscription.dispose()
    }

    @Test func theUpstreamsCompletionPassesThroughBeforeTheFirstFalse() {
        let subject = PublishSubject<Int>()
        let recorder = Recorder<Int>()
        let subscription = recorder.subscribe(to: subject.prefix(while: { _ in true }))
        subject.publish(1)
        subject.fail(TestError(code: 2))
        #expect(recorder.values == [1])
        #expect(recorder.completionsReceived.first?.error as? TestError == TestError(code: 2))
        subscription.dispose()
    }

    @Test func aBehaviorSubjectsReplayThatEndsItReleasesTheSubscriptionMadeInsideSubscribe() {
        let subject = BehaviorSubject(5)
        let recorder = Recorder<Int>()
        let (subscription, isReleased) = subscribeTracingRelease(recorder, to: subject) {
            $0.prefix(while: { $0 < 5 })
        }
        subject.publish(1)
        #expect(recorder.values.isEmpty)
        #expect(recorder.completionsReceived.count == 1)
        #expect(eventually(isReleased))
        subscription.dispose()
    }
}

@Suite(.timeLimit(.minutes(10))) struct RemoveDuplicatesByTests {
    @Test func comparesWithTheValueReceivedJustBeforeAsCombineDoes() {
        let subject = PublishSubject<Int>()
        let recorder = Recorder<Int>()
        let subscription = recorder.subscribe(to: subject.removeDuplicates(by: { abs($0 - $1) < 2 }))
        for value in [1, 2, 3, 10, 11, 13] { subject.publish(value) }
        subject.complete()
        // RxSwift's distinctUntilChanged compares with the last delivered value and would also deliver 3.
        #expect(recorder.values == [1, 10, 13])
        #expect(recorder.completionsReceived.map(\.isFinished) == [true])
        subscription.dispose()
    }

    @Test func eachSubscriptionComparesItsOwnValues() {
        let subject = BehaviorSubject("a")
        let distinct = subject.removeDuplicates(by: { $0.lowercased() == $1.lowercased() })
        let first = Recorder<String>()
        let firstSubscription = first.subscribe(to: distinct)
        subject.publish("A")
        let second = Recorder<String>()
        let secondSubscription = second.subscribe(to: distinct)
        subject.publish("b")
        #expect(first.values == ["a", "b"])
        #expect(second.values == ["A", "b"])
        firstSubscription.dispose()
        secondSubscription.dispose()
    }
}

@Suite(.timeLimit(.minutes(10))) struct IgnoreOutputTests {
    @Test(arguments: [true, false])
    func deliversOnlyTheCompletion(fails: Bool) {
        let source = ProbedSource<Int>()
        let recorder = Recorder<Int>()
        let subscription = recorder.subscribe(to: source.observable.ignoreOutput())
        for value in 1...3 { source.subject.publish(value) }
        if fails { source.subject.fail(TestError(code: 5)) } else { source.subject.complete() }
        #expect(recorder.values.isEmpty)
        #expect(recorder.completionsReceived.count == 1)
        #expect(recorder.completionsReceived.first?.isFailure == fails)
        subscription.dispose()
        #expect(!source.isSubscribed)
    }
}
