import Testing
import VigilTesting

@Suite(.timeLimit(.minutes(10))) struct ManualClockTests {
    @Test func sleeperWakesAtItsDeadlineAndNotBefore() async throws {
        let clock = ManualClock()
        let sleeper = Task { try await clock.sleep(until: .init(offset: ms(100))) }
        #expect(await clock.waitForSleepers(1))
        #expect(await clock.advance(by: ms(99)) == 0)
        #expect(clock.sleeperCount == 1)
        #expect(await clock.advance(by: ms(1)) == 1)
        try await sleeper.value
        #expect(clock.now == .init(offset: ms(100)))
        #expect(clock.sleeperCount == 0)
    }

    @Test func sleepUntilAPastDeadlineReturnsAtOnce() async throws {
        let clock = ManualClock()
        await clock.advance(by: ms(50))
        try await clock.sleep(until: .init(offset: ms(10)))
        #expect(clock.sleeperCount == 0)
    }

    @Test func advanceWakesEveryDueSleeperAndCountsThem() async throws {
        let clock = ManualClock()
        let sleepers = [30, 10, 20, 10, 90].map { deadline in
            Task { try await clock.sleep(until: .init(offset: ms(deadline))) }
        }
        #expect(await clock.waitForSleepers(5))
        #expect(await clock.advance(to: .init(offset: ms(30))) == 4)
        #expect(clock.sleeperCount == 1)
        for sleeper in sleepers.prefix(4) { try await sleeper.value }
        #expect(await clock.advance(by: ms(60)) == 1)
        try await sleepers[4].value
    }

    @Test func cancelledSleepThrowsAndStopsCounting() async {
        let clock = ManualClock()
        let sleeper = Task { try await clock.sleep(until: .init(offset: .seconds(1))) }
        #expect(await clock.waitForSleepers(1))
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.sleeperCount == 0)
        #expect(await clock.advance(by: .seconds(2)) == 0)
    }

    @Test func sleepInACancelledTaskThrowsEvenPastItsDeadline() async {
        let clock = ManualClock()
        let sleeper = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await clock.sleep(until: .init(offset: .zero))
        }
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.sleeperCount == 0)
    }

    @Test func timeNeverGoesBack() async {
        let clock = ManualClock()
        await clock.advance(to: .init(offset: ms(100)))
        await clock.advance(to: .init(offset: ms(50)))
        await clock.advance(by: ms(-10))
        #expect(clock.now == .init(offset: ms(100)))
    }

    @Test func waitingForSleepersThatNeverComeTimesOut() async {
        let clock = ManualClock()
        #expect(await clock.waitForSleepers(1, timeout: ms(20)) == false)
        #expect(await clock.waitForSleepers(0, timeout: ms(20)))
    }
}
