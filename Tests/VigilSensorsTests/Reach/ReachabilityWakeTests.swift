import Testing
import Vigil
import VigilSensors
import VigilTestSupport

/// The `reach` source looks its targets up again after a wake (routes and carrier may have changed while the machine
/// slept, with the messages that said so long gone), found by its loop's wake watch; never without one.
@Suite(.timeLimit(.minutes(5))) struct ReachabilityWakeTests {
    @Test func theTargetsAreLookedUpAgainAfterAWakeOnly() async throws {
        let clocks = ClockPairs()
        let loop = EventLoop()
        defer { loop.shutdown() }
        loop.wakeWatch.useClockPairs(clocks.read)
        // In a namespace of its own where the tests run as root, so no change elsewhere on the machine asks a lookup.
        let namespace = NetlinkTestNamespace.isRoot ? try NetlinkTestNamespace() : nil
        defer { namespace?.remove() }
        try namespace?.ip("link", "set", "lo", "up")
        let monitor = ReachabilityMonitor(
            targets: [ReachTarget(host: "127.0.0.1")], namespace: namespace?.path, eventLoop: loop)
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        #expect(await eventually { monitor.readings.value.value != nil })
        try await loop.barrier()
        let settled = monitor.completedRounds
        clocks.awake(.seconds(5))
        loop.wakeWatch.check()
        try await loop.barrier()
        #expect(monitor.completedRounds == settled, "looked up again without a wake")
        clocks.asleep(.seconds(600))
        loop.wakeWatch.check()
        #expect(await eventually { monitor.completedRounds > settled }, "no lookup after the wake")
    }
}
