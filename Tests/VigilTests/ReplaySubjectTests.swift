import Testing
import Vigil
import VigilTestSupport

@Suite(.timeLimit(.minutes(10))) struct ReplaySubjectTests {
    @Test func aNewSubscriberReceivesTheNewestValuesThenEveryLaterOne() {
        let subject = ReplaySubject<Int>(bufferSize: 2)
        for value in 1...4 { subject.publish(value) }
        let recorder = Recorder<Int>()
        let subscription = recorder.subscribe(to: subject)
        #expect(recorder.values == [3, 4])
        subject.publish(5)
        #expect(recorder.values == [3, 4, 5])
        let early = Recorder<Int>()
        let empty = ReplaySubject<Int>(bufferSize: 3)
        let earlySubscription = early.subscribe(to: empty)
        #expect(early.values.isEmpty && early.completionsReceived.isEmpty)
        subscription.dispose()
        earlySubscription.dispose()
    }

    @Test func aLateSubscriberReceivesTheKeptValuesThenTheCompletion() {
        let finished = ReplaySubject<Int>(bufferSize: 2)
        let live = Recorder<Int>()
        let liveSubscription = live.subscribe(to: finished)
        for value in 1...3 { finished.publish(value) }
        finished.complete()
        finished.publish(4)
        #expect(live.values == [1, 2, 3])
        #expect(live.completionsReceived.map(\.isFinished) == [true])
        let late = Recorder<Int>()
        let lateSubscription = late.subscribe(to: finished)
        #expect(late.values == [2, 3])
        #expect(late.completionsReceived.map(\.isFinished) == [true])

        let failed = ReplaySubject<Int>(bufferSize: 1)
        failed.publish(1)
        failed.fail(TestError(code: 7))
        failed.complete()
        let lateToFailure = Recorder<Int>()
        let failureSubscription = lateToFailure.subscribe(to: failed)
        #expect(lateToFailure.values == [1])
        #expect(lateToFailure.completionsReceived.count == 1)
        #expect(lateToFailure.completionsReceived.first?.error as? TestError == TestError(code: 7))
        [liveSubscription, lateSubscription, failureSubscription].forEach { $0.dispose() }
    }

    @Test(arguments: [0, -3])
    func aBufferOfZeroOrLessReplaysOnlyTheCompletion(bufferSize: Int) {
        let subject = ReplaySubject<Int>(bufferSize: bufferSize)
        subject.publish(1)
        let recorder = Recorder<Int>()
        let subscription = recorder.subscribe(to: subject)
        subject.publish(2)
        subject.complete()
        #expect(recorder.values == [2])
        let late = Recorder<Int>()
        let lateSubscription = late.subscribe(to: subject)
        #expect(late.values.isEmpty && late.completionsReceived.map(\.isFinished) == [true])
        subscription.dispose()
        lateSubscription.dispose()
    }

    @Test func itKeepsNoMoreThanItsBufferSize() {
        let counter = LiveCounter()
        do {
            let subject = ReplaySubject<LiveCounter.Tracked>(bufferSize: 3)
            for number in 0..<10_000 { subject.publish(LiveCounter.Tracked(number, counter: counter)) }
            #expect(counter.count == 3)
        }
        #expect(counter.count == 0)
    }

    @Test func releasingTheSubjectFinishesItsSubscribers() {
        let recorder = Recorder<Int>()
        var subscription: Subscription?
        do {
            let subject = ReplaySubject<Int>(bufferSize: 1)
            subject.publish(1)
            subscription = recorder.subscribe(to: subject)
        }
        #expect(recorder.values == [1])
        #expect(recorder.completionsReceived.map(\.isFinished) == [true])
        subscription?.dispose()
    }

    @Test func replayAndLaterValuesReachAQueueSubscriberInOrder() {
        let subject = ReplaySubject<Int>(bufferSize: 2)
        for value in 1...3 { subject.publish(value) }
        let delivered = QueueRecorder<Int>()
        let subscription = delivered.subscribe(to: subject)
        subject.publish(4)
        subject.complete()
        #expect(eventually { delivered.recorder.completionsReceived.count == 1 })
        #expect(delivered.recorder.values == [2, 3, 4])
        #expect(delivered.offQueue == 0)
        subscription.dispose()
    }

    @Test func aPublishFromInsideACallbackIsQueuedAndAJoinerFromInsideGetsTheReplay() {
        let subject = ReplaySubject<Int>(bufferSize: 1)
        let joiner = Recorder<Int>()
        let joined = FutexMutex<Subscription?>(nil)
        let events = FutexMutex<[String]>([])
        let subscription = subject.subscribe { value in
            events.withLock { $0.append("begin \(value)") }
            if value == 1 {
                subject.publish(2)
                joined.withLock { $0 = joiner.subscribe(to: subject) }
            }
            events.withLock { $0.append("end \(value)") }
        }
        #expect(finishes { subject.publish(1) })
        #expect(events.withLock { $0 } == ["begin 1", "end 1", "begin 2", "end 2"])
        #expect(joiner.values == [2])
        subscription.dispose()
        joined.withLock { $0 }?.dispose()
    }
}
