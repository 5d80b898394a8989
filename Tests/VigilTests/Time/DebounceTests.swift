import Testing
import Vigil
import VigilTesting

@Suite(.timeLimit(.minutes(10))) struct DebounceTests {
    @Test func deliversTheLastValueOfEachBurstOnceQuiet() async {
        let (clock, subject, recorder, subscription) = recording { subject, clock in
            subject.debounce(for: ms(50), clock: clock)
        }
        subject.publish(1)
        await clock.advance(by: ms(20))
        subject.publish(2)
        await clock.advance(by: ms(20))
        subject.publish(3)
        await clock.advance(by: ms(49))
        #expect(recorder.events.isEmpty, "each value restarts the quiet period")
        await clock.advance(by: ms(1))
        #expect(recorder.events == [.value(3, at: ms(90))])
        subject.publish(4)
        await clock.advance(to: .init(offset: ms(200)))
        subject.complete()
        #expect(recorder.events == [.value(3, at: ms(90)), .value(4, at: ms(140)), .finished(at: ms(200))])
        subscription.dispose()
    }

    @Test func finishingDeliversTheWaitingValueFirst() async {
        let (clock, subject, recorder, subscription) = recording { subject, clock in
            subject.debounce(for: ms(50), clock: clock)
        }
        subject.publish(1)
        await clock.advance(by: ms(10))
        subject.complete()
        #expect(recorder.events == [.value(1, at: ms(10)), .finished(at: ms(10))])
        #expect(clock.sleeperCount == 0, "the end cancels the timer")
        #expect(await clock.advance(by: ms(100)) == 0)
        subscription.dispose()
    }

    @Test func failingDropsTheWaitingValue() async {
        let (clock, subject, recorder, subscription) = recording { subject, clock in
            subject.debounce(for: ms(50), clock: clock)
        }
        subject.publish(1)
        await clock.advance(by: ms(10))
        subject.fail(TestError(code: 7))
        await clock.advance(by: ms(100))
        #expect(recorder.events == [.failed("TestError(code: 7)", at: ms(10))])
        subscription.dispose()
    }
}
