import Glibc
import Testing
import Vigil
import VigilSensors
import VigilTestSupport

@Suite(.timeLimit(.minutes(10))) struct AttributeRemovalTests {
    /// Runs `ip` with `arguments`; true when it exits 0.
    static func ip(_ arguments: [String]) -> Bool {
        var pid = pid_t()
        let argv = (["/usr/sbin/ip"] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        guard posix_spawn(&pid, "/usr/sbin/ip", nil, nil, argv, environ) == 0 else { return false }
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        return status == 0
    }

    @Test func watchedAttributeOfARemovedDeviceFallsBackToPollingWithoutSpinning() async throws {
        // A real kernfs node that goes away: one end of a veth pair. After removal kernfs reports POLLERR | POLLPRI
        // on every wait; the monitor must notice the failed re-read, stop watching and poll instead.
        let name = "vgl\(getpid() % 100_000)a"
        try #require(Self.ip(["link", "add", name, "type", "veth", "peer", "name", name + "b"]), "cannot create veth")
        var removed = false
        defer { if !removed { _ = Self.ip(["link", "del", name]) } }
        let loop = EventLoop()
        defer { loop.shutdown() }
        let path = "/sys/class/net/\(name)/tx_queue_len"
        let monitor = AttributeMonitor(
            name: "veth queue", integerAt: path, strategy: .automatic, updateInterval: .seconds(1), eventLoop: loop)
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        #expect(monitor.mode == .notifications)
        #expect(monitor.readings.value.status == .value(1000))
        removed = Self.ip(["link", "del", name])
        try #require(removed)
        let gone = firstReading(of: monitor.readings) { if case .unavailable = $0.status { true } else { false } }
        #expect(gone != nil, "the removal was never reported")
        // The mode changes right after the unavailable reading is published, on the loop thread.
        let switched = await eventually(within: 5) { monitor.mode == .polling }
        #expect(switched, "still \(String(describing: monitor.mode))")
        let before = IdleCostTests.loopCPUSeconds(loop)
        usleepSeconds(1)
        let spent = IdleCostTests.loopCPUSeconds(loop) - before
        #expect(spent < 0.2, "the loop used \(spent) s of CPU in 1 s after the device went away")
    }
}
