import Testing
import Vigil
import VigilTestSupport
import VigilTesting

@testable import VigilSensors

/// Traffic moves counters, not answers: reach's mirror of links, addresses and routes refreshes no counters, and a
/// path that differs only in them asks no lookup again. Before, the mirror dumped the links every second while reach
/// subscribed, and each second that traffic flowed published a new path and so a round of lookups: polling.
@Suite(.timeLimit(.minutes(5))) struct ReachabilityTrafficTests {
    @Test func trafficAsksNoLookupAgain() async throws {
        if !NetlinkTestNamespace.isRoot {
            try skip("needs root to create network namespaces (ip netns add)", expectedUnderCI: false)
        }
        let veth = try VethTransfer()
        defer { veth.remove() }
        let clock = ManualClock()
        let loop = EventLoop(clock: clock)
        defer { loop.shutdown() }
        let monitor = ReachabilityMonitor(
            targets: [try ReachTarget(parsing: "10.9.0.2")], namespace: veth.near.path, eventLoop: loop)
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        #expect(
            await eventually(within: 20) { monitor.readings.value.value?.target("10.9.0.2")?.isReachable == true },
            "\(monitor.readings.value)")
        let rounds = monitor.completedRounds
        for _ in 0..<3 {
            try veth.sendDatagrams(3, payload: 100)
            _ = await clock.advance(by: .seconds(1))
        }
        // A full dump reads the counters the datagrams moved; once it is settled, any tick's refresh before it is too.
        let dumps = monitor.network.settledDumps
        monitor.network.refresh()
        #expect(await eventually(within: 20) { monitor.network.settledDumps > dumps }, "the mirror's dump")
        #expect(monitor.network.settledCounterRefreshes == 0, "the mirror refreshed its counters")
        #expect(monitor.completedRounds == rounds, "traffic asked the lookups again")
    }
}
