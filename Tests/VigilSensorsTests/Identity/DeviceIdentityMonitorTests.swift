import Glibc
import Testing
import Vigil
import VigilSensors
import VigilTestSupport

/// The `device` source: polling on a fake tree, `POLLPRI` on the real hostname, and UTS namespaces kept apart.
@Suite(.serialized, .timeLimit(.minutes(5))) struct DeviceIdentityMonitorTests {
    @Test func aFakeTreeIsPolledAndAChangeIsPublished() throws {
        let machine = FakeMachine.equipped()
        let monitor = DeviceIdentityMonitor(
            sysfsRoot: machine.sys.root, procfsRoot: machine.proc.root, etcRoot: machine.etc.root,
            updateInterval: .seconds(3600))
        #expect(monitor.mode == nil)
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        #expect(monitor.mode == .polling)
        let first = try #require(monitor.readings.value.value)
        #expect(first.hostname == "fake-host")
        #expect(first.hardwareVendor == "Dell Inc." && first.hardwareModel == "OptiPlex 3060")
        #expect(first.chassis == .desktop)
        #expect(first.operatingSystem?.prettyName == "Debian GNU/Linux 12 (bookworm)")
        #expect(first.machineID == "3d1219c7c4c5404aaa1f6d2a48adfda4")
        #expect(first.kernel.name == "Linux" && !first.kernel.release.isEmpty)
        #expect(
            first.description.hasPrefix("fake-host, Debian GNU/Linux 12 (bookworm), Linux \(first.kernel.release) "))
        #expect(
            first.description.hasSuffix(", Dell Inc. OptiPlex 3060, chassis desktop, firmware 1.28.0 of 12/13/2023"))
        machine.proc.write("sys/kernel/hostname", "renamed\n")
        monitor.refresh()
        #expect(monitor.readings.value.value?.hostname == "renamed")
        machine.proc.remove("sys/kernel/hostname")
        monitor.refresh()
        guard case .unavailable(let reason) = monitor.readings.value.status else {
            Issue.record("no hostname gave \(monitor.readings.value)")
            return
        }
        #expect(reason == "\(machine.proc.root)/sys/kernel/hostname: no such file or directory")
    }

    @Test func withoutProcfsItIsUnavailableSayingWhere() {
        let machine = FakeMachine.empty()
        let monitor = DeviceIdentityMonitor(
            sysfsRoot: machine.sys.root, procfsRoot: machine.proc.root, etcRoot: machine.etc.root)
        #expect(
            monitor.availability
                == .unavailable(
                    reason: .kernelLacksInterface,
                    detail: "no \(machine.proc.root)/sys/kernel/hostname: procfs is not mounted"))
    }

    @Test func theRealHostnameIsWatchedAndMatchesTheKernel() throws {
        let monitor = DeviceIdentityMonitor(updateInterval: .seconds(3600))
        try #require(monitor.availability == .available)
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        #expect(monitor.mode == .notifications)
        let identity = try #require(monitor.readings.value.value)
        #expect(identity.hostname == Self.kernelHostname())
        #expect(identity.kernel.release == ProcessProbe.readFile("/proc/sys/kernel/osrelease"))
        #expect(identity.bootID == ProcessProbe.readFile("/proc/sys/kernel/random/boot_id"))
    }

    /// A child sets the hostname of its own UTS namespace: the kernel wakes this monitor too (the wake-up is shared),
    /// and the monitor, finding its own hostname unchanged, publishes nothing.
    @Test func aHostnameSetInAnotherUTSNamespaceIsNotPublished() async throws {
        guard getuid() == 0, let unshare = ChildProcess.installed("unshare") else {
            try skip("needs root and unshare(1) for a UTS namespace", expectedUnderCI: false)
        }
        let monitor = DeviceIdentityMonitor(updateInterval: .seconds(3600))
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        try #require(monitor.mode == .notifications)
        let published = FutexMutex<[SensorReading<DeviceIdentity>]>([])
        let subscription = monitor.readings.subscribe { reading in published.withLock { $0.append(reading) } }
        defer { subscription.dispose() }
        let own = Self.kernelHostname()
        let wakeUpsBefore = monitor.hostnameWakeUps
        let child = try ChildProcess(unshare, ["--uts", "/bin/sh", "-c", "hostname vigil-elsewhere && hostname"])
        #expect(await child.waitForExit())
        #expect(await eventually { child.standardOutput == "vigil-elsewhere\n" }, "\(child.standardError)")
        #expect(await eventually { monitor.hostnameWakeUps > wakeUpsBefore }, "the kernel's wake-up never came")
        try await EventLoop.shared.barrier()
        #expect(Self.kernelHostname() == own)
        #expect(published.withLock { $0.count } == 1, "\(published.withLock { $0 })")
        #expect(monitor.readings.value.value?.hostname == own)
    }

    /// This process's hostname, as the kernel gives it.
    static func kernelHostname() -> String { ProcessProbe.readFile("/proc/sys/kernel/hostname") ?? "" }
}
