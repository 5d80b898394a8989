import Dispatch
import Testing
import Vigil
import VigilTesting

@Suite(.timeLimit(.minutes(10))) struct DelayTests {
    @Test func shiftsValuesAndTheFinishKeepingOrderAndSpacing() async {
        let (clock, subject, recorder, subscription) = recording { subject, clock in
            subject.delay(for: ms(50), clock: clock)
        }
        subject.publish(1)
        await clock.advance(to: .init(offset: ms(10)))
        subject.publish(2)
        subject.publish(3)
        await clock.advance(to: .init(offset: ms(35)))
        subject.publish(4)
        await clock.advance(to: .init(offset: ms(40)))
        subject.complete()
        #expect(recorder.events.isEmpty)
        await clock.advance(to: .init(offset: ms(1000)))
        #expect(
            recorder.events == [
                .value(1, at: ms(50)), .value(2, at: ms(60)), .value(3, at: ms(60)), .value(4, at: ms(85)),
                .finished(at: ms(90)),
            ])
        subscription.dispose()
    }

    /// RxSwift documents it: "Error events from the source observable sequence are not delayed."
    @Test func failureComesAtOnceAndDropsTheWaitingValues() async {
        let (clock, subject, recorder, subscription) = recording { subject, clock in
            subject.delay(for: ms(50), clock: clock)
        }
        subject.publish(1)
        await clock.advance(by: ms(10))
        subject.fail(TestError(code: 2))
        #expect(recorder.events == [.failed("TestError(code: 2)", at: ms(10))])
        #expect(clock.sleeperCount == 0)
        #expect(await clock.advance(by: ms(100)) == 0)
        subscription.dispose()
    }

    /// The operator sees every value whatever the subscriber's buffer policy; only its output is conflated.
    @Test func everyValueIsDelayedUnderTheLatestPolicyAndOnlyTheOutputConflates() async {
        let clock = ManualClock()
        let subject = PublishSubject<Int>()
        let passed = Recorder<Int>()
        let recorder = ClockRecorder<Int>(clock: clock)
        let queue = DispatchQueue(label: "slow consumer")
        let unblock = block(queue)
        let delayed = subject.delay(for: ms(50), clock: clock).map { value in
            passed.record(value)
            return value
        }
        let subscription = recorder.subscribe(to: delayed, on: .queue(queue, buffer: .latest))
        for value in 1...3 { subject.publish(value) }
        subject.complete()
        await clock.advance(by: ms(50))
        #expect(passed.values == [1, 2, 3])
        unblock()
        #expect(await eventuallyAsync { recorder.count == 2 })
        #expect(recorder.events == [.value(3, at: ms(50)), .finished(at: ms(50))])
        subscription.dispose()
    }
}
