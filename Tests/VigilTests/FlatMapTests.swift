import Testing
import Vigil
import VigilTestSupport

@Suite(.timeLimit(.minutes(10))) struct FlatMapTests {
    @Test func flatMapMergesInnerValuesAndFinishesWhenTheOuterAndEveryInnerFinished() {
        let outer = PublishSubject<Int>()
        let inners = [PublishSubject<String>(), PublishSubject<String>()]
        let recorder = Recorder<String>()
        let subscription = recorder.subscribe(to: outer.flatMap { inners[$0] })
        outer.publish(0)
        inners[0].publish("a")
        outer.publish(1)
        inners[1].publish("b")
        inners[0].publish("c")
        inners[0].complete()
        outer.complete()
        #expect(recorder.completionsReceived.isEmpty)
        inners[1].publish("d")
        inners[1].complete()
        #expect(recorder.values == ["a", "b", "c", "d"])
        #expect(recorder.completionsReceived.map(\.isFinished) == [true])
        subscription.dispose()
    }

    @Test func flatMapOfSynchronousInnersDeliversEachInnerInTurn() {
        let recorder = Recorder<Int>()
        let subscription = recorder.subscribe(to: Observable.from([1, 2]).flatMap { Observable.from([$0, $0 * 10]) })
        #expect(recorder.values == [1, 10, 2, 20])
        #expect(recorder.completionsReceived.map(\.isFinished) == [true])
        subscription.dispose()
    }

    @Test func anInnerFailureFailsAndReleasesTheOuterAndEveryInner() {
        let outer = ProbedSource<Int>()
        let inners = [ProbedSource<Int>(), ProbedSource<Int>()]
        let recorder = Recorder<Int>()
        let subscription = recorder.subscribe(to: outer.observable.flatMap { inners[$0].observable })
        outer.subject.publish(0)
        outer.subject.publish(1)
        #expect(inners.allSatisfy { $0.isSubscribed })
        inners[1].subject.fail(TestError(code: 6))
        #expect(recorder.completionsReceived.first?.error as? TestError == TestError(code: 6))
        #expect(!outer.isSubscribed)
        #expect(!inners[0].isSubscribed && !inners[1].isSubscribed)
        inners[0].subject.publish(9)
        #expect(recorder.values.isEmpty && recorder.completionsReceived.count == 1)
        subscription.dispose()
    }

    @Test func anOuterFailureFailsAndReleasesEveryInner() {
        let outer = PublishSubject<Int>()
        let inner = ProbedSource<Int>()
        let recorder = Recorder<Int>()
        let subscription = recorder.subscribe(to: outer.flatMap { _ in inner.observable })
        outer.publish(0)
        outer.fail(TestError(code: 2))
        #expect(recorder.completionsReceived.first?.error as? TestError == TestError(code: 2))
        #expect(!inner.isSubscribed)
        subscription.dispose()
    }

    @Test func disposingReleasesTheOuterAndEveryInner() {
        let outer = ProbedSource<Int>()
        let inners = [ProbedSource<Int>(), ProbedSource<Int>()]
        let subscription = outer.observable.flatMap { inners[$0].observable }.subscribe { _ in }
        outer.subject.publish(0)
        outer.subject.publish(1)
        subscription.dispose()
        #expect(!outer.isSubscribed)
        #expect(inners.allSatisfy { !$0.isSubscribed })
    }

    @Test func aFinishedInnerIsReleasedAtOnce() {
        let outer = PublishSubject<Int>()
        let inner = ProbedSource<Int>()
        let subscription = outer.flatMap { _ in inner.observable }.subscribe { _ in }
        outer.publish(0)
        #expect(inner.isSubscribed)
        inner.subject.complete()
        #expect(inner.disposalCount == 1)
        subscription.dispose()
    }

    @Test func maxConcurrentHoldsLaterInnersUntilARunningOneFinishes() {
        let outer = PublishSubject<Int>()
        let inners = (0..<3).map { _ in ProbedSource<Int>() }
        let recorder = Recorder<Int>()
        let subscription = recorder.subscribe(to: outer.flatMap(maxConcurrent: 2) { inners[$0].observable })
        for index in 0..<3 { outer.publish(index) }
        outer.complete()
        #expect(inners.map(\.isSubscribed) == [true, true, false])
        inners[1].subject.publish(1)
        inners[1].subject.complete()
        #expect(inners.map(\.isSubscribed) == [true, false, true])
        inners[2].subject.publish(2)
        inners[2].subject.complete()
        inners[0].subject.publish(0)
        #expect(recorder.completionsReceived.isEmpty)
        inners[0].subject.complete()
        #expect(recorder.values == [1, 2, 0])
        #expect(recorder.completionsReceived.map(\.isFinished) == [true])
        subscription.dispose()
    }

    @Test func theWaitingPolicyBoundsTheQueueOfInners() {
        let outer = PublishSubject<Int>()
        let gate = PublishSubject<Int>()
        let oldest = Recorder<Int>()
        let newest = Recorder<Int>()
        let subscriptions = [
            oldest.subscribe(
                to: outer.flatMap(maxConcurrent: 1, waiting: .oldest(2)) { $0 == 0 ? gate.asObservable() : .just($0) }),
            newest.subscribe(
                to: outer.flatMap(maxConcurrent: 1, waiting: .newest(2)) { $0 == 0 ? gate.asObservable() : .just($0) }),
        ]
        for value in 0...4 { outer.publish(value) }
        gate.complete()
        #expect(oldest.values == [1, 2])
        #expect(newest.values == [3, 4])
        subscriptions.forEach { $0.dispose() }
    }

    @Test func concatMapSubscribesEachInnerWhenThePreviousFinished() {
        let inners = [PublishSubject<Int>(), PublishSubject<Int>()]
        let outer = PublishSubject<Int>()
        let recorder = Recorder<Int>()
        let subscription = recorder.subscribe(to: outer.concatMap { inners[$0] })
        outer.publish(0)
        outer.publish(1)
        inners[1].publish(100)
        inners[0].publish(1)
        inners[0].complete()
        inners[1].publish(2)
        #expect(recorder.values == [1, 2])
        subscription.dispose()
        let synchronous = Recorder<Int>()
        let second = synchronous.subscribe(
            to: Observable.from([1, 2, 3]).concatMap { Observable.from([$0, $0 * 10]) })
        #expect(synchronous.values == [1, 10, 2, 20, 3, 30])
        #expect(synchronous.completionsReceived.map(\.isFinished) == [true])
        second.dispose()
    }

    @Test func anInnerPublishingIntoTheOuterFromItsCallbackDoesNotDeadlock() {
        let outer = PublishSubject<Int>()
        let recorder = Recorder<Int>()
        let flattened = outer.flatMap { value in
            Observable<Int>.create { observer in
                observer.publish(value)
                if value < 5 { outer.publish(value + 1) }
                observer.complete()
                return Subscription.disposed()
            }
        }
        let subscription = recorder.subscribe(to: flattened)
        #expect(finishes { outer.publish(1) })
        #expect(recorder.values == [1, 2, 3, 4, 5])
        subscription.dispose()
    }

    @Test func innersPublishingOnManyThreadsAreSerialized() {
        let inners = (0..<4).map { _ in PublishSubject<Int>() }
        let serial = OverlapRecorder<Int>()
        let subscription = serial.subscribe(to: Observable.from(0..<4).flatMap { inners[$0] })
        concurrently(4) { index in
            for step in 0..<500 { inners[index].publish(index * 500 + step) }
        }
        #expect(Set(serial.recorder.values) == Set(0..<2000))
        #expect(serial.overlaps == 0)
        subscription.dispose()
    }

    @Test func flatMapDeliversOnTheSubscribersQueue() {
        let delivered = QueueRecorder<Int>()
        let subscription = delivered.subscribe(to: Observable.from([1, 2]).flatMap { Observable.from([$0, $0]) })
        #expect(eventually { delivered.recorder.completionsReceived.count == 1 })
        #expect(delivered.recorder.values == [1, 1, 2, 2])
        #expect(delivered.offQueue == 0)
        subscription.dispose()
    }
}

@Suite(.timeLimit(.minutes(10))) struct FlatMapLatestTests {
    @Test func switchingDisposesThePreviousInnerAndDropsItsValues() {
        let outer = PublishSubject<Int>()
        let inners = [ProbedSource<String>(), ProbedSource<String>()]
        let recorder = Recorder<String>()
        let subscription = recorder.subscribe(to: outer.flatMapLatest { inners[$0].observable })
        outer.publish(0)
        inners[0].subject.publish("a")
        outer.publish(1)
        #expect(!inners[0].isSubscribed && inners[1].isSubscribed)
        inners[0].subject.publish("stale")
        inners[1].subject.publish("b")
        #expect(recorder.values == ["a", "b"])
        subscription.dispose()
        #expect(!inners[1].isSubscribed)
    }

    @Test func finishesWhenTheOuterAndTheCurrentInnerHaveFinished() {
        let outer = PublishSubject<Int>()
        let inners = [PublishSubject<Int>(), PublishSubject<Int>()]
        let recorder = Recorder<Int>()
        let subscription = recorder.subscribe(to: outer.flatMapLatest { inners[$0] })
        outer.publish(0)
        outer.publish(1)
        inners[0].complete()
        outer.complete()
        #expect(recorder.completionsReceived.isEmpty)
        inners[1].publish(5)
        inners[1].complete()
        #expect(recorder.values == [5])
        #expect(recorder.completionsReceived.map(\.isFinished) == [true])
        subscription.dispose()

        let empty = Recorder<Int>()
        let second = empty.subscribe(to: Observable<Int>.empty.flatMapLatest { Observable.just($0) })
        #expect(empty.completionsReceived.map(\.isFinished) == [true])
        second.dispose()
    }

    @Test func aFailureOfTheCurrentInnerOrTheOuterFailsAndReleasesBoth() {
        let outer = ProbedSource<Int>()
        let inner = ProbedSource<Int>()
        let recorder = Recorder<Int>()
        let subscription = recorder.subscribe(to: outer.observable.flatMapLatest { _ in inner.observable })
        outer.subject.publish(0)
        inner.subject.fail(TestError(code: 3))
        #expect(recorder.completionsReceived.first?.error as? TestError == TestError(code: 3))
        #expect(!outer.isSubscribed && !inner.isSubscribed)
        subscription.dispose()

        let failingOuter = PublishSubject<Int>()
        let other = ProbedSource<Int>()
        let failed = Recorder<Int>()
        let second = failed.subscribe(to: failingOuter.flatMapLatest { _ in other.observable })
        failingOuter.publish(0)
        failingOuter.fail(TestError(code: 4))
        #expect(failed.completionsReceived.first?.error as? TestError == TestError(code: 4))
        #expect(!other.isSubscribed)
        second.dispose()
    }

    @Test func aReplacedInnersLateFailureIsIgnored() {
        let outer = PublishSubject<Int>()
        let inners = [PublishSubject<Int>(), PublishSubject<Int>()]
        let recorder = Recorder<Int>()
        let subscription = recorder.subscribe(
            to: outer.flatMapLatest { index in
                inners[index].asObservable()
            })
        outer.publish(0)
        outer.publish(1)
        inners[0].fail(TestError(code: 1))
        inners[1].publish(7)
        #expect(recorder.values == [7])
        #expect(recorder.completionsReceived.isEmpty)
        subscription.dispose()
    }

    @Test func anInnerPublishingIntoTheOuterFromItsCallbackDoesNotDeadlock() {
        let outer = PublishSubject<Int>()
        let recorder = Recorder<Int>()
        let switched = outer.flatMapLatest { value in
            Observable<Int>.create { observer in
                observer.publish(value)
                if value < 5 { outer.publish(value + 1) }
                return Subscription.disposed()
            }
        }
        let subscription = recorder.subscribe(to: switched)
        #expect(finishes { outer.publish(1) })
        #expect(recorder.values == [1, 2, 3, 4, 5])
        subscription.dispose()
    }
}
