import Dispatch
import Synchronization
import Testing
import Vigil
import VigilTestSupport

@Suite(.timeLimit(.minutes(10))) struct ReentrancyTests {
    @Test func publishInsideCallbackIsDeliveredAfterTheCurrentValueReachedEveryone() {
        let subject = BehaviorSubject(0)
        let first = Recorder<Int>()
        let second = Recorder<Int>()
        let bumper = subject.subscribe { value in
            first.record(value)
            if value >= 1 && value < 5 { subject.publish(value + 1) }
        }
        let watcher = second.subscribe(to: subject)
        subject.publish(1)
        #expect(first.values == [0, 1, 2, 3, 4, 5])
        // Recursive delivery would show the watcher 5, 4, 3, 2, 1: the last value it saw would be stale.
        #expect(second.values == [0, 1, 2, 3, 4, 5])
        #expect(second.values.last == subject.value)
        bumper.dispose()
        watcher.dispose()
    }

    @Test func publisherReadsItsOwnWriteWhileMorePublishesAreQueued() {
        let subject = BehaviorSubject(0)
        let observed = FutexMutex<[String]>([])
        let subscription = subject.subscribe { value in
            if value == 1 {
                subject.publish(2)
                observed.withLock { $0.append("own write \(subject.value)") }
            }
            observed.withLock { $0.append("delivered \(value), value \(subject.value)") }
        }
        subject.publish(1)
        #expect(
            observed.withLock { $0 } == [
                "delivered 0, value 0", "own write 2", "delivered 1, value 2", "delivered 2, value 2",
            ])
        subscription.dispose()
    }

    @Test func completeInsideCallbackWaitsUntilTheValueReachedEveryone() {
        let subject = PublishSubject<Int>()
        let second = Recorder<Int>()
        let completer = subject.subscribe { _ in subject.complete() }
        let watcher = second.subscribe(to: subject)
        subject.publish(1)
        subject.publish(2)
        #expect(second.values == [1])
        #expect(second.completionsReceived.count == 1)
        completer.dispose()
        watcher.dispose()
    }

    @Test func subscribingInsideCallbackDoesNotReceiveThePublishSubjectsValueInFlight() {
        let subject = PublishSubject<Int>()
        let late = Recorder<Int>()
        let held = FutexMutex<Subscription?>(nil)
        let trigger = subject.subscribe { value in
            guard value == 1 else { return }
            let subscription = late.subscribe(to: subject)
            held.withLock { $0 = subscription }
        }
        subject.publish(1)
        subject.publish(2)
        #expect(late.values == [2])
        trigger.dispose()
        held.withLock { $0?.dispose() }
    }

    @Test func disposingItselfInsideCallbackStopsAtOnce() {
        let subject = PublishSubject<Int>()
        let recorder = Recorder<Int>()
        let slot = FutexMutex<Subscription?>(nil)
        let subscription = subject.subscribe { value in
            recorder.record(value)
            slot.withLock { $0 }?.dispose()
            subject.publish(value + 100)
        }
        slot.withLock { $0 = subscription }
        subject.publish(1)
        subject.publish(2)
        #expect(recorder.values == [1])
        #expect(subscription.isDisposed)
    }

    @Test func disposingAnotherSubscriberInsideCallbackTakesEffectForTheRestOfTheDelivery() {
        let subject = PublishSubject<Int>()
        let victim = Recorder<Int>()
        let slot = FutexMutex<Subscription?>(nil)
        let killer = subject.subscribe { _ in slot.withLock { $0 }?.dispose() }
        let victimSubscription = victim.subscribe(to: subject)
        slot.withLock { $0 = victimSubscription }
        subject.publish(1)
        subject.publish(2)
        #expect(victim.values.isEmpty)
        killer.dispose()
    }
}

@Suite(.timeLimit(.minutes(10))) struct CrossThreadFeedbackTests {
    @Test func subjectsFeedingEachOtherFromCallbacksOnTwoThreadsDoNotDeadlock() {
        let ping = PublishSubject<Int>()
        let pong = PublishSubject<Int>()
        let pings = Recorder<Int>()
        let pongs = Recorder<Int>()
        let bag = DisposeBag()
        // Negative values are feedback: each hundredth ping makes a pong, which makes a ping back.
        ping.subscribe { value in
            pings.record(value)
            if value >= 0 && value % 100 == 0 { pong.publish(-value - 1) }
        }.disposed(by: bag)
        pong.subscribe { value in
            pongs.record(value)
            if value < 0 { ping.publish(value - 1_000_000) }
        }.disposed(by: bag)
        concurrently(2) { thread in
            for step in 0..<2000 {
                if thread == 0 { ping.publish(step) } else { pong.publish(10_000 + step) }
            }
        }
        #expect(pings.values.filter { $0 <= -1_000_000 }.count == 20)
        #expect(pongs.values.count == 2000 + 20)
        bag.dispose()
    }
}
