import Testing
import Vigil
import VigilTesting

@Suite(.timeLimit(.minutes(10))) struct ThrottleTests {
    @Test(arguments: [true, false])
    func deliversTheLeadingValueThenOnePerWindow(latest: Bool) async {
        let (clock, subject, recorder, subscription) = recording { subject, clock in
            subject.throttle(for: ms(100), clock: clock, latest: latest)
        }
        for value in 1...3 { subject.publish(value) }
        #expect(recorder.events == [.value(1, at: .zero)], "the leading value comes at once")
        await clock.advance(by: ms(30))
        subject.publish(4)
        await clock.advance(to: .init(offset: ms(200)))
        // The window that closed at 100 delivered its held value and opened the next; that one closed empty at 200.
        subject.publish(5)
        #expect(recorder.events == [.value(1, at: .zero), .value(latest ? 4 : 2, at: ms(100)), .value(5, at: ms(200))])
        #expect(await clock.waitForSleepers(1), "5 opened a window")
        subscription.dispose()
        #expect(clock.sleeperCount == 0)
    }

    @Test func finishingDeliversTheHeldValueFirst() async {
        let (clock, subject, recorder, subscription) = recording { subject, clock in
            subject.throttle(for: ms(100), clock: clock)
        }
        subject.publish(1)
        subject.publish(2)
        await clock.advance(by: ms(10))
        subject.complete()
        #expect(recorder.events == [.value(1, at: .zero), .value(2, at: ms(10)), .finished(at: ms(10))])
        #expect(clock.sleeperCount == 0, "the end cancels the timer")
        subscription.dispose()
    }
}
