import Synchronization
import Testing
import Vigil

@Suite(.timeLimit(.minutes(10))) struct ErrorRecoveryTests {
    @Test func catchContinuesWithTheFallbackAndReleasesTheFailedSource() {
        let source = ProbedSource<Int>()
        let fallback = ProbedSource<Int>()
        let errors = FutexMutex<[Int]>([])
        let recorder = Recorder<Int>()
        let subscription = recorder.subscribe(
            to: source.observable.catch { error in
                errors.withLock { $0.append((error as? TestError)?.code ?? -1) }
                return fallback.observable
            })
        source.subject.publish(1)
        source.subject.fail(TestError(code: 8))
        #expect(!source.isSubscribed)
        #expect(fallback.isSubscribed)
        fallback.subject.publish(2)
        fallback.subject.complete()
        #expect(recorder.values == [1, 2])
        #expect(recorder.completionsReceived.map(\.isFinished) == [true])
        #expect(errors.withLock { $0 } == [8])
        subscription.dispose()
        #expect(!fallback.isSubscribed)
    }

    @Test func catchPassesFinishedOnAndDisposalReachesTheFallback() {
        let finishing = PublishSubject<Int>()
        let recorder = Recorder<Int>()
        let subscription = recorder.subscribe(to: finishing.catch { _ in Observable.just(0) })
        finishing.complete()
        #expect(recorder.completionsReceived.map(\.isFinished) == [true] && recorder.values.isEmpty)
        subscription.dispose()

        let fallback = ProbedSource<Int>()
        let probe = Observable<Int>.fail(TestError(code: 1)).catch { _ in fallback.observable }.subscribe { _ in }
        #expect(fallback.isSubscribed)
        probe.dispose()
        #expect(!fallback.isSubscribed)
    }

    @Test func catchFailsWithWhatItsHandlerThrowsOrWhatTheFallbackFails() {
        let thrown = Recorder<Int>()
        let first = thrown.subscribe(
            to: Observable<Int>.fail(TestError(code: 1)).catch { _ -> Observable<Int> in throw TestError(code: 2) })
        #expect(thrown.completionsReceived.first?.error as? TestError == TestError(code: 2))
        let failing = Recorder<Int>()
        let second = failing.subscribe(
            to: Observable<Int>.fail(TestError(code: 1)).catch { _ in Observable<Int>.fail(TestError(code: 3)) })
        #expect(failing.completionsReceived.count == 1)
        #expect(failing.completionsReceived.first?.error as? TestError == TestError(code: 3))
        first.dispose()
        second.dispose()
    }

    @Test func replaceErrorDeliversItsValueAndFinishesInsteadOfFailing() {
        let subject = PublishSubject<Int>()
        let recorder = Recorder<Int>()
        let subscription = recorder.subscribe(to: subject.replaceError(with: -1))
        subject.publish(1)
        subject.fail(TestError(code: 1))
        #expect(recorder.values == [1, -1])
        #expect(recorder.completionsReceived.map(\.isFinished) == [true])
        subscription.dispose()

        let finishing = Recorder<Int>()
        let second = finishing.subscribe(to: Observable.just(5).replaceError(with: -1))
        #expect(finishing.values == [5] && finishing.completionsReceived.map(\.isFinished) == [true])
        second.dispose()
    }

    @Test func retryResubscribesAfterDisposingTheFailedSubscriptionUpToItsCount() {
        let source = ProbedSource<Int>()
        let recorder = Recorder<Int>()
        let subscription = recorder.subscribe(to: source.observable.retry(2))
        source.subject.publish(1)
        source.subject.fail(TestError(code: 1))
        // A failed subject fails every later subscriber at once: two retries, then the failure.
        #expect(source.subscriptionCount == 3)
        #expect(source.disposalCount == 3)
        #expect(recorder.values == [1])
        #expect(recorder.completionsReceived.first?.error as? TestError == TestError(code: 1))

        let attempts = Atomic<Int>(0)
        let live = Atomic<Int>(0)
        let maxLive = Atomic<Int>(0)
        let flaky = Observable<Int>.create { observer in
            let attempt = attempts.add(1, ordering: .relaxed).newValue
            maxLive.max(live.add(1, ordering: .relaxed).newValue)
            observer.publish(attempt)
            observer.fail(TestError(code: attempt))
            return Subscription { live.subtract(1, ordering: .relaxed) }
        }
        let retried = Recorder<Int>()
        let retriedSubscription = retried.subscribe(to: flaky.retry(2))
        #expect(retried.values == [1, 2, 3])
        #expect(retried.completionsReceived.first?.error as? TestError == TestError(code: 3))
        #expect(attempts.load(ordering: .relaxed) == 3)
        #expect(maxLive.load(ordering: .relaxed) == 1)
        #expect(live.load(ordering: .relaxed) == 0)
        retriedSubscription.dispose()
        subscription.dispose()
    }

    @Test func retryStopsRetryingOnceAnAttemptSucceeds() {
        let attempts = Atomic<Int>(0)
        let flaky = Observable<Int>.deferred {
            let attempt = attempts.add(1, ordering: .relaxed).newValue
            return attempt < 3 ? Observable<Int>.fail(TestError(code: attempt)) : Observable.just(attempt)
        }
        let recorder = Recorder<Int>()
        let subscription = recorder.subscribe(to: flaky.retry(10))
        #expect(recorder.values == [3])
        #expect(recorder.completionsReceived.map(\.isFinished) == [true])
        #expect(attempts.load(ordering: .relaxed) == 3)
        subscription.dispose()
    }

    @Test func retryOfASynchronousFailureLoopsInsteadOfRecursing() {
        let recorder = Recorder<Int>()
        let subscription = recorder.subscribe(to: Observable<Int>.fail(TestError(code: 1)).retry(200_000))
        #expect(recorder.completionsReceived.count == 1)
        subscription.dispose()
        let zero = Recorder<Int>()
        let zeroSubscription = zero.subscribe(to: Observable<Int>.fail(TestError(code: 2)).retry(-1))
        #expect(zero.completionsReceived.first?.error as? TestError == TestError(code: 2))
        zeroSubscription.dispose()
    }

    @Test func retryDisposalReleasesTheCurrentAttempt() {
        let source = ProbedSource<Int>()
        let subscription = source.observable.retry(3).subscribe { _ in }
        #expect(source.isSubscribed)
        subscription.dispose()
        #expect(!source.isSubscribed)
    }
}
