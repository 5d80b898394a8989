import Dispatch
import Glibc
import Testing
import Vigil
import VigilTestSupport

@testable import VigilSensors

/// Reading an attribute never blocks and never reads unboundedly (issue 14, defects 2 and 3).
@Suite(.timeLimit(.minutes(10))) struct AttributeReadSafetyTests {
    /// Runs `body` on another thread and waits up to `seconds` for it; `unblock` runs if it is still waiting, so a
    /// regression fails the test instead of hanging the run.
    static func finishes<T: Sendable>(
        within seconds: Double = 5, unblock: () -> Void, _ body: @escaping @Sendable () -> T
    ) -> T? {
        let result = FutexMutex<T?>(nil)
        let done = DispatchSemaphore(value: 0)
        TestThread.detach {
            let value = body()
            result.withLock { $0 = value }
            done.signal()
        }
        if done.wait(timeout: .now() + seconds) == .timedOut {
            unblock()
            _ = done.wait(timeout: .now() + 5)
            return nil
        }
        return result.withLock { $0 }
    }

    @Test func fifoWhereAnAttributeShouldBeIsRefusedWithoutBlocking() throws {
        let tree = FakeSysfsTree()
        tree.device("class/power_supply/AC", ["type": "Mains"])
        let path = tree.root + "/class/power_supply/AC/online"
        try #require(mkfifo(path, 0o600) == 0)
        let outcome = Self.finishes(unblock: { Self.openAndClose(path) }) { () -> Result<String, SensorError> in
            Result { () throws(SensorError) in try SysfsFile.readText(path) }
        }
        let result = try #require(outcome, "reading a FIFO blocked the calling thread")
        #expect(throws: SensorError.wrongFileType(path: path, found: "FIFO", expected: "an attribute file")) {
            try result.get()
        }
        #expect(
            SensorError.wrongFileType(path: path, found: "FIFO", expected: "an attribute file").description
                == "\(path) is a FIFO, not an attribute file")
    }

    @Test func linkToDevZeroIsRefusedAsACharacterDevice() throws {
        let tree = FakeSysfsTree()
        tree.link("class/hwmon/hwmon0/temp1_input", to: "/dev/zero")
        let path = tree.root + "/class/hwmon/hwmon0/temp1_input"
        let outcome = Self.finishes(unblock: {}) { () -> Result<String, SensorError> in
            Result { () throws(SensorError) in try SysfsFile.readText(path) }
        }
        let result = try #require(outcome, "reading /dev/zero did not end")
        #expect(throws: SensorError.wrongFileType(path: path, found: "character device", expected: "an attribute file"))
        {
            try result.get()
        }
    }

    @Test func directoryWhereAnAttributeShouldBeIsRefused() throws {
        let tree = FakeSysfsTree()
        tree.makeDirectory("class/backlight/panel/brightness")
        let path = tree.root + "/class/backlight/panel/brightness"
        #expect(throws: SensorError.wrongFileType(path: path, found: "directory", expected: "an attribute file")) {
            try SysfsFile.readText(path)
        }
    }

    @Test func regularFileLargerThanTheCapIsAnErrorNotATruncatedParse() throws {
        let tree = FakeSysfsTree()
        let limit = SysfsFile.attributeLimit
        tree.write("class/thermal/thermal_zone0/type", String(repeating: "a", count: limit + 1))
        let path = tree.root + "/class/thermal/thermal_zone0/type"
        #expect(
            Self.failure { () throws(SensorError) in try SysfsFile.readText(path) }
                == .fileTooLarge(path: path, limit: limit))
        tree.write("class/thermal/thermal_zone0/type", String(repeating: "b", count: limit))
        #expect(try SysfsFile.readText(path).count == limit)
        tree.write("class/thermal/thermal_zone0/type", String(repeating: "c", count: 10 * limit))
        let open = try OpenAttribute(path: path)
        defer { open.close() }
        #expect(
            Self.failure { () throws(SensorError) in try open.readText() } == .fileTooLarge(path: path, limit: limit))
    }

    @Test func procfsFilesOfManyCoreMachinesFitTheirLargerCap() throws {
        // /proc/stat of a 2048-core machine: about 150 KiB, more than an attribute holds, less than the procfs cap.
        let tree = FakeSysfsTree()
        var text = "cpu  100 0 50 800 50 0 0 0 0 0\n"
        for core in 0..<2048 { text += "cpu\(core) 1234567 890 123456 98765432 1234 0 567 0 0 0\n" }
        tree.write("stat", text)
        #expect(text.utf8.count > SysfsFile.attributeLimit)
        let path = tree.root + "/stat"
        let times = try CPUTimes.parse(try SysfsFile.readText(path, limit: SysfsFile.procfsLimit))
        #expect(times.count == 2049)
    }

    @Test func fifoAttributeInAPowerSupplyDoesNotHangTheMonitor() throws {
        let tree = FakeSysfsTree()
        tree.device("class/power_supply/BAT0", ["type": "Battery", "status": "Discharging", "capacity": "50"])
        let path = tree.root + "/class/power_supply/BAT0/energy_now"
        try #require(mkfifo(path, 0o600) == 0)
        let root = tree.root
        let outcome = Self.finishes(unblock: { Self.openAndClose(path) }) { () -> String in
            let monitor = PowerSupplyMonitor(root: root, updateInterval: .seconds(3600))
            do {
                try monitor.startMonitoring()
            } catch {
                return "start failed: \(error)"
            }
            defer { monitor.stopMonitoring() }
            return monitor.readings.value.description
        }
        let description = try #require(outcome, "starting the power-supply monitor blocked on a FIFO")
        #expect(description.contains("energy_now is a FIFO, not an attribute file"))
    }

    /// The error `body` throws, or nil when it returns (without printing what it read, which may be huge).
    static func failure(_ body: () throws(SensorError) -> String) -> SensorError? {
        do {
            _ = try body()
            return nil
        } catch {
            return error
        }
    }

    /// Opens the FIFO for writing and closes it, which releases a reader blocked in `open(2)`.
    static func openAndClose(_ path: String) {
        let fd = open(path, O_WRONLY | O_NONBLOCK)
        if fd >= 0 { close(fd) }
    }
}
