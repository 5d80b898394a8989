import Testing
import Vigil
import VigilSensors
import VigilTestSupport
import VigilTesting

@Suite(.timeLimit(.minutes(10))) struct IIOReadingTimeTests {
    @Test func aSampleIsStampedWhenReadAndAnUnchangedReReadPublishesNothing() async throws {
        let tree = FakeIIOTree()
        tree.addDevice(0, name: "acpi-als", files: ["in_illuminance_input": "10\n"])
        let clock = ManualClock()
        let loop = EventLoop(clock: clock)
        defer { loop.shutdown() }
        let monitor = AmbientLightMonitor(root: tree.root, updateInterval: .milliseconds(5), eventLoop: loop)
        let recorder = IIOReadingRecorder(monitor.readings)
        let beforeStart = ContinuousClock.now
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        await clock.advance(by: .milliseconds(5))
        let first = try #require(recorder.values.last { $0.value?.lux == 10 })
        let afterFirst = ContinuousClock.now
        // Stamped by the real clocks when read, whatever clock times the polls.
        #expect(beforeStart <= first.time.monotonic && first.time.monotonic <= afterFirst)

        // Twenty polls of the same sample publish nothing more.
        #expect(await clock.advance(by: .milliseconds(100)) == 20)
        #expect(recorder.values.count == 2, "\(recorder.values)")

        let beforeChange = ContinuousClock.now
        tree.write("bus/iio/devices/iio:device0/in_illuminance_input", "20\n")
        await clock.advance(by: .milliseconds(5))
        let second = try #require(recorder.values.last { $0.value?.lux == 20 })
        let afterChange = ContinuousClock.now
        #expect(beforeChange <= second.time.monotonic && second.time.monotonic <= afterChange)
        #expect(first.time < second.time)
    }
}
