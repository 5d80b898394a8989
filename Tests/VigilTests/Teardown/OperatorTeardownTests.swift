import Dispatch
import Synchronization
import Testing
import Vigil
import VigilTestSupport
import VigilTesting

/// The teardown contract behind every operator and factory: `disposeAndWait()` is a barrier, a disposed or ended
/// subscription keeps nothing its callbacks captured, nothing keeps a subject alive once its subscriptions are gone,
/// and a released subject finishes its subscribers.
@Suite(.timeLimit(.minutes(10))) struct OperatorTeardownTests {
    @Test(arguments: OperatorCase.callingBackNames)
    func disposeAndWaitWaitsForTheCallbackRunningOnAnotherThread(name: String) async {
        await offThePool {
            let operatorCase = OperatorCase.named(name)
            let subject = PublishSubject<Int>()
            let callback = BlockedCallback()
            let subscription = operatorCase.make(subject).subscribe(on: .immediate, callback.runOnce)
            operatorCase.fire(subject)
            callback.expectDisposeAndWaitWaits(for: subscription)
            withExtendedLifetime(subject) {}
        }
    }

    @Test(arguments: ["merge", "flatMap", "timeout", "retry", "share"])
    func aBagsDisposeAndWaitWaitsForTheCallbacksOfWhatItHolds(name: String) async {
        await offThePool {
            let operatorCase = OperatorCase.named(name)
            let subject = PublishSubject<Int>()
            let callback = BlockedCallback()
            let bag = DisposeBag()
            subject.subscribe { _ in }.disposed(by: bag)
            operatorCase.make(subject).subscribe(on: .immediate, callback.runOnce).disposed(by: bag)
            operatorCase.fire(subject)
            callback.expectWaits { bag.disposeAndWait() }
        }
    }

    @Test(arguments: OperatorCase.names)
    func aDisposedSubscriptionKeepsNothingItsCallbacksCaptured(name: String) async {
        await offThePool {
            let operatorCase = OperatorCase.named(name)
            let subject = PublishSubject<Int>()
            let (subscription, token) = Self.subscribeCapturingAToken(operatorCase.make(subject))
            // A value in flight or waiting for a timer (a throttle window, a debounce, a delay), where it has one.
            if operatorCase.trigger == .publish { subject.publish(1) }
            subscription.dispose()
            #expect(eventually { token.isReleased }, "\(name) kept the subscriber's closures after dispose()")
            withExtendedLifetime(subscription) {}
        }
    }

    @Test(arguments: OperatorCase.subjectFedNames)
    func aSubscriptionThatEndedKeepsNothingItsCallbacksCaptured(name: String) async {
        await offThePool {
            let operatorCase = OperatorCase.named(name)
            let subject = PublishSubject<Int>()
            let (subscription, token) = Self.subscribeCapturingAToken(operatorCase.make(subject))
            subject.complete()
            #expect(eventually { token.isReleased }, "\(name) kept the subscriber's closures after it finished")
            withExtendedLifetime(subscription) {}
        }
    }

    @Test func aTimerThatFinishedKeepsNothingItsCallbacksCaptured() async {
        let clock = ManualClock()
        let (subscription, token) = Self.subscribeCapturingAToken(Observable.timer(.seconds(1), clock: clock))
        #expect(await clock.waitForSleepers(1))
        await clock.advance(by: .seconds(1))
        #expect(eventually(timeout: 10) { token.isReleased })
        withExtendedLifetime(subscription) {}
    }

    @Test func aDelayedEndOfAReleasedSubjectComesOnTimeAndReleasesTheCallbacks() async {
        let clock = ManualClock()
        let finished = Atomic<Int>(0)
        let (subscription, released) = { () -> (Subscription, WeakBox<LifetimeToken>) in
            let token = LifetimeToken()
            let subscription = PublishSubject<Int>().delay(for: .seconds(1), clock: clock).subscribe(
                onNext: { _ in withExtendedLifetime(token) {} },
                onCompletion: { _ in withExtendedLifetime(token) { _ = finished.add(1, ordering: .relaxed) } }
            )
            return (subscription, WeakBox(token))
        }()
        #expect(await clock.waitForSleepers(1))
        #expect(finished.load(ordering: .relaxed) == 0)
        await clock.advance(by: .seconds(1))
        #expect(await offThePool { eventually { finished.load(ordering: .relaxed) == 1 && released.isReleased } })
        withExtendedLifetime(subscription) {}
    }

    @Test(arguments: OperatorCase.names)
    func nothingHoldsTheSubjectOnceItsSubscriptionIsDisposed(name: String) async {
        await offThePool {
            let operatorCase = OperatorCase.named(name)
            let (subscription, subjectIsReleased) = { () -> (Subscription, @Sendable () -> Bool) in
                let subject = PublishSubject<Int>()
                let weakSubject = WeakBox(subject)
                return (operatorCase.make(subject).subscribe { _ in }, { weakSubject.object == nil })
            }()
            subscription.dispose()
            #expect(eventually { subjectIsReleased() }, "\(name) kept its subject after dispose()")
            withExtendedLifetime(subscription) {}
        }
    }

    @Test(arguments: OperatorCase.subjectFedNames)
    func aReleasedSubjectFinishesTheSubscribers(name: String) async {
        await offThePool {
            let operatorCase = OperatorCase.named(name)
            let recorder = Recorder<Int>()
            let subscription = recorder.subscribe(to: operatorCase.make(PublishSubject<Int>()))
            #expect(eventually { recorder.completionsReceived.count == 1 }, "\(name) kept its released subject")
            #expect(recorder.completionsReceived.first?.isFinished == true)
            withExtendedLifetime(subscription) {}
        }
    }

    @Test func retryOverAChainHoldsItsSourceOnlyWhileSubscribed() async {
        await offThePool {
            let recorder = Recorder<Int>()
            let weakSubject = WeakBox<PublishSubject<Int>>(nil)
            let subscription = { () -> Subscription in
                let subject = PublishSubject<Int>()
                weakSubject.object = subject
                return recorder.subscribe(to: subject.map { $0 }.retry(1))
            }()
            // Documented: every retry subscribes to the chain again, so the chain (and its subject) stays alive.
            #expect(weakSubject.object != nil)
            #expect(recorder.completionsReceived.isEmpty)
            subscription.dispose()
            #expect(weakSubject.object == nil)
        }
    }

    /// Subscribes with callbacks that capture a token; returns the subscription and the token's weak reference.
    static func subscribeCapturingAToken(_ observable: Observable<Int>) -> (Subscription, WeakBox<LifetimeToken>) {
        let token = LifetimeToken()
        let subscription = observable.subscribe(
            on: .immediate,
            onNext: { _ in withExtendedLifetime(token) {} },
            onCompletion: { _ in withExtendedLifetime(token) {} }
        )
        return (subscription, WeakBox(token))
    }
}

/// A weak reference that tests read from any thread.
final class WeakBox<Object: AnyObject & Sendable>: Sendable {
    private let reference: FutexMutex<WeakReference>

    private struct WeakReference: Sendable {
        weak var object: Object?
    }

    init(_ object: Object?) {
        reference = FutexMutex(WeakReference(object: object))
    }

    var object: Object? {
        get { reference.withLock { $0.object } }
        set { reference.withLock { $0.object = newValue } }
    }

    var isReleased: Bool { object == nil }
}

extension BlockedCallback {
    /// A callback that blocks the first time it runs and does nothing afterwards.
    var runOnce: @Sendable (Int) -> Void {
        let fired = Atomic<Bool>(false)
        return { _ in
            if !fired.exchange(true, ordering: .relaxed) { self.run() }
        }
    }
}
