import Testing
import Vigil
import VigilTesting

@Suite(.timeLimit(.minutes(10))) struct IntervalTests {
    @Test func intervalTicksFromZeroOnePeriodApartUntilDisposed() async {
        let clock = ManualClock()
        let recorder = ClockRecorder<Int>(clock: clock)
        let subscription = recorder.subscribe(to: Observable<Int>.interval(ms(100), clock: clock))
        await clock.advance(by: ms(350))
        #expect(recorder.events == [.value(0, at: ms(100)), .value(1, at: ms(200)), .value(2, at: ms(300))])
        #expect(clock.sleeperCount == 1)
        subscription.dispose()
        #expect(clock.sleeperCount == 0)
        #expect(await clock.advance(by: .seconds(1)) == 0)
        #expect(recorder.count == 3)
    }

    /// Each step waits only until the woken timer has settled and the next one is asleep: were the clock unable to
    /// tell (an operator timer it does not follow), every step would wait out its two-minute settle limit.
    @Test func eachStepWaitsOnlyUntilTheTimersSettle() async {
        let clock = ManualClock()
        let recorder = ClockRecorder<Int>(clock: clock)
        let subscription = recorder.subscribe(to: Observable<Int>.interval(ms(100), clock: clock))
        await clock.advance(by: ms(300))
        // Not a wall-clock bound: a starved cooperative pool (two cores under ThreadSanitizer) can make a step slow
        // without the clock being wrong; what must not happen is a step that waited out its settle limit.
        #expect(clock.settleTimeouts == 0)
        #expect(recorder.count == 3)
        subscription.dispose()
    }

    @Test func eachSubscriptionCountsOnATimerOfItsOwn() async {
        let clock = ManualClock()
        let ticks = Observable<Int>.interval(ms(100), clock: clock)
        let first = ClockRecorder<Int>(clock: clock)
        let second = ClockRecorder<Int>(clock: clock)
        let firstSubscription = first.subscribe(to: ticks)
        await clock.advance(by: ms(150))
        let secondSubscription = second.subscribe(to: ticks)
        await clock.advance(by: ms(110))
        #expect(first.events == [.value(0, at: ms(100)), .value(1, at: ms(200))])
        #expect(second.events == [.value(0, at: ms(250))])
        firstSubscription.dispose()
        secondSubscription.dispose()
    }

    @Test func aZeroPeriodTicksEveryHundredMicroseconds() async {
        let clock = ManualClock()
        let recorder = ClockRecorder<Int>(clock: clock)
        let subscription = recorder.subscribe(to: Observable<Int>.interval(.zero, clock: clock))
        await clock.advance(by: .microseconds(350))
        #expect(recorder.events == (0..<3).map { .value($0, at: .microseconds(100 * ($0 + 1))) })
        subscription.dispose()
    }

    @Test func timerTicksOnceThenFinishes() async {
        let clock = ManualClock()
        let recorder = ClockRecorder<Int>(clock: clock)
        let subscription = recorder.subscribe(to: Observable<Int>.timer(ms(30), clock: clock))
        await clock.advance(by: ms(29))
        #expect(recorder.events.isEmpty)
        await clock.advance(by: ms(100))
        #expect(recorder.events == [.value(0, at: ms(30)), .finished(at: ms(30))])
        #expect(clock.sleeperCount == 0)
        subscription.dispose()
    }

    @Test func timerWithAPeriodGoesOnTicking() async {
        let clock = ManualClock()
        let recorder = ClockRecorder<Int>(clock: clock)
        let subscription = recorder.subscribe(to: Observable<Int>.timer(ms(30), period: ms(100), clock: clock))
        await clock.advance(by: ms(250))
        #expect(recorder.events == [.value(0, at: ms(30)), .value(1, at: ms(130)), .value(2, at: ms(230))])
        subscription.dispose()
        #expect(clock.sleeperCount == 0)
    }
}
