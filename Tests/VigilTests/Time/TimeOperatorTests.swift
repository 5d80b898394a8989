import Dispatch
import Synchronization
import Testing
import Vigil
import VigilTesting

/// What every time-based operator promises: disposal cancels its timer and releases its upstream with no callback
/// after it; a failure passes at once and releases the upstream.
@Suite(.timeLimit(.minutes(10))) struct TimeOperatorTests {
    static let operators: [(String, @Sendable (Observable<Int>, ManualClock) -> Observable<Int>)] = [
        ("throttle latest", { $0.throttle(for: ms(50), clock: $1, latest: true) }),
        ("throttle first", { $0.throttle(for: ms(50), clock: $1, latest: false) }),
        ("debounce", { $0.debounce(for: ms(50), clock: $1) }),
        ("delay", { $0.delay(for: ms(50), clock: $1) }),
        ("timeout", { $0.timeout(ms(50), clock: $1) }),
        ("timeout other", { $0.timeout(ms(50), clock: $1, other: PublishSubject<Int>()) }),
    ]

    static func apply(_ name: String) -> @Sendable (Observable<Int>, ManualClock) -> Observable<Int> {
        operators.first { $0.0 == name }!.1
    }

    /// The operator `name` on a probed source, subscribed by a recorder.
    static func probe(_ name: String) -> (ManualClock, ProbedSource<Int>, ClockRecorder<Int>, Subscription) {
        let clock = ManualClock()
        let source = ProbedSource<Int>()
        let recorder = ClockRecorder<Int>(clock: clock)
        return (clock, source, recorder, recorder.subscribe(to: apply(name)(source.observable, clock)))
    }

    @Test(arguments: operators.map(\.0))
    func disposingCancelsTheTimerAndReleasesTheUpstream(name: String) async {
        let (clock, source, recorder, subscription) = Self.probe(name)
        source.subject.publish(1)
        source.subject.publish(2)
        #expect(await clock.waitForSleepers(1))
        let before = recorder.events
        subscription.dispose()
        #expect(clock.sleeperCount == 0, "\(name) left its timer asleep")
        #expect(!source.isSubscribed, "\(name) kept its upstream")
        #expect(await clock.advance(by: .seconds(1)) == 0)
        #expect(recorder.events == before, "\(name) called back after dispose")
    }

    @Test(arguments: operators.map(\.0))
    func failurePassesAtOnceAndReleasesTheUpstream(name: String) async {
        let (clock, source, recorder, subscription) = Self.probe(name)
        source.subject.publish(1)
        await clock.advance(by: ms(10))
        source.subject.fail(TestError(code: 3))
        #expect(recorder.events.last == .failed("TestError(code: 3)", at: ms(10)))
        #expect(!source.isSubscribed)
        #expect(clock.sleeperCount == 0)
        subscription.dispose()
    }

    /// A value the timer releases and one that arrives from upstream on another thread reach the subscriber one at
    /// a time and in order, on a real clock.
    @Test func timerAndUpstreamCallbacksNeverOverlap() async {
        let subject = PublishSubject<Int>()
        let inside = Atomic<Int>(0)
        let overlaps = Atomic<Int>(0)
        let received = Recorder<Int>()
        let subscription = subject.throttle(for: .microseconds(50), clock: ContinuousClock(), latest: true)
            .subscribe(
                onNext: { value in
                    if inside.add(1, ordering: .acquiringAndReleasing).newValue != 1 {
                        overlaps.add(1, ordering: .relaxed)
                    }
                    received.record(value)
                    inside.subtract(1, ordering: .acquiringAndReleasing)
                },
                onCompletion: { received.recordCompletion($0) }
            )
        DispatchQueue(label: "publisher").async {
            for value in 0..<20_000 { subject.publish(value) }
            subject.complete()
        }
        #expect(await eventuallyAsync(timeout: 60) { received.completionsReceived.count == 1 })
        subscription.dispose()
        #expect(overlaps.load(ordering: .relaxed) == 0)
        let values = received.values
        #expect(values.first == 0 && values.last == 19_999, "the leading and the held last value")
        #expect(values == values.sorted() && Set(values).count == values.count, "values out of order")
    }
}

/// The `DispatchQueue` forms, on the real clock: one smoke test each.
@Suite(.timeLimit(.minutes(10))) struct DispatchTimeOperatorTests {
    private let queue = DispatchQueue(label: "timer")
    private let key = DispatchSpecificKey<Int>()

    init() {
        queue.setSpecific(key: key, value: 1)
    }

    @Test func debounceOnAQueueDeliversTheLastValueOnIt() async {
        let subject = PublishSubject<Int>()
        let received = Recorder<Bool>()
        let values = Recorder<Int>()
        let subscription = subject.debounce(.milliseconds(100), on: queue).subscribe { [key] value in
            received.record(DispatchQueue.getSpecific(key: key) == 1)
            values.record(value)
        }
        for value in 1...5 { subject.publish(value) }
        // Generous for a loaded machine under a sanitizer (the timer fires on the queue, not in a task, so other
        // tests' blocking waits on the concurrency pool no longer hold it); the wait ends once the value arrives.
        #expect(await eventuallyAsync(timeout: 300) { values.count == 1 })
        #expect(values.values == [5])
        #expect(received.values == [true])
        subscription.dispose()
    }

    @Test func throttleOnAQueueDeliversTheLeadingAndTheLatestValueOnIt() async {
        let subject = PublishSubject<Int>()
        let received = Recorder<Bool>()
        let values = Recorder<Int>()
        let subscription = subject.throttle(.milliseconds(100), on: queue, latest: true).subscribe { [key] value in
            received.record(DispatchQueue.getSpecific(key: key) == 1)
            values.record(value)
        }
        for value in 1...5 { subject.publish(value) }
        #expect(await eventuallyAsync(timeout: 300) { values.count == 2 })  // generous: see the debounce test
        #expect(values.values == [1, 5])
        #expect(received.values == [true, true])
        subscription.dispose()
    }
}
