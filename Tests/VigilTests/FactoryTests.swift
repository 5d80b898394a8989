import Synchronization
import Testing
import Vigil
import VigilTestSupport

@Suite(.timeLimit(.minutes(10))) struct FactoryTests {
    @Test func justDeliversItsValueThenFinishesForEverySubscriber() {
        let one = Observable.just(7)
        for _ in 0..<2 {
            let recorder = Recorder<Int>()
            let subscription = recorder.subscribe(to: one)
            #expect(recorder.values == [7])
            #expect(recorder.completionsReceived.map(\.isFinished) == [true])
            subscription.dispose()
        }
    }

    @Test func fromDeliversTheSequenceInOrderThenFinishes() {
        let recorder = Recorder<Int>()
        let subscription = recorder.subscribe(to: Observable.from([3, 1, 2]).map { $0 * 10 })
        #expect(recorder.values == [30, 10, 20])
        #expect(recorder.completionsReceived.count == 1)
        subscription.dispose()
    }

    @Test func emptyFinishesAndFailFailsWithNoValue() {
        let empty = Recorder<Int>()
        let failed = Recorder<Int>()
        let subscriptions = [
            empty.subscribe(to: Observable<Int>.empty),
            failed.subscribe(to: Observable<Int>.fail(TestError(code: 4))),
        ]
        #expect(empty.values.isEmpty && empty.completionsReceived.map(\.isFinished) == [true])
        #expect(failed.values.isEmpty)
        #expect(failed.completionsReceived.first?.error as? TestError == TestError(code: 4))
        subscriptions.forEach { $0.dispose() }
    }

    @Test func neverDeliversNothing() {
        let recorder = Recorder<Int>()
        let subscription = recorder.subscribe(to: Observable<Int>.never)
        #expect(recorder.values.isEmpty && recorder.completionsReceived.isEmpty)
        subscription.dispose()
        #expect(subscription.isDisposed)
    }

    @Test func factoriesHonourQueueDelivery() {
        let delivered = QueueRecorder<Int>()
        let subscription = delivered.subscribe(to: Observable.from(1...3))
        #expect(eventually { delivered.recorder.completionsReceived.count == 1 })
        #expect(delivered.recorder.values == [1, 2, 3])
        #expect(delivered.offQueue == 0)
        subscription.dispose()
    }

    @Test func deferredMakesAStreamPerSubscriberWhenItSubscribes() {
        let made = Atomic<Int>(0)
        let source = Observable<Int>.deferred {
            Observable.just(made.add(1, ordering: .relaxed).newValue)
        }
        #expect(made.load(ordering: .relaxed) == 0)
        let first = Recorder<Int>()
        let second = Recorder<Int>()
        let subscriptions = [first.subscribe(to: source), second.subscribe(to: source)]
        #expect(first.values == [1] && second.values == [2])
        subscriptions.forEach { $0.dispose() }
    }

    @Test func deferredFailsWithTheErrorItsFactoryThrows() {
        let recorder = Recorder<Int>()
        let subscription = recorder.subscribe(
            to: Observable<Int>.deferred { () throws -> Observable<Int> in throw TestError(code: 5) })
        #expect(recorder.completionsReceived.first?.error as? TestError == TestError(code: 5))
        subscription.dispose()
    }

    @Test func deferredDisposalReleasesTheStreamItMade() {
        let source = ProbedSource<Int>()
        let subscription = Observable<Int>.deferred { source.observable }.subscribe { _ in }
        #expect(source.isSubscribed)
        subscription.dispose()
        #expect(!source.isSubscribed)
    }
}

@Suite(.timeLimit(.minutes(10))) struct CreateTests {
    @Test func createDeliversWhatTheBodyPublishesThenRunsTheTeardownOnceOnCompletion() {
        let teardowns = Atomic<Int>(0)
        let source = Observable<Int>.create { observer in
            observer.publish(1)
            observer.publish(2)
            observer.complete()
            observer.publish(3)
            observer.fail(TestError(code: 1))
            return Subscription { teardowns.add(1, ordering: .relaxed) }
        }
        let recorder = Recorder<Int>()
        let subscription = recorder.subscribe(to: source)
        #expect(recorder.values == [1, 2])
        #expect(recorder.completionsReceived.map(\.isFinished) == [true])
        #expect(teardowns.load(ordering: .relaxed) == 1)
        subscription.dispose()
        #expect(teardowns.load(ordering: .relaxed) == 1)
    }

    @Test func createRunsTheTeardownOnceOnDisposeAndIgnoresLaterCalls() {
        let teardowns = Atomic<Int>(0)
        let kept = FutexMutex<Observer<Int>?>(nil)
        let source = Observable<Int>.create { observer in
            kept.withLock { $0 = observer }
            return Subscription { teardowns.add(1, ordering: .relaxed) }
        }
        let recorder = Recorder<Int>()
        let subscription = recorder.subscribe(to: source)
        let observer = kept.withLock { $0 }!
        #expect(observer.isActive)
        observer.publish(1)
        subscription.dispose()
        #expect(teardowns.load(ordering: .relaxed) == 1)
        #expect(!observer.isActive)
        observer.publish(2)
        observer.complete()
        subscription.dispose()
        #expect(recorder.values == [1])
        #expect(recorder.completionsReceived.isEmpty)
        #expect(teardowns.load(ordering: .relaxed) == 1)
    }

    @Test func createRunsTheTeardownAfterTheFailureReachedTheSubscriber() {
        let order = FutexMutex<[String]>([])
        let kept = FutexMutex<Observer<Int>?>(nil)
        let source = Observable<Int>.create { observer in
            kept.withLock { $0 = observer }
            return Subscription { order.withLock { $0.append("teardown") } }
        }
        let subscription = source.subscribe(
            onNext: { _ in }, onCompletion: { _ in order.withLock { $0.append("failed") } })
        kept.withLock { $0 }!.fail(TestError(code: 2))
        #expect(order.withLock { $0 } == ["failed", "teardown"])
        subscription.dispose()
        #expect(order.withLock { $0 } == ["failed", "teardown"])
    }

    @Test func aBodyThatDropsItsObserverDoesNotEndTheStream() {
        let recorder = Recorder<Int>()
        let subscription = recorder.subscribe(
            to: Observable<Int>.create { observer in
                observer.publish(1)
                return Subscription.disposed()
            })
        #expect(recorder.values == [1])
        #expect(recorder.completionsReceived.isEmpty)
        subscription.dispose()
    }

    @Test func observerCallsFromManyThreadsAreSerialized() {
        let source = KeptObserver<Int>()
        let serial = OverlapRecorder<Int>()
        let subscription = serial.subscribe(to: source.observable)
        let observer = source.observer
        concurrently(4) { index in
            for step in 0..<500 { observer.publish(index * 500 + step) }
        }
        #expect(Set(serial.recorder.values) == Set(0..<2000))
        #expect(serial.overlaps == 0)
        subscription.dispose()
    }

    @Test func publishingFromInsideTheSubscribersCallbackIsQueuedNotNested() {
        let source = KeptObserver<Int>()
        let events = FutexMutex<[String]>([])
        let subscription = source.observable.subscribe { value in
            events.withLock { $0.append("begin \(value)") }
            if value < 3 { source.observer.publish(value + 1) }
            events.withLock { $0.append("end \(value)") }
        }
        #expect(finishes { source.observer.publish(1) })
        #expect(events.withLock { $0 } == ["begin 1", "end 1", "begin 2", "end 2", "begin 3", "end 3"])
        subscription.dispose()
    }
}
