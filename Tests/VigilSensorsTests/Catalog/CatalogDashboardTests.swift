import Testing
import Vigil
import VigilSensors
import VigilTestSupport

/// A dashboard written against the catalog alone: it lists the sources, starts every available one and shows
/// their readings, with no cast to a concrete source or reading type.
@Suite(.timeLimit(.minutes(10))) struct CatalogDashboardTests {
    @Test func startsEveryAvailableSourceAndShowsItsReadings() async throws {
        let machine = FakeMachine.equipped()
        let shown = FutexMutex<[String: String]>([:])
        var running: [CatalogSource] = []
        var subscriptions: [Subscription] = []
        defer {
            for source in running { source.stopMonitoring() }
            for subscription in subscriptions { subscription.dispose() }
        }
        for entry in SourceCatalog.builtIn where entry.argumentName == nil {
            guard entry.availability(machine.options).isAvailable else { continue }
            let source = try entry.make(machine.options)
            subscriptions.append(
                source.readings.subscribe { reading in
                    shown.withLock { $0[entry.id] = reading.description }
                })
            try source.startMonitoring()
            running.append(source)
        }
        let started = Set(running.map(\.id))
        let stateSources: Set = [
            "battery", "power", "thermal", "hwmon", "backlight", "accelerometer", "orientation", "memory", "storage",
        ]
        #expect(started.isSuperset(of: stateSources))
        #expect(running.allSatisfy { $0.isMonitoring })
        #expect(await eventually { shown.withLock { Set($0.keys) }.isSuperset(of: stateSources) })
        let lines = shown.withLock { $0 }
        #expect(lines["battery"]?.contains("62") == true)
        #expect(lines["thermal"]?.contains("45.0 °C") == true)
        for source in running { source.stopMonitoring() }
        #expect(!running.contains { $0.isMonitoring })
    }
}
