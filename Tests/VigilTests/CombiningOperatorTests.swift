import Dispatch
import Testing
import Vigil
import VigilTestSupport

@Suite(.timeLimit(.minutes(10))) struct WithLatestFromTests {
    @Test func deliversOnlyOnThisStreamsValuesOnceTheOtherHasOne() {
        let primary = PublishSubject<Int>()
        let other = PublishSubject<String>()
        let recorder = Recorder<String>()
        let subscription = recorder.subscribe(to: primary.withLatestFrom(other) { "\($0)\($1)" })
        primary.publish(1)
        other.publish("a")
        primary.publish(2)
        other.publish("b")
        other.publish("c")
        primary.publish(3)
        #expect(recorder.values == ["2a", "3c"])
        #expect(recorder.completionsReceived.isEmpty)
        subscription.dispose()
    }

    @Test func theOtherIsSubscribedFirstSoItsReplayIsReadyForThisStreamsReplay() {
        let primary = BehaviorSubject(1)
        let other = BehaviorSubject("x")
        let recorder = Recorder<String>()
        let subscription = recorder.subscribe(to: primary.withLatestFrom(other))
        primary.publish(2)
        #expect(recorder.values == ["x", "x"])
        subscription.dispose()
    }

    @Test func finishesWithThisStreamAndReleasesBoth() {
        let primary = ProbedSource<Int>()
        let other = ProbedSource<Int>()
        let recorder = Recorder<Int>()
        let subscription = recorder.subscribe(to: primary.observable.withLatestFrom(other.observable) { $0 + $1 })
        other.subject.publish(10)
        other.subject.complete()
        #expect(recorder.completionsReceived.isEmpty)
        primary.subject.publish(1)
        #expect(primary.isSubscribed)
        primary.subject.complete()
        #expect(recorder.values == [11])
        #expect(recorder.completionsReceived.map(\.isFinished) == [true])
        #expect(!primary.isSubscribed && !other.isSubscribed)
        subscription.dispose()
    }

    @Test(arguments: [true, false])
    func aFailureOfEitherFailsAndReleasesBoth(otherFails: Bool) {
        let primary = ProbedSource<Int>()
        let other = ProbedSource<Int>()
        let recorder = Recorder<Int>()
        let subscription = recorder.subscribe(to: primary.observable.withLatestFrom(other.observable))
        (otherFails ? other : primary).subject.fail(TestError(code: 6))
        #expect(recorder.completionsReceived.first?.error as? TestError == TestError(code: 6))
        #expect(!primary.isSubscribed && !other.isSubscribed)
        subscription.dispose()
    }

    @Test func disposalReleasesBoth() {
        let primary = ProbedSource<Int>()
        let other = ProbedSource<Int>()
        let subscription = primary.observable.withLatestFrom(other.observable).subscribe { _ in }
        #expect(primary.isSubscribed && other.isSubscribed)
        subscription.dispose()
        #expect(!primary.isSubscribed && !other.isSubscribed)
    }

    @Test func valuesFromTwoThreadsAreSerializedAndTheLatestNeverGoesBack() {
        let primary = PublishSubject<Int>()
        let other = PublishSubject<Int>()
        let recorder = Recorder<[Int]>()
        let subscription = recorder.subscribe(to: primary.withLatestFrom(other) { [$0, $1] })
        concurrently(2) { thread in
            for value in 0..<2_000 { (thread == 0 ? primary : other).publish(value) }
        }
        let values = recorder.values
        #expect(values.count <= 2_000)
        #expect(zip(values, values.dropFirst()).allSatisfy { $0[0] < $1[0] && $0[1] <= $1[1] })
        subscription.dispose()
    }

    @Test func aCallbackPublishingIntoBothSourcesIsQueuedNotNested() {
        let primary = PublishSubject<Int>()
        let other = BehaviorSubject(0)
        let recorder = Recorder<String>()
        let done = finishes {
            let subscription = primary.withLatestFrom(other) { "\($0)\($1)" }.subscribe { value in
                recorder.record(value)
                guard recorder.count < 3 else { return }
                other.publish(recorder.count)
                primary.publish(recorder.count)
            }
            primary.publish(0)
            subscription.dispose()
        }
        #expect(done)
        #expect(recorder.values == ["00", "11", "22"])
    }
}

@Suite(.timeLimit(.minutes(10))) struct ZipTests {
    /// A zip of two probed sources, recorded as strings.
    func zipOfProbes() -> (ProbedSource<Int>, ProbedSource<String>, Recorder<String>, Subscription) {
        let numbers = ProbedSource<Int>()
        let letters = ProbedSource<String>()
        let recorder = Recorder<String>()
        let subscription = recorder.subscribe(
            to: Observable.zip(numbers.observable, letters.observable).map { "\($0)\($1)" })
        return (numbers, letters, recorder, subscription)
    }

    @Test func pairsTheNthValuesOfEachSource() {
        let numbers = PublishSubject<Int>()
        let letters = PublishSubject<String>()
        let recorder = Recorder<String>()
        let subscription = recorder.subscribe(to: Observable.zip(numbers, letters).map { "\($0)\($1)" })
        for number in 1...3 { numbers.publish(number) }
        letters.publish("a")
        letters.publish("b")
        #expect(recorder.values == ["1a", "2b"])
        letters.publish("c")
        letters.publish("d")
        numbers.publish(4)
        #expect(recorder.values == ["1a", "2b", "3c", "4d"])
        #expect(recorder.completionsReceived.isEmpty)
        subscription.dispose()
    }

    @Test func finishesWhenAFinishedSourceHasNoValueLeftAndReleasesEverySource() {
        let (numbers, letters, recorder, subscription) = zipOfProbes()
        numbers.subject.publish(1)
        numbers.subject.publish(2)
        numbers.subject.complete()
        letters.subject.publish("a")
        #expect(recorder.completionsReceived.isEmpty)
        // The finished source is released at once; the zip goes on with the value it holds.
        #expect(!numbers.isSubscribed && letters.isSubscribed)
        letters.subject.publish("b")
        #expect(recorder.values == ["1a", "2b"])
        #expect(recorder.completionsReceived.map(\.isFinished) == [true])
        #expect(!numbers.isSubscribed && !letters.isSubscribed)
        subscription.dispose()
    }

    @Test func finishesAtOnceWhenASourceFinishesWithNothingWaiting() {
        let (numbers, letters, recorder, subscription) = zipOfProbes()
        numbers.subject.publish(1)
        letters.subject.complete()
        #expect(recorder.completionsReceived.map(\.isFinished) == [true])
        #expect(!numbers.isSubscribed && !letters.isSubscribed)
        subscription.dispose()
    }

    @Test func failsOnTheFirstFailureDroppingWaitingValuesAndReleasesEverySource() {
        let sources = (0..<3).map { _ in ProbedSource<Int>() }
        let recorder = Recorder<[Int]>()
        let subscription = recorder.subscribe(to: Observable.zip(sources.map(\.observable)))
        sources[0].subject.publish(1)
        sources[1].subject.publish(2)
        sources[2].subject.fail(TestError(code: 7))
        #expect(recorder.values.isEmpty)
        #expect(recorder.completionsReceived.first?.error as? TestError == TestError(code: 7))
        #expect(sources.allSatisfy { !$0.isSubscribed })
        subscription.dispose()
    }

    @Test func aSourceRunningAheadOfItsBoundFailsTheZipAndFreesWhatWasHeld() {
        let counter = LiveCounter()
        let fast = ProbedSource<LiveCounter.Tracked>()
        let slow = ProbedSource<Int>()
        let recorder = Recorder<Int>()
        let subscription = recorder.subscribe(
            to: Observable.zip(fast.observable, slow.observable, bufferLimit: 100).map { $0.number + $1 })
        slow.subject.publish(1000)
        for number in 0..<10_000 { fast.subject.publish(LiveCounter.Tracked(number, counter: counter)) }
        #expect(recorder.values == [1000])
        let error = recorder.completionsReceived.first?.error as? ZipOverflowError
        #expect(error == ZipOverflowError(sourceIndex: 0, limit: 100))
        #expect(!fast.isSubscribed && !slow.isSubscribed)
        #expect(counter.count == 0)
        subscription.dispose()
    }

    @Test(arguments: [0, 1])
    func theOverflowNamesTheSourceThatRanAheadAndALimitBelowOneCountsAsOne(limit: Int) {
        let sources = (0..<3).map { _ in ProbedSource<Int>() }
        let recorder = Recorder<String>()
        let subscription = recorder.subscribe(
            to: Observable.zip(sources[0].observable, sources[1].observable, sources[2].observable, bufferLimit: limit)
                .map { "\($0)\($1)\($2)" })
        sources[2].subject.publish(1)
        #expect(recorder.completionsReceived.isEmpty)
        sources[2].subject.publish(2)
        #expect(
            recorder.completionsReceived.first?.error as? ZipOverflowError == ZipOverflowError(sourceIndex: 2, limit: 1)
        )
        #expect(sources.allSatisfy { !$0.isSubscribed })
        subscription.dispose()
    }

    @Test func zipsThreeAndArraysOfSources() {
        let a = PublishSubject<Int>()
        let b = BehaviorSubject("b")
        let c = PublishSubject<Double>()
        let triples = Recorder<String>()
        let tripleSubscription = triples.subscribe(to: Observable.zip(a, b, c).map { "\($0)\($1)\($2)" })
        a.publish(1)
        c.publish(0.5)
        #expect(triples.values == ["1b0.5"])
        tripleSubscription.dispose()

        let sources = (0..<3).map { _ in PublishSubject<Int>() }
        let arrays = Recorder<[Int]>()
        let arraySubscription = arrays.subscribe(to: Observable.zip(sources))
        for (index, source) in sources.enumerated().reversed() {
            source.publish(index)
            source.publish(index * 10)
        }
        #expect(arrays.values == [[0, 1, 2], [0, 10, 20]])
        arraySubscription.dispose()

        let empty = Recorder<[Int]>()
        let emptySubscription = empty.subscribe(to: Observable.zip([Observable<Int>]()))
        #expect(empty.values.isEmpty && empty.completionsReceived.map(\.isFinished) == [true])
        emptySubscription.dispose()
    }

    @Test func pairsStayAlignedWhenSourcesPublishFromTwoThreads() {
        let left = PublishSubject<Int>()
        let right = PublishSubject<Int>()
        let recorder = Recorder<Bool>()
        let subscription = recorder.subscribe(to: Observable.zip(left, right, bufferLimit: 5_000).map { $0 == $1 })
        concurrently(2) { thread in
            for value in 0..<2_000 { (thread == 0 ? left : right).publish(value) }
        }
        #expect(recorder.values.count == 2_000)
        #expect(recorder.values.allSatisfy { $0 })
        subscription.dispose()
    }

    @Test func aCallbackPublishingIntoASourceIsQueuedNotNested() {
        let left = PublishSubject<Int>()
        let right = PublishSubject<Int>()
        let recorder = Recorder<Int>()
        let done = finishes {
            let subscription = Observable.zip(left, right).subscribe { pair in
                recorder.record(pair.0)
                guard pair.0 < 3 else { return }
                left.publish(pair.0 + 1)
                right.publish(pair.0 + 1)
            }
            left.publish(0)
            right.publish(0)
            subscription.dispose()
        }
        #expect(done)
        #expect(recorder.values == [0, 1, 2, 3])
    }
}

@Suite(.timeLimit(.minutes(10))) struct CombineLatestArrayTests {
    @Test func deliversTheLatestOfEverySourceOnceAllHaveOne() {
        let sources = (0..<3).map { _ in PublishSubject<Int>() }
        let recorder = Recorder<[Int]>()
        let subscription = recorder.subscribe(to: Observable.combineLatest(sources))
        sources[0].publish(1)
        sources[1].publish(2)
        sources[0].publish(3)
        #expect(recorder.values.isEmpty)
        sources[2].publish(4)
        sources[1].publish(5)
        #expect(recorder.values == [[3, 2, 4], [3, 5, 4]])
        subscription.dispose()
    }

    @Test func finishesWhenAllFinishAndReleasesEverySource() {
        let sources = (0..<2).map { _ in ProbedSource<Int>() }
        let recorder = Recorder<[Int]>()
        let subscription = recorder.subscribe(to: Observable.combineLatest(sources.map(\.observable)))
        sources[0].subject.publish(1)
        sources[1].subject.publish(2)
        sources[0].subject.complete()
        #expect(recorder.completionsReceived.isEmpty && sources[1].isSubscribed)
        sources[1].subject.publish(3)
        sources[1].subject.complete()
        #expect(recorder.values == [[1, 2], [1, 3]])
        #expect(recorder.completionsReceived.map(\.isFinished) == [true])
        #expect(sources.allSatisfy { !$0.isSubscribed })
        subscription.dispose()
    }

    @Test func aSourceFinishingBeforeItDeliveredFinishesAtOnce() {
        let sources = (0..<2).map { _ in ProbedSource<Int>() }
        let recorder = Recorder<[Int]>()
        let subscription = recorder.subscribe(to: Observable.combineLatest(sources.map(\.observable)))
        sources[0].subject.publish(1)
        sources[1].subject.complete()
        #expect(recorder.completionsReceived.map(\.isFinished) == [true])
        #expect(sources.allSatisfy { !$0.isSubscribed })
        subscription.dispose()
    }

    @Test func failsOnTheFirstFailureAndReleasesEverySource() {
        let sources = (0..<3).map { _ in ProbedSource<Int>() }
        let recorder = Recorder<[Int]>()
        let subscription = recorder.subscribe(to: Observable.combineLatest(sources.map(\.observable)))
        sources[1].subject.fail(TestError(code: 8))
        #expect(recorder.completionsReceived.first?.error as? TestError == TestError(code: 8))
        #expect(sources.allSatisfy { !$0.isSubscribed })
        subscription.dispose()
    }

    @Test func behaviorSubjectsAndNoSources() {
        let subjects = [BehaviorSubject(1), BehaviorSubject(2)]
        let recorder = Recorder<[Int]>()
        let subscription = recorder.subscribe(to: Observable.combineLatest(subjects))
        subjects[1].publish(3)
        #expect(recorder.values == [[1, 2], [1, 3]])
        subscription.dispose()
        let empty = Recorder<[Int]>()
        let emptySubscription = empty.subscribe(to: Observable.combineLatest([Observable<Int>]()))
        #expect(empty.values.isEmpty && empty.completionsReceived.map(\.isFinished) == [true])
        emptySubscription.dispose()
    }

    @Test func fourStreamsOfDifferentTypesCombineIntoATuple() {
        let number = BehaviorSubject(1)
        let text = BehaviorSubject("a")
        let flag = PublishSubject<Bool>()
        let ratio = ProbedSource<Double>()
        let recorder = Recorder<String>()
        let subscription = recorder.subscribe(
            to: Observable.combineLatest(number, text, flag, ratio.observable).map { "\($0)\($1)\($2)\($3)" })
        flag.publish(true)
        ratio.subject.publish(0.5)
        text.publish("b")
        #expect(recorder.values == ["1atrue0.5", "1btrue0.5"])
        flag.fail(TestError(code: 3))
        #expect(recorder.completionsReceived.first?.error as? TestError == TestError(code: 3))
        #expect(!ratio.isSubscribed)
        subscription.dispose()
    }
}
