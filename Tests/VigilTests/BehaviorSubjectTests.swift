import Dispatch
import Synchronization
import Testing
import Vigil
import VigilTestSupport

@Suite(.timeLimit(.minutes(10))) struct BehaviorSubjectTests {
    @Test func replaysCurrentValueOnSubscribeThenEveryLaterOne() {
        let name = BehaviorSubject("zhangsan")
        let recorder = Recorder<String>()
        let subscription = recorder.subscribe(to: name)
        name.publish("lisi")
        name.publish("wangwu")
        #expect(recorder.values == ["zhangsan", "lisi", "wangwu"])
        subscription.dispose()
    }

    @Test func publishUpdatesValueBeforeAnyObserverRuns() {
        let age = BehaviorSubject(0)
        let seenInside = FutexMutex<[Int]>([])
        let subscription = age.subscribe { _ in seenInside.withLock { $0.append(age.value) } }
        age.publish(18)
        #expect(age.value == 18)
        #expect(seenInside.withLock { $0 } == [0, 18])
        subscription.dispose()
    }

    @Test func valueIsReadableFromManyThreads() {
        let subject = BehaviorSubject(0)
        concurrently(8) { index in
            for step in 0..<1000 {
                subject.publish(index * 1000 + step)
                _ = subject.value
            }
        }
        #expect((0..<8000).contains(subject.value))
    }

    @Test func replayRacingWithPublishersHasNoGapAndNoDuplicate() {
        // Each new subscriber must see a strictly increasing sequence that starts with the replayed value and
        // then continues with every later publish exactly once.
        let subject = BehaviorSubject(0)
        let publisherDone = Atomic<Bool>(false)
        let publisher = DispatchQueue(label: "publisher")
        publisher.async {
            for value in 1...20_000 { subject.publish(value) }
            publisherDone.store(true, ordering: .releasing)
        }
        var recorders: [(Recorder<Int>, Subscription)] = []
        while !publisherDone.load(ordering: .acquiring) && recorders.count < 200 {
            let recorder = Recorder<Int>()
            recorders.append((recorder, recorder.subscribe(to: subject)))
        }
        publisher.sync {}
        for (recorder, _) in recorders {
            let values = recorder.values
            #expect(!values.isEmpty)
            #expect(values.last == 20_000)
            let contiguous = zip(values, values.dropFirst()).allSatisfy { $1 == $0 + 1 }
            #expect(contiguous, "a gap or a duplicate after the replayed value")
        }
    }

    @Test func subscribingInsideCallbackReplaysCurrentValueExactlyOnce() {
        let subject = BehaviorSubject(1)
        let late = Recorder<Int>()
        let held = FutexMutex<Subscription?>(nil)
        let trigger = subject.subscribe { value in
            guard value == 2 else { return }
            let subscription = late.subscribe(to: subject)
            held.withLock { $0 = subscription }
        }
        subject.publish(2)
        subject.publish(3)
        #expect(late.values == [2, 3])
        trigger.dispose()
        held.withLock { $0?.dispose() }
    }

    @Test func completedSubjectReplaysNoValue() {
        let subject = BehaviorSubject(7)
        subject.complete()
        let recorder = Recorder<Int>()
        let subscription = recorder.subscribe(to: subject)
        #expect(recorder.values.isEmpty)
        #expect(recorder.completionsReceived.count == 1)
        #expect(recorder.completionsReceived.first?.isFinished == true)
        #expect(subject.value == 7)
        subscription.dispose()
    }
}
