import Testing
import Vigil
import VigilSensors

/// One error contract: a start that cannot run throws and publishes nothing (the monitor used to both throw and
/// publish an unavailable path, the only source that did both).
@Suite(.timeLimit(.minutes(5))) struct NetworkMonitorStartFailureTests {
    @Test func aStartThatCannotRunThrowsAndPublishesNothing() {
        let monitor = NetworkMonitor(namespace: "/nonexistent-vigil-netns")
        let published = FutexMutex<[SensorReading<NetworkPath>]>([])
        let subscription = monitor.readings.subscribe { reading in published.withLock { $0.append(reading) } }
        defer { subscription.dispose() }
        #expect(throws: SensorError.self) { try monitor.startMonitoring() }
        #expect(!monitor.isMonitoring)
        let statuses = published.withLock { $0.map(\.status) }
        #expect(statuses == [.pending], "only the subject's initial reading: \(statuses)")
    }
}
