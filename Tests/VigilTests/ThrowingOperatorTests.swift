import Dispatch
import Testing
import Vigil
import VigilTestSupport

@Suite(.timeLimit(.minutes(10))) struct ThrowingOperatorTests {
    static let operators: [(String, @Sendable (Observable<Int>) -> Observable<Int>)] = [
        ("tryMap", { $0.tryMap { try failing(at: 3, $0) * 10 } }),
        ("tryFilter", { $0.tryFilter { try failing(at: 3, $0) != 2 } }),
        ("tryScan", { $0.tryScan(0) { try $0 + failing(at: 3, $1) } }),
    ]

    @Sendable static func failing(at bad: Int, _ value: Int) throws -> Int {
        if value == bad { throw TestError(code: value) }
        return value
    }

    @Test(arguments: operators.map(\.0))
    func aThrownErrorFailsTheStreamAndReleasesTheUpstreamAtOnce(name: String) {
        let apply = Self.operators.first { $0.0 == name }!.1
        let source = ProbedSource<Int>()
        let recorder = Recorder<Int>()
        let subscription = recorder.subscribe(to: apply(source.observable))
        for value in 1...4 { source.subject.publish(value) }
        let expected = ["tryMap": [10, 20], "tryFilter": [1], "tryScan": [1, 3]]
        #expect(recorder.values == expected[name])
        #expect(recorder.completionsReceived.count == 1)
        #expect(recorder.completionsReceived.first?.error as? TestError == TestError(code: 3))
        #expect(!source.isSubscribed)
        subscription.dispose()
    }

    @Test(arguments: operators.map(\.0))
    func withoutAThrowValuesAndCompletionPassThrough(name: String) {
        let apply = Self.operators.first { $0.0 == name }!.1
        let subject = PublishSubject<Int>()
        let recorder = Recorder<Int>()
        let subscription = recorder.subscribe(to: apply(subject.asObservable()))
        subject.publish(1)
        subject.publish(2)
        subject.fail(TestError(code: 1))
        #expect(!recorder.values.isEmpty)
        #expect(recorder.completionsReceived.first?.error as? TestError == TestError(code: 1))
        subscription.dispose()
    }

    @Test(arguments: operators.map(\.0))
    func aThrowDuringABehaviorSubjectsReplayFailsAndReleasesTheSubscription(name: String) {
        let apply = Self.operators.first { $0.0 == name }!.1
        let subject = BehaviorSubject(3)
        let recorder = Recorder<Int>()
        let (subscription, isReleased) = subscribeTracingRelease(recorder, to: subject, through: apply)
        subject.publish(1)
        #expect(recorder.values.isEmpty)
        #expect(recorder.completionsReceived.count == 1)
        #expect(eventually(isReleased))
        subscription.dispose()
    }

    @Test func tryScanStartsAgainForEachSubscription() {
        let subject = PublishSubject<Int>()
        let sums = subject.tryScan(100) { $0 + $1 }
        let first = Recorder<Int>()
        let firstSubscription = first.subscribe(to: sums)
        subject.publish(1)
        let second = Recorder<Int>()
        let secondSubscription = second.subscribe(to: sums)
        subject.publish(2)
        #expect(first.values == [101, 103])
        #expect(second.values == [102])
        firstSubscription.dispose()
        secondSubscription.dispose()
    }

    @Test func aCallbackPublishingIntoTheUpstreamIsQueuedNotNested() {
        let subject = PublishSubject<Int>()
        let recorder = Recorder<Int>()
        let done = finishes {
            let subscription = subject.tryMap { try Self.failing(at: 4, $0) }.subscribe(
                onNext: { value in
                    recorder.record(value)
                    subject.publish(value + 1)
                },
                onCompletion: { recorder.recordCompletion($0) })
            subject.publish(1)
            subscription.dispose()
        }
        #expect(done)
        #expect(recorder.values == [1, 2, 3])
        #expect(recorder.completionsReceived.first?.error as? TestError == TestError(code: 4))
    }
}

/// The new operators compute on every value, before the subscriber's delivery: a bounded buffer policy only drops
/// outputs the consumer has not taken yet, never changes what they are.
@Suite(.timeLimit(.minutes(10))) struct SimpleOperatorPolicyTests {
    static let operators: [(String, @Sendable (PublishSubject<Int>, PublishSubject<Int>) -> Observable<Int>)] = [
        ("dropFirst", { source, _ in source.dropFirst(2) }),
        ("drop(while:)", { source, _ in source.drop(while: { $0 != 2 }) }),
        ("prefix(while:)", { source, _ in source.prefix(while: { $0 < 4 }) }),
        ("removeDuplicates(by:)", { source, _ in source.map { $0 / 2 }.removeDuplicates(by: ==) }),
        ("tryScan", { source, _ in source.tryScan(0) { $0 + $1 } }),
        ("tryFilter", { source, _ in source.tryFilter { $0 % 2 == 1 } }),
        ("withLatestFrom", { source, other in source.withLatestFrom(other) { $0 * 100 + $1 } }),
        ("zip", { source, other in Observable.zip(source, other).map { $0 * 100 + $1 } }),
        ("combineLatest", { source, other in Observable.combineLatest([source, other]).map { $0[0] * 100 + $0[1] } }),
    ]

    /// What each operator delivers for sources 1, 2, 3, 4, 5 and (interleaved) 7, 8, 9, 10, 11, with nothing dropped.
    static let expected: [String: [Int]] = [
        "dropFirst": [3, 4, 5],
        "drop(while:)": [2, 3, 4, 5],
        "prefix(while:)": [1, 2, 3],
        "removeDuplicates(by:)": [0, 1, 2],
        "tryScan": [1, 3, 6, 10, 15],
        "tryFilter": [1, 3, 5],
        "withLatestFrom": [207, 308, 409, 510],
        "zip": [107, 208, 309, 410, 511],
        "combineLatest": [107, 207, 208, 308, 309, 409, 410, 510, 511],
    ]

    @Test(arguments: operators.map(\.0), [BufferPolicy.unbounded, .latest, .newest(2), .oldest(2)])
    func boundedPoliciesOnlyDropOutputs(name: String, policy: BufferPolicy) {
        let apply = Self.operators.first { $0.0 == name }!.1
        let source = PublishSubject<Int>()
        let other = PublishSubject<Int>()
        let consumer = DispatchQueue(label: "consumer")
        let recorder = Recorder<Int>()
        let unblock = block(consumer)
        let subscription = recorder.subscribe(to: apply(source, other), on: .queue(consumer, buffer: policy))
        for value in 1...5 {
            source.publish(value)
            other.publish(value + 6)
        }
        unblock()
        consumer.sync {}
        let all = Self.expected[name]!
        switch policy {
        case .unbounded: #expect(recorder.values == all)
        case .latest: #expect(recorder.values == Array(all.suffix(1)))
        case .newest(let count): #expect(recorder.values == Array(all.suffix(count)))
        case .oldest(let count): #expect(recorder.values == Array(all.prefix(count)))
        }
        subscription.dispose()
    }
}

/// Subscribes `recorder` to `operate` applied to `subject` through a map that holds a token; returns the
/// subscription and whether the token was released, which happens once the operator released its upstream.
func subscribeTracingRelease<Value: Sendable, Result: Sendable>(
    _ recorder: Recorder<Result>,
    to subject: some ObservableType<Value>,
    through operate: (Observable<Value>) -> Observable<Result>
) -> (Subscription, isReleased: @Sendable () -> Bool) {
    let token = LifetimeToken()
    let subscription = recorder.subscribe(
        to: operate(
            subject.map { value in
                _ = token
                return value
            }))
    return (subscription, { [weak token] in token == nil })
}
