import Dispatch
import Testing
import Vigil

@Suite(.timeLimit(.minutes(10))) struct TimeOperatorTests {
    private let queue = DispatchQueue(label: "timer")

    @Test(arguments: [true, false])
    func throttleDeliversTheLeadingValueThenOnePerWindow(latest: Bool) {
        let subject = PublishSubject<Int>()
        let recorder = Recorder<Int>()
        let subscription = recorder.subscribe(to: subject.throttle(.milliseconds(300), on: queue, latest: latest))
        for value in 1...5 { subject.publish(value) }
        #expect(eventually { recorder.count == 2 })
        // The leading value at once, then the held one (newest or first of the rest) when the window closes.
        #expect(recorder.values == [1, latest ? 5 : 2])
        usleepMilliseconds(700)
        #expect(recorder.count == 2, "an idle window delivers nothing more")
        subscription.dispose()
    }

    @Test func throttleDeliversTheHeldValueBeforeFinishingAndPassesFailure() {
        let subject = PublishSubject<Int>()
        let recorder = Recorder<Int>()
        let subscription = recorder.subscribe(to: subject.throttle(.seconds(5), on: queue, latest: true))
        subject.publish(1)
        subject.publish(2)
        subject.complete()
        #expect(eventually { recorder.completionsReceived.count == 1 })
        #expect(recorder.values == [1, 2])
        subscription.dispose()

        let failing = PublishSubject<Int>()
        let failed = Recorder<Int>()
        let failedSubscription = failed.subscribe(to: failing.throttle(.seconds(5), on: queue, latest: true))
        failing.fail(TestError(code: 4))
        #expect(eventually { failed.completionsReceived.count == 1 })
        #expect(failed.completionsReceived.first?.error as? TestError == TestError(code: 4))
        failedSubscription.dispose()
    }

    @Test func debounceDeliversOnlyAfterQuiet() {
        let subject = PublishSubject<Int>()
        let recorder = Recorder<Int>()
        let subscription = recorder.subscribe(to: subject.debounce(.milliseconds(200), on: queue))
        for value in 1...5 { subject.publish(value) }
        #expect(eventually { recorder.count == 1 })
        #expect(recorder.values == [5])
        subject.publish(6)
        #expect(eventually { recorder.count == 2 })
        #expect(recorder.values == [5, 6])
        subject.publish(7)
        subject.complete()
        #expect(eventually { recorder.completionsReceived.count == 1 })
        #expect(recorder.values == [5, 6, 7])
        subscription.dispose()
    }

    @Test func debounceDisposalStopsDelivery() {
        let subject = PublishSubject<Int>()
        let recorder = Recorder<Int>()
        let subscription = recorder.subscribe(to: subject.debounce(.milliseconds(100), on: queue))
        subject.publish(1)
        subscription.dispose()
        usleepMilliseconds(300)
        #expect(recorder.values.isEmpty)
    }
}
