import Synchronization
import Testing
import Vigil
import VigilSensors
import VigilTestSupport

/// A published network path carries the time the mirror changed; a re-dump that finds nothing new publishes nothing.
@Suite(
    .serialized, .timeLimit(.minutes(10)),
    .enabled(if: NetlinkTestNamespace.isRoot, "needs root to create network namespaces (ip netns add)"))
struct NetworkPathTimeTests {
    @Test func aPathIsStampedWhenTheMirrorChangedAndAnUnchangedDumpPublishesNothing() async throws {
        let namespace = try NetlinkTestNamespace()
        defer { namespace.remove() }
        let monitor = NetworkMonitor(namespace: namespace.path)
        let published = FutexMutex<[SensorReading<NetworkPath>]>([])
        let subscription = monitor.readings.subscribe { path in published.withLock { $0.append(path) } }
        defer { subscription.dispose() }
        let beforeStart = ContinuousClock.now
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        // The subject's value is set before its subscribers are called, so wait for the delivery itself.
        #expect(await eventually(within: 20) { delivered(published, anInterfaceNamed: "lo") })
        let afterDump = ContinuousClock.now
        let first = monitor.readings.value
        #expect(beforeStart <= first.time.monotonic && first.time.monotonic <= afterDump)

        // The same tables dumped again: the new path differs only in its time, so it is not published. Waiting for
        // that dump to be settled (not for a fixed time) makes a publication, had there been one, already visible.
        #expect(await eventually(within: 20) { monitor.settledDumps >= 1 })
        let count = published.withLock { $0.count }
        let dumps = monitor.settledDumps
        monitor.refresh()
        #expect(await eventually(within: 20) { monitor.settledDumps > dumps }, "the refresh's dump never completed")
        #expect(published.withLock { $0.count } == count, "\(published.withLock { $0.map(\.description) })")
        #expect(monitor.readings.value == first)

        let beforeChange = ContinuousClock.now
        try namespace.ip("link", "add", "tva", "type", "veth", "peer", "name", "tvb")
        #expect(await eventually(within: 20) { delivered(published, anInterfaceNamed: "tva") })
        let afterChange = ContinuousClock.now
        let changed = try #require(published.withLock { $0 }.first { $0.value?.interface(named: "tva") != nil })
        #expect(beforeChange <= changed.time.monotonic && changed.time.monotonic <= afterChange)
        #expect(first.time < changed.time)
    }

    private func delivered(
        _ published: borrowing FutexMutex<[SensorReading<NetworkPath>]>, anInterfaceNamed name: String
    )
        -> Bool
    {
        published.withLock { $0.contains { $0.value?.interface(named: name) != nil } }
    }
}
