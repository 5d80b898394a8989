import Dispatch
import Synchronization
import Testing
import Vigil
import VigilTestSupport

/// An operator whose source or inner stream ends releases that subscription at once, on the thread that ended it,
/// while the operator goes on.
@Suite(.timeLimit(.minutes(10))) struct EndedSourceReleaseTests {
    /// A stream that ends when `ending` completes, and says when its subscription is torn down.
    final class TrackedSource: Sendable {
        let ending = PublishSubject<Int>()
        private let tornDown = Atomic<Bool>(false)

        var isTornDown: Bool { tornDown.load(ordering: .acquiring) }

        var observable: Observable<Int> {
            Observable { delivery, onNext, onCompletion in
                let inner = self.ending.subscribe(on: delivery, onNext: onNext, onCompletion: onCompletion)
                return Subscription(onDispose: {
                    self.tornDown.store(true, ordering: .releasing)
                    inner.dispose()
                })
            }
        }
    }

    static let operators: [(String, @Sendable (Observable<Int>, PublishSubject<Int>) -> Observable<Int>)] = [
        ("merge", { Observable.merge($0, $1.asObservable()) }),
        ("combineLatest", { Observable.combineLatest($0, $1).map { $0 + $1 } }),
        ("combineLatest array", { Observable.combineLatest([$0, $1.asObservable()]).map { $0.reduce(0, +) } }),
        ("zip", { Observable.zip($0, $1).map { $0 + $1 } }),
        ("zip array", { Observable.zip([$0, $1.asObservable()]).map { $0.reduce(0, +) } }),
        ("flatMap inner", { tracked, other in other.flatMap { _ in tracked } }),
        ("concatMap inner", { tracked, other in other.concatMap { _ in tracked } }),
        ("flatMapLatest inner", { tracked, other in other.flatMapLatest { _ in tracked } }),
        ("flatMap outer", { tracked, other in tracked.flatMap { _ in other } }),
        ("flatMapLatest outer", { tracked, other in tracked.flatMapLatest { _ in other } }),
    ]

    @Test(arguments: operators.map(\.0))
    func anEndedSourceIsReleasedAtOnceWhileTheOperatorGoesOn(name: String) {
        let make = Self.operators.first { $0.0 == name }!.1
        let tracked = TrackedSource()
        let other = PublishSubject<Int>()
        let recorder = Recorder<Int>()
        let subscription = recorder.subscribe(to: make(tracked.observable, other))
        other.publish(0)  // opens the inner stream of the flatMap family
        tracked.ending.publish(1)
        tracked.ending.publish(2)  // zip holds it unpaired, so this source's end does not end the zip
        tracked.ending.complete()
        #expect(tracked.isTornDown, "\(name) kept the subscription of a source that ended")
        #expect(recorder.completionsReceived.isEmpty, "\(name) ended")
        subscription.dispose()
    }

    /// RxSwift's `test2711MergeDoesntDisposeInnerSourcesUnderItsLock`, in Vigil's terms: a source's teardown takes
    /// a lock that another thread holds while it publishes into the merge; completing the source must tear its
    /// subscription down at once, and nothing may deadlock.
    @Test func mergeTearsDownACompletedSourceWhileAnotherThreadHoldingAForeignLockPublishes() {
        for _ in 0..<3 {
            let foreignLock = FutexMutex(0)
            let foreignLockHeld = DispatchSemaphore(value: 0)
            let teardownStarted = DispatchSemaphore(value: 0)
            let teardownTookTheLock = DispatchSemaphore(value: 0)
            let first = PublishSubject<Int>()
            let second = PublishSubject<Int>()
            let firstWithLockedTeardown = Observable<Int> { delivery, onNext, onCompletion in
                let inner = first.subscribe(on: delivery, onNext: onNext, onCompletion: onCompletion)
                return Subscription(onDispose: {
                    teardownStarted.signal()
                    _ = foreignLock.withLock { _ in teardownTookTheLock.signal() }
                    inner.dispose()
                })
            }
            let subscription = Observable.merge(firstWithLockedTeardown, second.asObservable()).subscribe { _ in }
            let finished = DispatchGroup()
            finished.enter()
            TestThread.detach {
                foreignLock.withLock { _ in
                    foreignLockHeld.signal()
                    #expect(teardownStarted.wait(timeout: .now() + 5) == .success, "the completed source was kept")
                    second.publish(1)
                }
                finished.leave()
            }
            finished.enter()
            TestThread.detach {
                foreignLockHeld.wait()
                first.complete()
                finished.leave()
            }
            #expect(finished.wait(timeout: .now() + 20) == .success)
            #expect(teardownTookTheLock.wait(timeout: .now() + 5) == .success)
            subscription.dispose()
        }
    }
}
