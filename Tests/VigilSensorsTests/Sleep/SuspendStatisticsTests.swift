import Glibc
import Testing
import VigilSensors
import VigilTestSupport

/// `<sys>/power/suspend_stats` parsed from fake trees written in the kernel's formats (`kernel/power/main.c`:
/// `%u` counters, `%d` negated errno, `%s` device and step names, `%llu` microseconds), since this machine has none.
@Suite(.timeLimit(.minutes(10))) struct SuspendStatisticsTests {
    static let directory = "power/suspend_stats"

    static func read(_ tree: FakeSysfsTree) -> SuspendStatistics? {
        SuspendStatistics.read(directory: tree.root + "/" + directory)
    }

    @Test func readsEveryAttributeTheKernelWrites() throws {
        let machine = FakeMachine.empty()
        machine.addSuspendStatistics()
        let statistics = try #require(Self.read(machine.sys))
        #expect(statistics.successes == 12 && statistics.failures == 1)
        #expect(statistics.failedSteps.map(\.step) == SuspendStatistics.Step.counted)
        #expect(statistics.failedSteps.map(\.count) == [1, 0, 0, 0, 0, 0, 0, 0])
        #expect(
            statistics.lastFailure
                == SuspendStatistics.Failure(device: "alarm", errno: Errno(rawValue: EBUSY), step: .freeze))
        #expect(statistics.lastFailure?.description == "at freeze, device alarm, EBUSY")
        #expect(statistics.lastHardwareSleep == nil && statistics.totalHardwareSleep == nil)
        #expect(statistics.problems.isEmpty)
        #expect(statistics.description == "suspends: 12 succeeded, 1 failed (last at freeze, device alarm, EBUSY)")
    }

    /// A kernel that never failed shows an empty device, errno 0 and an empty step: no failure, not a blank one.
    @Test func noFailureRecordedIsNoLastFailure() throws {
        let tree = FakeSysfsTree()
        tree.device(
            Self.directory,
            ["success": "3", "fail": "0", "last_failed_dev": "", "last_failed_errno": "0", "last_failed_step": ""])
        let statistics = try #require(Self.read(tree))
        #expect(statistics.successes == 3 && statistics.failures == 0 && statistics.lastFailure == nil)
        #expect(statistics.failedSteps.isEmpty, "steps the kernel does not show are left out")
        #expect(statistics.problems.isEmpty)
    }

    /// ACPI low-power idle machines (Linux 6.4+) add the hardware-sleep times, in microseconds.
    @Test func hardwareSleepTimesAreMicroseconds() throws {
        let tree = FakeSysfsTree()
        tree.device(
            Self.directory,
            [
                "success": "1", "fail": "0", "last_hw_sleep": "3600000123", "total_hw_sleep": "7200500000",
                "max_hw_sleep": "18446744073709551615",
            ])
        let statistics = try #require(Self.read(tree))
        #expect(statistics.lastHardwareSleep == .microseconds(3_600_000_123))
        #expect(statistics.totalHardwareSleep == .microseconds(7_200_500_000))
        #expect(statistics.maximumHardwareSleep == nil, "more microseconds than a Duration holds is not trusted")
        #expect(statistics.problems.count == 1 && statistics.problems[0].contains("max_hw_sleep"))
    }

    @Test func noDirectoryIsNoStatistics() {
        let tree = FakeSysfsTree()
        #expect(Self.read(tree) == nil)
        tree.write(Self.directory, "not a directory\n")
        #expect(Self.read(tree) == nil)
    }

    /// A FIFO, a link to `/dev/zero`, a directory, a dangling link, garbage, a negative count, a file past the
    /// attribute limit, non-UTF-8 and an over-long name: each hides only itself, and the broken ones are named in
    /// `problems`.
    @Test func hostileAttributesHideOnlyThemselves() throws {
        let tree = FakeSysfsTree()
        tree.device(Self.directory, ["failed_prepare": "2", "last_failed_step": "suspend_noirq"])
        let path = tree.root + "/" + Self.directory
        try #require(mkfifo(path + "/success", 0o600) == 0)
        tree.link(Self.directory + "/fail", to: "/dev/zero")
        tree.makeDirectory(Self.directory + "/failed_freeze")
        tree.link(Self.directory + "/failed_suspend", to: "nowhere")
        tree.write(Self.directory + "/failed_resume", "many\n")
        tree.write(Self.directory + "/failed_resume_early", "-4\n")
        tree.write(Self.directory + "/failed_suspend_late", String(repeating: "1", count: 70_000))
        tree.write(Self.directory + "/last_failed_errno", "-99999999999\n")
        tree.write(Self.directory + "/last_failed_dev", bytes: [0x61, 0xFF, 0x62] + Array(repeating: 0x63, count: 500))
        let statistics = try #require(Self.read(tree))
        #expect(statistics.successes == nil && statistics.failures == nil)
        #expect(statistics.failedSteps == [.init(step: .prepare, count: 2)])
        let failure = try #require(statistics.lastFailure)
        #expect(failure.step == .suspendNoIRQ && failure.errno == nil)
        let device = try #require(failure.device)
        #expect(device.hasPrefix("a\u{FFFD}bccc") && device.hasSuffix("…"))
        #expect(device.count == SuspendStatistics.deviceNameLimit + 1)
        let named = [
            "success", "fail", "failed_freeze", "failed_suspend_late", "failed_resume", "failed_resume_early",
            "last_failed_errno",
        ]
        #expect(statistics.problems.count == named.count, "\(statistics.problems)")
        for name in named {
            let file = path + "/" + name
            #expect(
                statistics.problems.contains { $0.hasPrefix(file + ":") || $0.hasPrefix(file + " ") },
                "\(name) is not named: \(statistics.problems)")
        }
    }

    /// A step name a later kernel may add is kept as the kernel wrote it.
    @Test func anUnknownStepIsKeptByName() throws {
        let tree = FakeSysfsTree()
        tree.device(Self.directory, ["last_failed_step": "freeze_filesystems", "last_failed_errno": "-5"])
        let failure = try #require(Self.read(tree)?.lastFailure)
        #expect(failure.step?.rawValue == "freeze_filesystems" && failure.errno == .ioError && failure.device == nil)
    }
}
