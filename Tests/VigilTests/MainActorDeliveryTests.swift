import Dispatch
import Synchronization
import Testing
import Vigil
import VigilTestSupport

/// A `@MainActor` type as application code writes it: it captures `self` and mutates its own state in the callback,
/// with no `assumeIsolated` and no Sendable wrapper. That this compiles in Swift 6 mode with no warning is the test.
@MainActor final class ViewModel {
    var label = ""
    var labels: [String] = []
    var subscription: Subscription?
    let subject: PublishSubject<Int>

    init(subject: PublishSubject<Int>) {
        self.subject = subject
    }

    func start() {
        subscription = subject.subscribe(on: .mainActor) {
            self.label = "\($0)"
            self.labels.append(self.label)
        }
    }
}

/// Marks the main dispatch queue, the main actor's executor on Linux.
let mainQueueMarker: DispatchSpecificKey<Int> = {
    let key = DispatchSpecificKey<Int>()
    DispatchQueue.main.setSpecific(key: key, value: 1)
    return key
}()

/// Whether the caller runs on the main queue, and so on the main actor.
///
/// Not "the thread whose id is the process id": on Linux the main actor's jobs run on the main dispatch queue, and
/// once the process's main thread has handed itself to `dispatch_main()` (an async `main` does, and so does
/// `swift test`), that queue is drained by a worker thread, one at a time, in order.
func isOnMainQueue() -> Bool {
    DispatchQueue.getSpecific(key: mainQueueMarker) == 1
}

/// Awaits `condition` on the main actor, yielding to other main-actor work, for up to `seconds` (generous: the
/// tasks that drain mailboxes compete with every other test for two cores).
@MainActor
func eventuallyOnMainActor(seconds: Int = 60, _ condition: @MainActor () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .seconds(seconds)
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(1))
    }
    return condition()
}

@Suite(.timeLimit(.minutes(10))) struct MainActorDeliveryTests {
    @Test func theMainActorRunsOnTheMainQueueInThisTestProcess() async {
        // What every test below relies on: `swift test` services the main actor, on the main queue.
        #expect(!isOnMainQueue())
        let onMain = await MainActor.run { isOnMainQueue() }
        #expect(onMain)
    }

    @Test @MainActor func aMainActorViewModelMutatesItsOwnStateInOrder() async {
        let subject = PublishSubject<Int>()
        let model = ViewModel(subject: subject)
        model.start()
        // From another thread, so the values cross to the main actor.
        let published = DispatchSemaphore(value: 0)
        TestThread.detach {
            for value in 1...100 { subject.publish(value) }
            published.signal()
        }
        #expect(await eventuallyOnMainActor { model.labels.count == 100 })
        #expect(model.labels == (1...100).map { "\($0)" })
        #expect(model.label == "100")
        #expect(published.wait(timeout: .now() + 10) == .success)
        model.subscription?.dispose()
    }

    @Test(arguments: [
        (BufferPolicy.unbounded, Array(1...100)),
        (BufferPolicy.latest, [100]),
        (BufferPolicy.newest(3), [98, 99, 100]),
        (BufferPolicy.oldest(3), [1, 2, 3]),
    ])
    @MainActor func callbacksRunOnTheMainQueueInOrderUnderEachPolicy(policy: BufferPolicy, expected: [Int]) async {
        let subject = PublishSubject<Int>()
        var received: [Int] = []
        var offMainQueue = 0
        var completions: [Completion] = []
        let subscription = subject.subscribe(
            on: .mainActor(buffer: policy),
            onNext: { value in
                if !isOnMainQueue() { offMainQueue += 1 }
                received.append(value)
            },
            onCompletion: { completions.append($0) })
        // The main actor is busy with this test until it suspends: the mailbox holds what the policy keeps.
        for value in 1...100 { subject.publish(value) }
        subject.complete()
        #expect(received.isEmpty)
        #expect(await eventuallyOnMainActor { completions.count == 1 })
        #expect(received == expected)
        #expect(offMainQueue == 0)
        #expect(completions.first?.isFinished == true)
        subscription.dispose()
    }

    @Test @MainActor func disposingDropsValuesTheMainActorHasNotTaken() async {
        let subject = PublishSubject<Int>()
        var received: [Int] = []
        let subscription = subject.subscribe(on: .mainActor) { received.append($0) }
        for value in 0..<10 { subject.publish(value) }
        subscription.dispose()
        // A later subscription's value arriving proves the main actor ran the dropped drain first.
        var later: [Int] = []
        let probe = subject.subscribe(on: .mainActor) { later.append($0) }
        subject.publish(99)
        #expect(await eventuallyOnMainActor { later == [99] })
        #expect(received.isEmpty)
        probe.dispose()
    }

    @Test func disposeAndWaitOffTheMainActorWaitsForTheRunningCallback() {
        let subject = PublishSubject<Int>()
        let callback = BlockedCallback()
        let subscription = subject.subscribe(on: .mainActor) { _ in callback.run() }
        subject.publish(1)
        callback.expectDisposeAndWaitWaits(for: subscription)
    }

    @Test @MainActor func disposeAndWaitOnTheMainActorDoesNotWait() async {
        // Inside the callback and outside it: the main actor never waits for itself.
        let subject = PublishSubject<Int>()
        var received: [Int] = []
        let holder = FutexMutex<Subscription?>(nil)
        let subscription = subject.subscribe(on: .mainActor) { value in
            received.append(value)
            holder.withLock { $0 }?.disposeAndWait()
        }
        holder.withLock { $0 = subscription }
        subject.publish(1)
        subject.publish(2)
        #expect(await eventuallyOnMainActor { !received.isEmpty })
        #expect(received == [1])
        let other = subject.subscribe(on: .mainActor) { _ in }
        other.disposeAndWait()
        #expect(other.isDisposed)
    }

    @Test @MainActor func operatorsSeeEveryValueBeforeTheMainActorMailbox() async {
        let subject = PublishSubject<Int>()
        var received: [Int] = []
        let subscription = subject.scan(0, +).subscribe(on: .mainActor(buffer: .latest)) { received.append($0) }
        for value in 1...10 { subject.publish(value) }
        #expect(await eventuallyOnMainActor { received == [55] })
        subscription.dispose()
    }

    @Test @MainActor func aBehaviorSubjectReplaysOnTheMainActorNotInline() async {
        let subject = BehaviorSubject("first")
        var received: [String] = []
        let subscription = subject.subscribe(on: .mainActor) { received.append($0) }
        #expect(received.isEmpty)
        #expect(await eventuallyOnMainActor { received == ["first"] })
        subscription.dispose()
    }
}

actor Totals {
    var values: [Int] = []
    var completions = 0

    func snapshot() -> (values: [Int], completions: Int) { (values, completions) }

    /// Awaits, for up to a minute, a snapshot that satisfies `condition`, and returns the last one taken.
    ///
    /// Generous, because the tasks that drain the mailboxes run on the cooperative pool, which the synchronous tests
    /// running at the same time keep busy.
    func eventually(
        _ condition: @Sendable ((values: [Int], completions: Int)) -> Bool
    ) async -> (values: [Int], completions: Int) {
        let deadline = ContinuousClock.now + .seconds(60)
        while !condition(snapshot()) && ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(1))
        }
        return snapshot()
    }
}

@Suite(.timeLimit(.minutes(10))) struct ActorDeliveryTests {
    @Test(arguments: [BufferPolicy.unbounded, .newest(1000)])
    func callbacksAreIsolatedToTheActorAndArriveInOrder(policy: BufferPolicy) async {
        let subject = PublishSubject<Int>()
        let totals = Totals()
        let subscription = subject.subscribe(
            on: .actor(totals, buffer: policy),
            onNext: { totals, value in totals.values.append(value) },
            onCompletion: { totals, _ in totals.completions += 1 })
        for value in 1...1000 { subject.publish(value) }
        subject.complete()
        let snapshot = await totals.eventually { $0.completions > 0 }
        #expect(snapshot.completions == 1)
        #expect(snapshot.values == Array(1...1000))
        subscription.dispose()
    }

    @Test func disposeStopsActorCallbacks() async {
        let subject = PublishSubject<Int>()
        let totals = Totals()
        let subscription = subject.subscribe(on: .actor(totals)) { totals, value in totals.values.append(value) }
        subject.publish(1)
        _ = await totals.eventually { !$0.values.isEmpty }
        subscription.dispose()
        subject.publish(2)
        // A later subscriber on the same actor is served after anything the first one could still get.
        let probe = subject.subscribe(
            on: .actor(totals), onNext: { _, _ in }, onCompletion: { totals, _ in totals.completions += 1 })
        subject.complete()
        let snapshot = await totals.eventually { $0.completions > 0 }
        #expect(snapshot.completions == 1)
        #expect(snapshot.values == [1])
        probe.dispose()
    }
}

/// The README's main-actor example, compiled here so that it stays true.
@MainActor final class AgeViewModel {
    var label = ""
    let bag = DisposeBag()

    func start(ages: PublishSubject<Int>, name: BehaviorRelay<String>) {
        ages.subscribe(on: .mainActor) { self.label = "age \($0)" }.disposed(by: bag)
        name.subscribe(with: self, on: .mainActor(buffer: .latest)) { model, name in model.label = name }
            .disposed(by: bag)
    }
}

@Suite(.timeLimit(.minutes(10))) struct ReadmeMainActorExampleTests {
    @Test @MainActor func theReadmeViewModelShowsTheLatestValue() async throws {
        let ages = PublishSubject<Int>()
        let name = BehaviorRelay("zhangsan")
        let model = AgeViewModel()
        model.start(ages: ages, name: name)
        #expect(await eventuallyOnMainActor { model.label == "zhangsan" })
        ages.publish(18)
        #expect(await eventuallyOnMainActor { model.label == "age 18" })
        let counter = BehaviorSubject(0)
        counter.modify { $0 += 1 }
        #expect(!counter.publishIfChanged(1))
        #expect(counter.value == 1)
        var iterator = ages.values(buffer: .latest).makeAsyncIterator()
        ages.complete()
        #expect(try await iterator.next() == nil)
    }
}
