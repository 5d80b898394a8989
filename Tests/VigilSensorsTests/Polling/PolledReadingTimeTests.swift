import Testing
import Vigil
import VigilSensors
import VigilTestSupport

@Suite(.timeLimit(.minutes(10))) struct PolledReadingTimeTests {
    @Test func aReadingIsStampedWhenReadAndAnUnchangedReReadPublishesNothing() throws {
        let tree = FakeSysfsTree()
        tree.write("attr", "1\n")
        let monitor = AttributeMonitor(
            name: "attr", integerAt: tree.root + "/attr", strategy: .polling, updateInterval: .seconds(3600))
        let published = FutexMutex<[SensorReading<Int>]>([])
        let subscription = monitor.readings.subscribe { reading in published.withLock { $0.append(reading) } }
        defer { subscription.dispose() }
        let beforeStart = ContinuousClock.now
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        let first = monitor.readings.value
        let afterStart = ContinuousClock.now
        #expect(first.status == .value(1))
        #expect(beforeStart <= first.time.monotonic && first.time.monotonic <= afterStart)

        monitor.refresh()
        #expect(monitor.readings.value == first, "an unchanged re-read published a new reading")

        tree.write("attr", "2\n")
        let beforeChange = ContinuousClock.now
        monitor.refresh()
        let second = monitor.readings.value
        let afterChange = ContinuousClock.now
        #expect(second.status == .value(2))
        #expect(beforeChange <= second.time.monotonic && second.time.monotonic <= afterChange)
        #expect(first.time < second.time)
        #expect(published.withLock { $0.map(\.status) } == [.pending, .value(1), .value(2)])
    }
}
