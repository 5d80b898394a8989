import Dispatch
import Testing
import Vigil
import VigilTestSupport

@Suite(.timeLimit(.minutes(10))) struct OperatorTests {
    @Test func mapFilterCompactMapTransformValuesAndPassCompletion() {
        let subject = PublishSubject<Int>()
        let mapped = Recorder<String>()
        let filtered = Recorder<Int>()
        let compacted = Recorder<Int>()
        let subscriptions = [
            mapped.subscribe(to: subject.map { "#\($0)" }),
            filtered.subscribe(to: subject.filter { $0.isMultiple(of: 2) }),
            compacted.subscribe(to: subject.compactMap { $0 > 2 ? $0 * 10 : nil }),
        ]
        for value in 1...4 { subject.publish(value) }
        subject.complete()
        #expect(mapped.values == ["#1", "#2", "#3", "#4"])
        #expect(filtered.values == [2, 4])
        #expect(compacted.values == [30, 40])
        for recorder in [filtered, compacted] { #expect(recorder.completionsReceived.count == 1) }
        #expect(mapped.completionsReceived.count == 1)
        subscriptions.forEach { $0.dispose() }
    }

    @Test func operatorsPassFailure() {
        let subject = PublishSubject<Int>()
        let recorder = Recorder<Int>()
        let subscription = recorder.subscribe(
            to: subject.map { $0 + 1 }.filter { _ in true }.removeDuplicates().scan(0, +).prefix(10))
        subject.publish(1)
        subject.fail(TestError(code: 3))
        #expect(recorder.values == [2])
        #expect(recorder.completionsReceived.first?.error as? TestError == TestError(code: 3))
        subscription.dispose()
    }

    @Test func removeDuplicatesDropsConsecutiveRepeatsOnly() {
        let subject = PublishSubject<Int>()
        let recorder = Recorder<Int>()
        let subscription = recorder.subscribe(to: subject.removeDuplicates())
        for value in [1, 1, 2, 2, 2, 1, 3, 3] { subject.publish(value) }
        #expect(recorder.values == [1, 2, 1, 3])
        subscription.dispose()
    }

    @Test func scanAccumulatesPerSubscription() {
        let subject = PublishSubject<Int>()
        let first = Recorder<Int>()
        let second = Recorder<Int>()
        let running = subject.scan(0, +)
        let firstSubscription = first.subscribe(to: running)
        subject.publish(1)
        let secondSubscription = second.subscribe(to: running)
        subject.publish(2)
        subject.publish(3)
        #expect(first.values == [1, 3, 6])
        #expect(second.values == [2, 5])
        firstSubscription.dispose()
        secondSubscription.dispose()
    }

    @Test func prefixFinishesAfterCountAndDisposesUpstream() {
        let subject = BehaviorSubject(0)
        let recorder = Recorder<Int>()
        let subscription = recorder.subscribe(to: subject.prefix(3))
        for value in 1...5 { subject.publish(value) }
        #expect(recorder.values == [0, 1, 2])
        #expect(recorder.completionsReceived.count == 1)
        let source = ProbedSource<Int>()
        let probe = source.observable.prefix(2).subscribe { _ in }
        source.subject.publish(1)
        #expect(source.isSubscribed)
        source.subject.publish(2)
        #expect(!source.isSubscribed)
        probe.dispose()
        subscription.dispose()
        let none = Recorder<Int>()
        let noneSubscription = none.subscribe(to: subject.prefix(0))
        #expect(none.values.isEmpty && none.completionsReceived.count == 1)
        noneSubscription.dispose()
    }

    @Test func mergeInterleavesAndFinishesWhenAllFinish() {
        let left = PublishSubject<Int>()
        let right = PublishSubject<Int>()
        let recorder = Recorder<Int>()
        let subscription = recorder.subscribe(to: left.merge(right))
        left.publish(1)
        right.publish(2)
        left.complete()
        right.publish(3)
        #expect(recorder.completionsReceived.isEmpty)
        right.complete()
        #expect(recorder.values == [1, 2, 3])
        #expect(recorder.completionsReceived.count == 1)
        subscription.dispose()
    }

    @Test func mergeFailsOnFirstFailureAndDisposesUpstreams() {
        let left = PublishSubject<Int>()
        weak var weakToken: LifetimeToken?
        let recorder = Recorder<Int>()
        let subscription: Subscription
        do {
            let token = LifetimeToken()
            weakToken = token
            subscription = recorder.subscribe(
                to: Observable.merge(
                    left.asObservable(),
                    left.map {
                        _ = token; return $0
                    }))
        }
        left.publish(1)
        #expect(recorder.values == [1, 1])
        subscription.dispose()
        #expect(weakToken == nil)
        let failing = PublishSubject<Int>()
        let failed = Recorder<Int>()
        let failedSubscription = failed.subscribe(to: failing.merge(PublishSubject<Int>()))
        failing.fail(TestError(code: 9))
        #expect(failed.completionsReceived.first?.error as? TestError == TestError(code: 9))
        failedSubscription.dispose()
    }

    @Test func mergeSerializesValuesFromManyThreads() {
        let sources = (0..<4).map { _ in PublishSubject<Int>() }
        let recorder = Recorder<Int>()
        let subscription = recorder.subscribe(to: Observable.merge(sources.map { $0.asObservable() }))
        concurrently(4) { index in
            for step in 0..<1000 { sources[index].publish(index * 1000 + step) }
        }
        #expect(Set(recorder.values) == Set(0..<4000))
        subscription.dispose()
    }

    @Test func combineLatestPairsLatestValuesOnceBothHaveOne() {
        let numbers = PublishSubject<Int>()
        let letters = BehaviorSubject("a")
        let pairs = Recorder<String>()
        let subscription = pairs.subscribe(to: Observable.combineLatest(numbers, letters).map { "\($0)\($1)" })
        numbers.publish(1)
        letters.publish("b")
        numbers.publish(2)
        #expect(pairs.values == ["1a", "1b", "2b"])
        numbers.complete()
        #expect(pairs.completionsReceived.isEmpty)
        letters.publish("c")
        letters.complete()
        #expect(pairs.values == ["1a", "1b", "2b", "2c"])
        #expect(pairs.completionsReceived.count == 1)
        subscription.dispose()
    }

    @Test func combineLatestOfThreeAndItsFailureAndStarvation() {
        let a = BehaviorSubject(1)
        let b = BehaviorSubject(2)
        let c = PublishSubject<Int>()
        let sums = Recorder<Int>()
        let subscription = sums.subscribe(to: Observable.combineLatest(a, b, c).map { $0 + $1 + $2 })
        c.publish(3)
        a.publish(10)
        #expect(sums.values == [6, 15])
        b.fail(TestError(code: 2))
        #expect(sums.completionsReceived.first?.error as? TestError == TestError(code: 2))
        subscription.dispose()

        let never = PublishSubject<Int>()
        let starved = Recorder<(Int, Int)>()
        let starvedSubscription = starved.subscribe(to: Observable.combineLatest(never, BehaviorSubject(1)))
        never.complete()
        #expect(starved.completionsReceived.count == 1)
        starvedSubscription.dispose()
    }

    @Test func combineLatestDisposalDisposesUpstreams() {
        let a = PublishSubject<Int>()
        weak var weakToken: LifetimeToken?
        let subscription: Subscription
        do {
            let token = LifetimeToken()
            weakToken = token
            subscription = Observable.combineLatest(
                a.map {
                    _ = token; return $0
                }, a
            ).subscribe { _ in }
        }
        #expect(weakToken != nil)
        subscription.dispose()
        #expect(weakToken == nil)
    }
}

@Suite(.timeLimit(.minutes(10))) struct OperatorDisposalTests {
    /// Each operator, applied to a subject whose only subscriber path captures a token; disposing the operator's
    /// subscription must dispose the upstream one and so release the token.
    /// Subjects that live as long as the tests: a released subject finishes, and a zip with it would end early.
    static let silent = PublishSubject<Int>()
    static let held = BehaviorSubject(0)

    static let operators: [(String, @Sendable (Observable<Int>) -> Observable<Int>)] = [
        ("map", { $0.map { $0 + 1 } }),
        ("compactMap", { $0.compactMap { $0 } }),
        ("filter", { $0.filter { _ in true } }),
        ("removeDuplicates", { $0.removeDuplicates() }),
        ("scan", { $0.scan(0, +) }),
        ("prefix", { $0.prefix(100) }),
        ("prefix(while:)", { $0.prefix(while: { _ in true }) }),
        ("prepend", { $0.prepend(0) }),
        ("dropFirst", { $0.dropFirst() }),
        ("drop(while:)", { $0.drop(while: { _ in false }) }),
        ("removeDuplicates(by:)", { $0.removeDuplicates(by: { _, _ in false }) }),
        ("ignoreOutput", { $0.ignoreOutput() }),
        ("withLatestFrom", { $0.withLatestFrom(BehaviorSubject(0)) }),
        ("withLatestFrom other", { held.withLatestFrom($0) }),
        ("zip", { Observable.zip($0, silent).map { $0 + $1 } }),
        ("zip array", { Observable.zip([$0, silent.asObservable()]).map { $0[0] } }),
        ("combineLatest array", { Observable.combineLatest([$0, BehaviorSubject(0).asObservable()]).map { $0[0] } }),
        ("tryMap", { $0.tryMap { $0 } }),
        ("tryFilter", { $0.tryFilter { _ in true } }),
        ("tryScan", { $0.tryScan(0) { $0 + $1 } }),
        ("merge", { $0.merge(PublishSubject<Int>()) }),
        ("combineLatest", { Observable.combineLatest($0, BehaviorSubject(0)).map { $0 + $1 } }),
        ("throttle", { $0.throttle(.milliseconds(10), on: DispatchQueue(label: "t"), latest: true) }),
        ("debounce", { $0.debounce(.milliseconds(10), on: DispatchQueue(label: "d")) }),
    ]

    @Test(arguments: operators.map(\.0))
    func disposingDownstreamDisposesUpstream(name: String) {
        let apply = Self.operators.first { $0.0 == name }!.1
        let subject = PublishSubject<Int>()
        weak var weakToken: LifetimeToken?
        let subscription: Subscription
        do {
            let token = LifetimeToken()
            weakToken = token
            subscription = apply(
                subject.map { value in
                    _ = token; return value
                }
            ).subscribe { _ in }
        }
        subject.publish(1)
        #expect(weakToken != nil)
        subscription.dispose()
        #expect(eventually { weakToken == nil }, "\(name) kept its upstream subscription")
    }
}
