import Dispatch
import Glibc
import Testing
import Vigil
import VigilSensors

@Suite(.timeLimit(.minutes(10))) struct IdleCostTests {
    /// CPU time of the calling thread, in seconds.
    static func threadCPUSeconds() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    /// Reads the loop thread's CPU time by running a one-shot handler on it.
    static func loopCPUSeconds(_ loop: EventLoop) -> Double {
        let result = FutexMutex(0.0)
        let done = DispatchSemaphore(value: 0)
        _ = try? loop.schedule(after: .milliseconds(1)) {
            result.withLock { $0 = threadCPUSeconds() }
            done.signal()
        }
        _ = done.wait(timeout: .now() + 10)
        return result.withLock { $0 }
    }

    @Test func everySourceStartedAndIdleCostsAlmostNoCPU() throws {
        // A private loop, so other suites' sources do not count. Defaults everywhere: the fastest timer is the CPU
        // monitor's 1 s. Busy polling would burn the whole 3 s; reading a few procfs files per second costs a few ms.
        let loop = EventLoop()
        defer { loop.shutdown() }
        let monitors: [any Monitor] = [
            PowerSupplyMonitor(eventLoop: loop), ThermalMonitor(eventLoop: loop), HwmonMonitor(eventLoop: loop),
            CPUUsageMonitor(eventLoop: loop), MemoryUsageMonitor(eventLoop: loop), StorageMonitor(eventLoop: loop),
            MemoryPressureMonitor(eventLoop: loop), ClockChangeMonitor(eventLoop: loop), SleepMonitor(eventLoop: loop),
            AttributeMonitor(name: "lo mtu", integerAt: "/sys/class/net/lo/mtu", eventLoop: loop),
        ]
        try monitors.startMonitoring()
        defer { monitors.stopMonitoring() }
        let before = Self.loopCPUSeconds(loop)
        usleepSeconds(3)
        let spent = Self.loopCPUSeconds(loop) - before
        #expect(spent < 0.3, "the event loop thread used \(spent) s of CPU in 3 s of idling")
    }
}
