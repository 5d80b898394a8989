import Dispatch
import Synchronization
import Testing
import Vigil
import VigilTestSupport

/// A `BehaviorSubject` or a `BehaviorRelay` of `Int`, so each test runs on both.
struct IntStore: Sendable, CustomTestStringConvertible {
    let name: String
    let modify: @Sendable ((inout Int) -> Void) -> Void
    let read: @Sendable () -> Int
    let observable: Observable<Int>
    let publishIfChanged: @Sendable (Int) -> Bool

    var testDescription: String { name }

    static func subject(_ initial: Int = 0) -> IntStore {
        let subject = BehaviorSubject(initial)
        return IntStore(
            name: "BehaviorSubject", modify: { subject.modify($0) }, read: { subject.value },
            observable: subject.asObservable(), publishIfChanged: { subject.publishIfChanged($0) })
    }

    static func relay(_ initial: Int = 0) -> IntStore {
        let relay = BehaviorRelay(initial)
        return IntStore(
            name: "BehaviorRelay", modify: { relay.modify($0) }, read: { relay.value },
            observable: relay.asObservable(), publishIfChanged: { relay.publishIfChanged($0) })
    }

    static let kinds: [@Sendable () -> IntStore] = [{ subject() }, { relay() }]
}

@Suite(.timeLimit(.minutes(5))) struct ModifyReentryTests {
    /// Issue 21, defect 4: `a.modify { b.modify }` on one thread and `b.modify { a.modify }` on another deadlocked.
    @Test func nestedModifiesInOppositeOrdersOnTwoThreadsFinishAndLoseNoIncrement() {
        let rounds = 2000
        let a = BehaviorSubject(0)
        let b = BehaviorSubject(0)
        let seenA = Recorder<Int>()
        let seenB = Recorder<Int>()
        let bag = DisposeBag()
        seenA.subscribe(to: a).disposed(by: bag)
        seenB.subscribe(to: b).disposed(by: bag)
        // Each run of an outer body calls the inner modify once, and each inner modify takes effect once.
        let outerRunsOnA = Atomic<Int>(0)
        let outerRunsOnB = Atomic<Int>(0)
        let finished = finishes(within: 60) {
            concurrently(2) { thread in
                for _ in 0..<rounds {
                    if thread == 0 {
                        a.modify { value in
                            outerRunsOnA.add(1, ordering: .relaxed)
                            value += 1
                            b.modify { $0 += 1 }
                        }
                    } else {
                        b.modify { value in
                            outerRunsOnB.add(1, ordering: .relaxed)
                            value += 1
                            a.modify { $0 += 1 }
                        }
                    }
                }
            }
        }
        #expect(finished)
        guard finished else { return }
        // No lost increment: every outer step took effect once, and so did the inner step of every outer run.
        #expect(a.value == rounds + outerRunsOnB.load(ordering: .relaxed))
        #expect(b.value == rounds + outerRunsOnA.load(ordering: .relaxed))
        // Every result was published once, in the order the steps took effect.
        #expect(seenA.values == Array(0...a.value))
        #expect(seenB.values == Array(0...b.value))
        bag.dispose()
    }

    /// Issue 21, defect 5: a body publishing to a subject whose immediate subscriber modifies the same store trapped.
    @Test(arguments: IntStore.kinds)
    func aSubscriberReachedFromTheBodyModifiesAfterTheStep(make: @Sendable () -> IntStore) {
        let store = make()
        let relayed = PublishSubject<Int>()
        let seen = Recorder<Int>()
        let seenRelayed = Recorder<Int>()
        let bag = DisposeBag()
        seen.subscribe(to: store.observable).disposed(by: bag)
        seenRelayed.subscribe(to: relayed).disposed(by: bag)
        relayed.subscribe { _ in store.modify { $0 += 10 } }.disposed(by: bag)
        #expect(
            finishes {
                store.modify { value in
                    value += 1
                    relayed.publish(value)
                }
            })
        // The subscriber's modify ran after the step, on its result: both updates are there, each published once.
        #expect(store.read() == 11)
        #expect(seen.values == [0, 1, 11])
        #expect(seenRelayed.values == [1])
        bag.dispose()
    }

    /// The same through a nested modify of another subject: its subscriber modifies the outer store.
    @Test(arguments: IntStore.kinds)
    func aSubscriberOfANestedModifyModifiesTheOuterStoreAfterTheStep(make: @Sendable () -> IntStore) {
        let store = make()
        let other = BehaviorSubject(0)
        let seen = Recorder<Int>()
        let bag = DisposeBag()
        seen.subscribe(to: store.observable).disposed(by: bag)
        other.subscribe { value in
            if value > 0 { store.modify { $0 += 10 } }
        }.disposed(by: bag)
        #expect(
            finishes {
                store.modify { value in
                    value += 1
                    other.modify { $0 += 1 }
                }
            })
        #expect(store.read() == 11)
        #expect(other.value == 1)
        #expect(seen.values == [0, 1, 11])
        bag.dispose()
    }

    @Test func deliveriesStartedInsideABodyRunWhenTheStepIsOverInOrder() {
        let relay = BehaviorRelay(0)
        let relayed = PublishSubject<Int>()
        let events = Recorder<String>()
        let bag = DisposeBag()
        relay.subscribe { events.record("relay \($0)") }.disposed(by: bag)
        relayed.subscribe { events.record("relayed \($0)") }.disposed(by: bag)
        relay.modify { value in
            value = 1
            relayed.publish(7)
            relayed.publish(8)
            events.record("body returns")
        }
        #expect(events.values == ["relay 0", "body returns", "relayed 7", "relayed 8", "relay 1"])
        bag.dispose()
    }

    @Test func aSubscriptionMadeInsideABodyIsReplayedToAfterTheStepUnlessDisposedMeanwhile() {
        let subject = BehaviorSubject(0)
        let other = BehaviorSubject(7)
        let events = Recorder<String>()
        let kept = FutexMutex<[Subscription]>([])
        subject.modify { value in
            value = 1
            let subscription = other.subscribe { events.record("kept \($0)") }
            kept.withLock { $0.append(subscription) }
            other.subscribe { events.record("disposed \($0)") }.dispose()
            events.record("body returns")
        }
        #expect(events.values == ["body returns", "kept 7"])
        other.publish(8)
        #expect(events.values == ["body returns", "kept 7", "kept 8"])
        kept.withLock { $0.forEach { $0.dispose() } }
    }

    @Test func aThrowingBodyStillDeliversWhatItPublishedToOthersAfterwards() {
        let subject = BehaviorSubject(0)
        let relayed = PublishSubject<Int>()
        let events = Recorder<String>()
        let bag = DisposeBag()
        relayed.subscribe { events.record("relayed \($0)") }.disposed(by: bag)
        #expect(throws: TestError(code: 2)) {
            try subject.modify { value throws(TestError) in
                value = 5
                relayed.publish(1)
                events.record("body throws")
                throw TestError(code: 2)
            }
        }
        #expect(events.values == ["body throws", "relayed 1"])
        #expect(subject.value == 0)
        // The deliverer role the body's publish took was handed back: later publishes are delivered.
        relayed.publish(2)
        #expect(events.values.last == "relayed 2")
        bag.dispose()
    }

    @Test(arguments: IntStore.kinds)
    func aModifyOfTheStoreFromInsideItsOwnBodyIsRejectedWithoutATrap(make: @Sendable () -> IntStore) {
        let store = make()
        let seen = Recorder<Int>()
        let innerSaw = Recorder<Int>()
        let changed = Recorder<Bool>()
        let subscription = seen.subscribe(to: store.observable)
        #expect(
            finishes {
                store.modify { value in
                    value += 1
                    // Rejected: the inner body runs on the published value; nothing of it is published.
                    store.modify { inner in
                        innerSaw.record(inner)
                        inner += 100
                    }
                    changed.record(store.publishIfChanged(50))
                }
            })
        #expect(innerSaw.values == [0])
        #expect(changed.values == [false])
        #expect(store.read() == 1)
        #expect(seen.values == [0, 1])
        subscription.dispose()
    }

    @Test(arguments: IntStore.kinds)
    func aHundredThreadsModifyingLoseNoIncrementAndPublishInOrder(make: @Sendable () -> IntStore) {
        let store = make()
        let seen = Recorder<Int>()
        let subscription = seen.subscribe(to: store.observable)
        concurrently(100) { _ in
            for _ in 0..<50 { store.modify { $0 += 1 } }
        }
        #expect(store.read() == 5000)
        #expect(seen.values == Array(0...5000))
        subscription.dispose()
    }

    @Test func aBodyThatLostARaceRunsAgainOnTheWinnersResult() {
        let subject = BehaviorSubject(0)
        let seen = Recorder<Int>()
        let bodyInputs = Recorder<Int>()
        let entered = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        let subscription = seen.subscribe(to: subject)
        let slowDone = DispatchSemaphore(value: 0)
        TestThread.detach {
            subject.modify { value in
                bodyInputs.record(value)
                if bodyInputs.count == 1 {
                    entered.signal()
                    proceed.wait()
                }
                value += 1
            }
            slowDone.signal()
        }
        entered.wait()
        // Another modify while the first body runs: no lock is held, so it neither waits nor is lost.
        #expect(finishes { subject.modify { $0 += 100 } })
        proceed.signal()
        #expect(slowDone.wait(timeout: .now() + 10) == .success)
        #expect(bodyInputs.values == [0, 100])
        #expect(subject.value == 101)
        #expect(seen.values == [0, 100, 101])
        subscription.dispose()
    }
}
