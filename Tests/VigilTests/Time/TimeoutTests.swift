import Testing
import Vigil
import VigilTesting

@Suite(.timeLimit(.minutes(10))) struct TimeoutTests {
    @Test func failsWhenNoValueComesInTimeAndReleasesTheUpstream() async {
        let clock = ManualClock()
        let source = ProbedSource<Int>()
        let recorder = ClockRecorder<Int>(clock: clock)
        let subscription = recorder.subscribe(to: source.observable.timeout(ms(50), clock: clock))
        await clock.advance(by: ms(30))
        source.subject.publish(1)
        await clock.advance(to: .init(offset: ms(79)))
        #expect(recorder.events == [.value(1, at: ms(30))])
        await clock.advance(by: ms(1))
        let timedOut = String(describing: TimeoutError(interval: ms(50)))
        #expect(recorder.events == [.value(1, at: ms(30)), .failed(timedOut, at: ms(80))])
        #expect(!source.isSubscribed)
        #expect(clock.sleeperCount == 0)
        subscription.dispose()
    }

    @Test func doesNotFireWhileValuesKeepComing() async {
        let (clock, subject, recorder, subscription) = recording { subject, clock in
            subject.timeout(ms(50), clock: clock)
        }
        for value in 1...5 {
            await clock.advance(by: ms(40))
            subject.publish(value)
        }
        subject.complete()
        #expect(clock.sleeperCount == 0)
        #expect(await clock.advance(by: .seconds(1)) == 0)
        let expected: [Timed<Int>] = (1...5).map { .value($0, at: ms(40 * $0)) } + [.finished(at: ms(200))]
        #expect(recorder.events == expected)
        subscription.dispose()
    }

    @Test func switchesToTheOtherStreamOnTimeout() async {
        let clock = ManualClock()
        let source = ProbedSource<Int>()
        let other = ProbedSource<Int>()
        let recorder = ClockRecorder<Int>(clock: clock)
        let subscription = recorder.subscribe(
            to: source.observable.timeout(ms(50), clock: clock, other: other.observable))
        source.subject.publish(1)
        #expect(!other.isSubscribed, "other is subscribed only on a timeout")
        await clock.advance(by: ms(50))
        #expect(!source.isSubscribed)
        #expect(other.isSubscribed)
        source.subject.publish(2)
        other.subject.publish(7)
        #expect(await clock.advance(by: .seconds(1)) == 0, "no timeout after the switch")
        other.subject.complete()
        #expect(recorder.events == [.value(1, at: .zero), .value(7, at: ms(50)), .finished(at: ms(1050))])
        #expect(!other.isSubscribed)
        subscription.dispose()
    }

    @Test func disposingAfterTheSwitchReleasesTheOtherStream() async {
        let clock = ManualClock()
        let subject = PublishSubject<Int>()
        let other = ProbedSource<Int>()
        let subscription = subject.timeout(ms(50), clock: clock, other: other.observable).subscribe { _ in }
        await clock.advance(by: ms(50))
        #expect(other.isSubscribed)
        subscription.dispose()
        #expect(!other.isSubscribed)
    }
}
