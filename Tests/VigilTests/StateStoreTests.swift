import Dispatch
import Synchronization
import Testing
import Vigil
import VigilTestSupport

@Suite(.timeLimit(.minutes(10))) struct StateStoreTests {
    @Test func modifyFromManyThreadsLosesNoIncrementAndPublishesInOrder() {
        let threads = 8
        let increments = 500
        let subject = BehaviorSubject(0)
        let immediate = Recorder<Int>()
        let queued = Recorder<Int>()
        let queue = DispatchQueue(label: "consumer")
        let bag = DisposeBag()
        immediate.subscribe(to: subject).disposed(by: bag)
        queued.subscribe(to: subject, on: .queue(queue)).disposed(by: bag)
        concurrently(threads) { _ in
            for _ in 0..<increments { subject.modify { $0 += 1 } }
        }
        let total = threads * increments
        #expect(subject.value == total)
        // Every result published once, in the order the modifications happened: strictly increasing, no gap.
        #expect(immediate.values == Array(0...total))
        #expect(eventually { queued.count == total + 1 })
        #expect(queued.values == Array(0...total))
        bag.dispose()
    }

    @Test func modifyReturnsWhatTheBodyReturnsAndPublishesOnce() {
        let subject = BehaviorSubject([1, 2])
        let recorder = Recorder<[Int]>()
        let subscription = recorder.subscribe(to: subject)
        let count = subject.modify { list -> Int in
            list.append(3)
            list.append(4)
            return list.count
        }
        #expect(count == 4)
        #expect(recorder.values == [[1, 2], [1, 2, 3, 4]])
        subscription.dispose()
    }

    @Test func aThrowingBodyPublishesNothing() {
        let subject = BehaviorSubject(1)
        let recorder = Recorder<Int>()
        let subscription = recorder.subscribe(to: subject)
        #expect(throws: TestError(code: 1)) {
            try subject.modify { value throws(TestError) in
                value = 99
                throw TestError(code: 1)
            }
        }
        #expect(subject.value == 1)
        #expect(recorder.values == [1])
        subscription.dispose()
    }

    @Test func modifyFromInsideACallbackIsQueuedNotNestedAndDoesNotDeadlock() {
        let subject = BehaviorSubject(0)
        let recorder = Recorder<Int>()
        let other = Recorder<Int>()
        let bag = DisposeBag()
        other.subscribe(to: subject).disposed(by: bag)
        subject.subscribe { value in
            recorder.record(value)
            if (1..<10).contains(value) { subject.modify { $0 += 1 } }
        }.disposed(by: bag)
        #expect(finishes { subject.modify { $0 = 1 } })
        // Each modify from a callback ran after the value in flight reached every subscriber, in order.
        #expect(recorder.values == Array(0...10))
        #expect(other.values == Array(0...10))
        #expect(subject.value == 10)
        bag.dispose()
    }

    @Test func modifyFromQueueCallbacksOnTwoSubjectsDoesNotDeadlock() {
        let ping = BehaviorSubject(0)
        let pong = BehaviorSubject(0)
        let bag = DisposeBag()
        ping.subscribe(on: .queue(DispatchQueue(label: "a"))) { value in
            if value < 200 { pong.modify { $0 = value + 1 } }
        }.disposed(by: bag)
        pong.subscribe(on: .queue(DispatchQueue(label: "b"))) { value in
            if value < 200 { ping.modify { $0 = value + 1 } }
        }.disposed(by: bag)
        ping.modify { $0 = 1 }
        #expect(eventually { ping.value >= 199 && pong.value >= 199 })
        bag.dispose()
    }

    @Test func modifyAfterCompletionRunsTheBodyButPublishesNothing() {
        let subject = BehaviorSubject(5)
        subject.complete()
        let ran = subject.modify { value -> Bool in
            value = 6
            return true
        }
        #expect(ran)
        #expect(subject.value == 5)
    }

    @Test func publishIfChangedPublishesOnlyChanges() {
        let subject = BehaviorSubject("a")
        let recorder = Recorder<String>()
        let subscription = recorder.subscribe(to: subject)
        #expect(!subject.publishIfChanged("a"))
        #expect(subject.publishIfChanged("b"))
        #expect(!subject.publishIfChanged("b"))
        #expect(subject.publishIfChanged("a"))
        #expect(recorder.values == ["a", "b", "a"])
        subject.complete()
        #expect(!subject.publishIfChanged("c"))
        #expect(subject.value == "a")
        subscription.dispose()
    }

    @Test func publishIfChangedFromManyThreadsNeverRepeatsAValue() {
        let subject = BehaviorSubject(0)
        let recorder = Recorder<Int>()
        let subscription = recorder.subscribe(to: subject)
        let published = Atomic<Int>(0)
        concurrently(4) { thread in
            for round in 0..<500 where subject.publishIfChanged((round + thread) % 3) {
                published.add(1, ordering: .relaxed)
            }
        }
        let values = recorder.values
        #expect(values.count == published.load(ordering: .relaxed) + 1)
        #expect(!zip(values, values.dropFirst()).contains { $0 == $1 })
        subscription.dispose()
    }

    @Test func subscriberCountFollowsJoinsAndLeavesFromManyThreads() {
        let subject = PublishSubject<Int>()
        let behavior = BehaviorSubject(0)
        let threads = 4
        let perThread = 50
        let subscriptions = FutexMutex<[Subscription]>([])
        let publisher = TirelessPublisher(into: subject)
        concurrently(threads) { _ in
            for _ in 0..<perThread {
                let first = subject.subscribe { _ in }
                let second = behavior.subscribe { _ in }
                subscriptions.withLock { $0 += [first, second] }
            }
        }
        #expect(subject.subscriberCount == threads * perThread)
        #expect(behavior.subscriberCount == threads * perThread)
        let all = subscriptions.withLock { $0 }
        concurrently(threads) { thread in
            for (index, subscription) in all.enumerated() where index % threads == thread { subscription.dispose() }
        }
        #expect(subject.subscriberCount == 0)
        #expect(behavior.subscriberCount == 0)
        publisher.stop()
    }

    @Test func subscriberCountCountsASubscriberJoiningFromInsideACallback() {
        let subject = PublishSubject<Int>()
        let counts = Recorder<Int>()
        let holder = FutexMutex<[Subscription]>([])
        let subscription = subject.subscribe { _ in
            let joined = subject.subscribe { _ in }
            holder.withLock { $0.append(joined) }
            counts.record(subject.subscriberCount)
        }
        subject.publish(1)
        #expect(counts.values == [2])
        subject.complete()
        #expect(subject.subscriberCount == 0)
        subscription.dispose()
    }
}

@Suite(.timeLimit(.minutes(10))) struct RelayTests {
    @Test func aPublishRelayDeliversAndFinishesOnlyWhenReleased() {
        let recorder = Recorder<Int>()
        var relay: PublishRelay<Int>? = PublishRelay()
        let subscription = recorder.subscribe(to: relay!)
        relay!.publish(1)
        relay!.publish(2)
        #expect(relay!.subscriberCount == 1)
        #expect(recorder.values == [1, 2])
        #expect(recorder.completionsReceived.isEmpty)
        relay = nil
        #expect(recorder.completionsReceived.count == 1)
        subscription.dispose()
    }

    @Test func aBehaviorRelayHoldsStateAndModifiesAtomically() {
        let relay = BehaviorRelay(0)
        let recorder = Recorder<Int>()
        let subscription = recorder.subscribe(to: relay.asObservable())
        concurrently(4) { _ in
            for _ in 0..<100 { relay.modify { $0 += 1 } }
        }
        #expect(relay.value == 400)
        #expect(recorder.values == Array(0...400))
        relay.publish(7)
        #expect(!relay.publishIfChanged(7))
        #expect(relay.publishIfChanged(8))
        #expect(recorder.values.suffix(2) == [7, 8])
        #expect(relay.subscriberCount == 1)
        subscription.dispose()
        #expect(relay.subscriberCount == 0)
    }
}
