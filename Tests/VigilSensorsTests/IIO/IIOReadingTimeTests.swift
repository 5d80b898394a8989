import Testing
import Vigil
import VigilSensors
import VigilTestSupport

@Suite(.timeLimit(.minutes(10))) struct IIOReadingTimeTests {
    @Test func aSampleIsStampedWhenReadAndAnUnchangedReReadPublishesNothing() throws {
        let tree = FakeIIOTree()
        tree.addDevice(0, name: "acpi-als", files: ["in_illuminance_input": "10\n"])
        let monitor = AmbientLightMonitor(root: tree.root, updateInterval: .milliseconds(5))
        let recorder = IIOReadingRecorder(monitor.readings)
        let beforeStart = ContinuousClock.now
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        let first = try #require(recorder.first { $0.value?.lux == 10 })
        let afterFirst = ContinuousClock.now
        #expect(beforeStart <= first.time.monotonic && first.time.monotonic <= afterFirst)

        // About 20 polls of the same sample publish nothing more.
        #expect(!recorder.wait(timeout: 0.1) { $0.count > 2 }, "\(recorder.values)")

        let beforeChange = ContinuousClock.now
        tree.write("bus/iio/devices/iio:device0/in_illuminance_input", "20\n")
        let second = try #require(recorder.first { $0.value?.lux == 20 })
        let afterChange = ContinuousClock.now
        #expect(beforeChange <= second.time.monotonic && second.time.monotonic <= afterChange)
        #expect(first.time < second.time)
    }
}
