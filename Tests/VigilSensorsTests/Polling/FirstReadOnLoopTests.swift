import Dispatch
import Testing
import Vigil
import VigilSensors

/// A polled source whose read may block (the storage monitor's `statvfs` of a dead network mount) starts at once and
/// reads on the event loop.
@Suite(.timeLimit(.minutes(10))) struct FirstReadOnLoopTests {
    @Test func startReturnsBeforeABlockingFirstReadAndTheReadingFollows() throws {
        let loop = EventLoop()
        defer { loop.shutdown() }
        let release = DispatchSemaphore(value: 0)
        let monitor = PolledMonitor<Int>(
            name: "blocking", updateInterval: .seconds(3600), eventLoop: loop, availability: { .available },
            onStart: nil, firstRead: .onLoop,
            read: { () throws(SensorError) -> Int? in
                // Bounded, so a start that read at once fails the test in 2 s instead of hanging it.
                _ = release.wait(timeout: .now() + 2)
                return 7
            })
        let started = ContinuousClock.now
        try monitor.startMonitoring()
        let took = ContinuousClock.now - started
        defer { monitor.stopMonitoring() }
        #expect(took < .milliseconds(100), "start took \(took) with its first read blocked")
        #expect(monitor.readings.value.status == .pending)
        release.signal()
        let read = firstReading(of: monitor.readings) { $0.status != .pending }
        #expect(read?.status == .value(7))
    }

    @Test func aStopBeforeTheFirstReadCancelsIt() async throws {
        let loop = EventLoop()
        defer { loop.shutdown() }
        let reads = FutexMutex(0)
        // Park the loop so the first read cannot run before the stop.
        let parked = DispatchSemaphore(value: 0)
        let unpark = DispatchSemaphore(value: 0)
        let park = try loop.schedule(after: .zero) {
            parked.signal()
            unpark.wait()
        }
        defer { park.cancel() }
        parked.wait()
        let monitor = PolledMonitor<Int>(
            name: "counted", updateInterval: .seconds(3600), eventLoop: loop, availability: { .available },
            onStart: nil, firstRead: .onLoop,
            read: { () throws(SensorError) -> Int? in
                reads.withLock { $0 += 1 }; return 1
            })
        try monitor.startMonitoring()
        monitor.stopMonitoring()
        unpark.signal()
        try await loop.barrier()  // due after the first read was: had the stop not cancelled it, it would have run
        #expect(reads.withLock { $0 } == 0)
        #expect(monitor.readings.value.status == .pending)
    }
}
