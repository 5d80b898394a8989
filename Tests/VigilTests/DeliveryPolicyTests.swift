import Dispatch
import Synchronization
import Testing
import Vigil

/// Delivery is applied once, at the final subscriber: operators see every value under every policy, and every
/// bounded policy bounds memory.
@Suite(.timeLimit(.minutes(10))) struct DeliveryPolicyTests {
    @Test(arguments: [(BufferPolicy.latest, 1), (.newest(3), 3), (.oldest(3), 3), (.newest(100), 100)])
    func boundedPoliciesHoldAtMostTheirBoundForAStalledConsumer(policy: BufferPolicy, bound: Int) {
        let counter = LiveCounter()
        let subject = PublishSubject<LiveCounter.Tracked>()
        let consumer = DispatchQueue(label: "stalled consumer")
        let unblock = block(consumer)
        let subscription = subject.subscribe(on: .queue(consumer, buffer: policy)) { _ in }
        for number in 0..<200_000 { subject.publish(LiveCounter.Tracked(number, counter: counter)) }
        #expect(counter.count <= bound)
        unblock()
        consumer.sync {}
        subscription.dispose()
        #expect(counter.count == 0)
    }

    @Test(arguments: [BufferPolicy.unbounded, .latest, .newest(1), .oldest(1)])
    func statefulOperatorsSeeEveryValueUnderEveryPolicy(policy: BufferPolicy) {
        let subject = PublishSubject<Int>()
        let consumer = DispatchQueue(label: "consumer")
        let filtered = Recorder<Int>()
        let sums = Recorder<Int>()
        let distinct = Recorder<Int>()
        let unblock = block(consumer)
        let subscriptions = [
            filtered.subscribe(to: subject.filter { $0 > 10 }, on: .queue(consumer, buffer: policy)),
            sums.subscribe(to: subject.scan(0, +), on: .queue(consumer, buffer: policy)),
            distinct.subscribe(to: subject.removeDuplicates(), on: .queue(consumer, buffer: policy)),
        ]
        subject.publish(20)
        subject.publish(5)
        subject.publish(5)
        unblock()
        consumer.sync {}
        switch policy {
        case .unbounded:
            #expect(filtered.values == [20])
            #expect(sums.values == [20, 25, 30])
            #expect(distinct.values == [20, 5])
        case .latest, .newest:
            #expect(filtered.values == [20])
            #expect(sums.values == [30])
            #expect(distinct.values == [5])
        case .oldest:
            #expect(filtered.values == [20])
            #expect(sums.values == [20])
            #expect(distinct.values == [20])
        }
        subscriptions.forEach { $0.dispose() }
    }

    @Test func combineLatestKeepsItsOnlyPairAndCompletesUnderLatest() {
        let first = PublishSubject<Int>()
        let second = PublishSubject<String>()
        let consumer = DispatchQueue(label: "consumer")
        let pairs = Recorder<String>()
        let unblock = block(consumer)
        let subscription = pairs.subscribe(
            to: Observable.combineLatest(first, second).map { "\($0)\($1)" }, on: .queue(consumer, buffer: .latest))
        first.publish(1)
        second.publish("a")
        first.complete()
        second.complete()
        unblock()
        consumer.sync {}
        #expect(pairs.values == ["1a"])
        #expect(pairs.completionsReceived.map(\.isFinished) == [true])
        subscription.dispose()
    }

    @Test func prefixCountsEveryValueNotOnlyTheDeliveredOnes() {
        let subject = PublishSubject<Int>()
        let consumer = DispatchQueue(label: "consumer")
        let taken = Recorder<Int>()
        let unblock = block(consumer)
        let subscription = taken.subscribe(to: subject.prefix(2), on: .queue(consumer, buffer: .latest))
        for value in 1...5 { subject.publish(value) }
        unblock()
        consumer.sync {}
        #expect(taken.values == [2])
        #expect(taken.completionsReceived.count == 1)
        subscription.dispose()
    }
}

/// An operator that terminates disposes all of its upstream subscriptions at once.
@Suite(.timeLimit(.minutes(10))) struct OperatorTerminationTests {
    @Test func combineLatestReleasesTheOtherSourceWhenOneFails() {
        let first = ProbedSource<Int>()
        let second = ProbedSource<Int>()
        let recorder = Recorder<String>()
        let subscription = recorder.subscribe(
            to: Observable.combineLatest(first.observable, second.observable).map { "\($0)\($1)" })
        #expect(first.isSubscribed && second.isSubscribed)
        first.subject.fail(TestError(code: 1))
        #expect(!second.isSubscribed)
        #expect(recorder.completionsReceived.count == 1)
        subscription.dispose()
    }

    @Test func combineLatestReleasesBothSourcesWhenItFinishes() {
        let first = ProbedSource<Int>()
        let second = ProbedSource<Int>()
        let recorder = Recorder<String>()
        let subscription = recorder.subscribe(
            to: Observable.combineLatest(first.observable, second.observable).map { "\($0)\($1)" })
        first.subject.publish(1)
        second.subject.publish(2)
        first.subject.complete()
        #expect(second.isSubscribed)
        second.subject.complete()
        #expect(!first.isSubscribed && !second.isSubscribed)
        #expect(recorder.values == ["12"])
        subscription.dispose()
    }

    @Test func mergeReleasesEverySourceWhenOneFails() {
        let sources = (0..<3).map { _ in ProbedSource<Int>() }
        let recorder = Recorder<Int>()
        let subscription = recorder.subscribe(to: Observable.merge(sources.map(\.observable)))
        sources[0].subject.publish(1)
        sources[1].subject.fail(TestError(code: 2))
        #expect(sources.allSatisfy { !$0.isSubscribed })
        sources[2].subject.publish(3)
        #expect(recorder.values == [1])
        #expect(recorder.completionsReceived.first?.isFailure == true)
        subscription.dispose()
    }

    @Test func mergeReleasesEverySourceWhenAllFinish() {
        let sources = (0..<2).map { _ in ProbedSource<Int>() }
        let recorder = Recorder<Int>()
        let subscription = recorder.subscribe(to: Observable.merge(sources.map(\.observable)))
        sources[0].subject.complete()
        #expect(sources[1].isSubscribed)
        sources[1].subject.complete()
        #expect(sources.allSatisfy { !$0.isSubscribed })
        #expect(recorder.completionsReceived.map(\.isFinished) == [true])
        subscription.dispose()
    }

    @Test func anOperatorAfterATerminatingOneEndsWithIt() {
        let source = ProbedSource<Int>()
        let recorder = Recorder<Int>()
        let subscription = recorder.subscribe(to: source.observable.prefix(1).map { $0 * 10 }.filter { _ in true })
        source.subject.publish(4)
        #expect(!source.isSubscribed)
        #expect(recorder.values == [40])
        #expect(recorder.completionsReceived.count == 1)
        subscription.dispose()
    }
}
