import Foundation
import Testing
import Vigil
import VigilSensors
import VigilTestSupport
import VigilTesting

/// The network monitor's traffic counters on a real kernel, in namespaces of the test's own: they agree with
/// `ip -s -j link` after a known transfer over a veth, and are refreshed on the update interval only while someone
/// subscribes.
@Suite(
    .timeLimit(.minutes(10)),
    .enabled(if: NetlinkTestNamespace.isRoot, "needs root to create network namespaces (ip netns add)"))
struct NetworkMonitorTrafficTests {
    @Test func countersAgreeWithIPAfterAKnownTransferOverAVeth() async throws {
        let veth = try VethTransfer()
        defer { veth.remove() }
        let monitor = NetworkMonitor(namespace: veth.near.path, updateInterval: .milliseconds(100))
        let subscriber = monitor.readings.subscribe { _ in }
        defer { subscriber.dispose() }
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        var counters: InterfaceTraffic? { monitor.readings.value.value?.interface(named: "v0")?.traffic }

        var before = try VethTransfer.ipTraffic("v0", in: veth.near)
        #expect(
            await eventually(within: 20) {
                before = (try? VethTransfer.ipTraffic("v0", in: veth.near)) ?? before
                return counters == before
            }, "\(String(describing: counters)) against ip's \(before)")
        let (count, payload) = (7, 300)
        try veth.sendDatagrams(count, payload: payload)
        var after = before
        #expect(
            await eventually(within: 20) {
                after = (try? VethTransfer.ipTraffic("v0", in: veth.near)) ?? after
                return counters == after && after != before
            }, "\(String(describing: counters)) against ip's \(after)")
        // Nothing but the datagrams left v0: no ARP (a permanent neighbour), no IPv6, no answer.
        #expect(after.transmit.packets - before.transmit.packets == UInt64(count))
        #expect(
            after.transmit.bytes - before.transmit.bytes == UInt64(count * VethTransfer.frameBytes(payload: payload)))
        #expect(after.receive == before.receive)
        let far = try VethTransfer.ipTraffic("v1", in: veth.far)
        #expect(far.receive.packets >= UInt64(count))
    }

    /// On a manual clock: no refresh while nobody subscribes, one per interval once someone does, a path published
    /// when the counters moved and once more when a refresh finds them still, then nothing.
    @Test func countersAreRefreshedOnTheIntervalOnlyWhileSubscribed() async throws {
        let veth = try VethTransfer()
        defer { veth.remove() }
        let clock = ManualClock()
        let loop = EventLoop(clock: clock)
        defer { loop.shutdown() }
        let monitor = NetworkMonitor(namespace: veth.near.path, updateInterval: .seconds(1), eventLoop: loop)
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        // Carrier comes a moment after the link is set up, and the dump it triggers (revived routes) ends before the
        // path with carrier is published.
        #expect(
            await eventually(within: 20) {
                monitor.readings.value.value?.interface(named: "v0")?.operationalStatus == .up
            })
        try veth.sendDatagrams(3, payload: 100)

        _ = await clock.advance(by: .seconds(3))
        let dumps = monitor.settledDumps
        monitor.refresh()
        #expect(await eventually(within: 20) { monitor.settledDumps > dumps }, "a full dump after the ticks")
        #expect(monitor.settledCounterRefreshes == 0, "no refresh without a subscriber")
        let fullDumps = monitor.statistics.dumps

        let published = FutexMutex<[NetworkPath]>([])
        let subscriber = monitor.readings.subscribe { reading in
            if let path = reading.value { published.withLock { $0.append(path) } }
        }
        defer { subscriber.dispose() }
        func counters() -> InterfaceTraffic? { published.withLock { $0.last?.interface(named: "v0")?.traffic } }
        func tick(to refreshes: Int) async -> Bool {
            _ = await clock.advance(by: .seconds(1))
            return await eventually(within: 20) { monitor.settledCounterRefreshes >= refreshes }
        }
        let first = published.withLock(\.count)
        try veth.sendDatagrams(2, payload: 100)
        #expect(await tick(to: 1))
        #expect(published.withLock(\.count) == first + 1, "the counters moved")
        #expect(try counters() == VethTransfer.ipTraffic("v0", in: veth.near))
        #expect(monitor.statistics.dumps == fullDumps, "a refresh of the counters is no full dump")

        #expect(await tick(to: 2))
        #expect(published.withLock(\.count) == first + 2, "once more with the counters still, for a zero rate")
        #expect(await tick(to: 3))
        #expect(published.withLock(\.count) == first + 2, "then nothing")
        let times = published.withLock { $0.suffix(2).map(\.time) }
        #expect(times.count == 2 && times[0] < times[1])

        try monitor.setUpdateInterval(.seconds(5))
        #expect(monitor.updateInterval == .seconds(5))
        _ = await clock.advance(by: .seconds(4))
        let dumpsNow = monitor.settledDumps
        monitor.refresh()
        #expect(await eventually(within: 20) { monitor.settledDumps > dumpsNow })
        #expect(monitor.settledCounterRefreshes == 3, "the new interval replaced the old timer")
        #expect(await tick(to: 4))
        #expect(throws: SensorError.self) { try monitor.setUpdateInterval(.zero) }
    }
}
