import Foundation
import Testing
import Vigil
import VigilSensors
import VigilTestSupport

@Suite(.timeLimit(.minutes(10))) struct DeviceEventTimeTests {
    @Test func encodesTheTimeBesideTheEvent() throws {
        let time = ReadingTime(monotonic: .now, wall: .seconds(1))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(DeviceEvent(.overflow, time: time)), as: UTF8.self)
        #expect(json == #"{"event":"overflow","time":"1970-01-01T00:00:01.000000Z"}"#)
    }

    @Test(.enabled(if: NetlinkTestNamespace.isRoot, "needs root to create network namespaces (ip netns add)"))
    func aUeventIsStampedWhenReceivedAndLaterEventsLater() async throws {
        let namespace = try NetlinkTestNamespace()
        defer { namespace.remove() }
        let monitor = DeviceMonitor(subsystems: ["net"], namespace: namespace.path)
        let events = FutexMutex<[DeviceEvent]>([])
        let subscription = monitor.readings.subscribe { event in events.withLock { $0.append(event) } }
        defer { subscription.dispose() }
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        func first(_ action: Uevent.Action) -> DeviceEvent? {
            events.withLock { $0 }.first { $0.uevent?.action == action && $0.uevent?.properties["INTERFACE"] == "tda" }
        }

        let beforeAdd = ContinuousClock.now
        try namespace.ip("link", "add", "tda", "type", "veth", "peer", "name", "tdb")
        #expect(await eventually(within: 20) { first(.add) != nil })
        let afterAdd = ContinuousClock.now
        let beforeChange = ContinuousClock.now
        try namespace.shell("echo change > /sys/class/net/tda/uevent")
        #expect(await eventually(within: 20) { first(.change) != nil })
        let afterChange = ContinuousClock.now

        let added = try #require(first(.add))
        let changed = try #require(first(.change))
        #expect(beforeAdd <= added.time.monotonic && added.time.monotonic <= afterAdd)
        #expect(beforeChange <= changed.time.monotonic && changed.time.monotonic <= afterChange)
        #expect(added.time < changed.time)
    }
}
