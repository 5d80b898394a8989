import Glibc
import Testing
import Vigil
import VigilSensors
import VigilTestSupport

/// ``LocationMonitor`` on a pseudo-terminal standing in for `/dev/gnss0`, found through a fake `class/gnss`.
@Suite(.timeLimit(.minutes(5))) struct LocationMonitorTests {
    /// A fake `/sys` with `class/gnss/gnss0` of type `UBX`, and a fake `/dev` whose `gnss0` links to a terminal.
    final class Fixture {
        let sys = FakeSysfsTree()
        let dev = FakeSysfsTree()
        let terminal: PseudoTerminal

        init?(node: String = "gnss0") {
            guard let terminal = PseudoTerminal() else { return nil }
            self.terminal = terminal
            sys.device("class/gnss/" + node, ["type": "UBX"])
            dev.link(node, to: terminal.slavePath)
        }
    }

    static func unavailableReason(_ monitor: LocationMonitor) -> String? {
        if case .unavailable(let reason) = monitor.readings.value.status { return reason }
        return nil
    }

    /// Whether `log` holds a fix of `time`.
    static func hasFix(_ log: ReadingLog<SensorReading<LocationFix>>, at time: String) -> Bool {
        log.entries.contains { $0.reading.value?.time?.description == time && $0.reading.value?.mode.hasFix == true }
    }

    static func log(_ name: String) -> [UInt8] {
        Fixtures.bytes("nmea/" + name) ?? []
    }

    @Test func readsFixesFromTheDiscoveredReceiver() async throws {
        let fixture = try #require(Fixture())
        let monitor = LocationMonitor(root: fixture.sys.root, devRoot: fixture.dev.root)
        #expect(monitor.availability == .available)
        let readings = ReadingLog(monitor)
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        #expect(await eventually { monitor.readings.value.value?.mode == .waiting })
        let waiting = try #require(monitor.readings.value.value)
        #expect(waiting.receiver == fixture.dev.root + "/gnss0" && waiting.receiverType == "UBX")
        #expect(waiting.description == "no fix yet: nothing decoded from \(fixture.dev.root)/gnss0")
        let bytes = Self.log("sirf4-bu353s4.log")
        var random = SeededRandom(seed: 5)
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + Int.random(in: 1...200, using: &random))
            fixture.terminal.write(bytes[offset..<end])
            offset = end
        }
        #expect(await eventually { monitor.readings.value.value?.time?.description == "2014-12-31T03:07:42.000Z" })
        #expect(Self.hasFix(readings, at: "2014-12-31T03:07:19.000Z"))
        let fix = try #require(monitor.readings.value.value)
        #expect(fix.mode == .threeD && fix.satellitesUsed == 7 && fix.receiverType == "UBX")
        withExtendedLifetime(fixture) {}
    }

    @Test func aHungUpReceiverIsUnavailableAndTheNextOneIsRead() async throws {
        let fixture = try #require(Fixture())
        let monitor = LocationMonitor(root: fixture.sys.root, devRoot: fixture.dev.root, updateInterval: .seconds(3600))
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        #expect(await eventually { monitor.readings.value.value?.mode == .waiting })
        fixture.terminal.hangUp()
        #expect(await eventually { Self.unavailableReason(monitor)?.contains("gnss0") == true })
        let replacement = try #require(PseudoTerminal())
        fixture.dev.remove("gnss0")
        fixture.dev.link("gnss0", to: replacement.slavePath)
        monitor.refresh()
        #expect(monitor.readings.value.value?.mode == .waiting)
        replacement.write(Self.log("ublox-lea-4h-nofix-then-fix.log").prefix(1200))
        #expect(await eventually { monitor.readings.value.value?.description == "no fix, 3 satellites in view" })
        withExtendedLifetime((fixture, replacement)) {}
    }

    @Test func floodsAndBinaryKeepTheLoopWorking() async throws {
        let fixture = try #require(Fixture())
        let monitor = LocationMonitor(root: fixture.sys.root, devRoot: fixture.dev.root)
        let readings = ReadingLog(monitor)
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        let terminal = fixture.terminal
        let flooded = await offThePool {
            var random = SeededRandom(seed: 9)
            let binary = (0..<(1 << 16)).map { _ in UInt8.random(in: 0...255, using: &random) }
            let letters = [UInt8](repeating: UInt8(ascii: "7"), count: 1 << 16)
            guard terminal.write([UInt8(ascii: "$")]) else { return false }
            for _ in 0..<32 { guard terminal.write(letters), terminal.write(binary) else { return false } }
            return terminal.write(Self.log("ublox8-nmea-with-ubx-binary.log"))
        }
        #expect(flooded)
        #expect(await eventually { Self.hasFix(readings, at: "2024-03-24T20:42:21.000Z") })
        withExtendedLifetime(fixture) {}
    }

    @Test func aSerialDeviceIsReadByPathEvenWhenItIsNotUTF8() async throws {
        let terminal = try #require(PseudoTerminal())
        let directory = TemporaryDirectory("gnss")
        let path = BytePath(bytes: Array((directory.path + "/tty-").utf8) + [0xFF])
        let linked = path.withCStringForTest { symlink(terminal.slavePath, $0) }
        #expect(linked == 0)
        let monitor = LocationMonitor(device: path)
        #expect(monitor.availability == .available)
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        terminal.write(Self.log("ublox-neo-m9n-multignss-first287.log"))
        #expect(await eventually { monitor.readings.value.value?.mode == .threeD })
        let fix = try #require(monitor.readings.value.value)
        #expect(fix.receiver.hasSuffix("tty-\\377") && fix.receiverType == nil)
        // Its last use was the write: Swift may release it (and hang the line up) while the monitor still reads, which
        // CI once saw as "the receiver went away (end of file)" before the fix came. So in every test here.
        withExtendedLifetime(terminal) {}
    }

    @Test func noReceiverIsUnavailableWithAReason() {
        let sys = FakeSysfsTree()
        let monitor = LocationMonitor(root: sys.root, devRoot: sys.root)
        guard case .unavailable(let reason, let detail) = monitor.availability else {
            Issue.record("available without a receiver")
            return
        }
        #expect(reason == .missingDevice && detail.contains("class/gnss"))
        #expect(throws: SensorError.self) { try monitor.startMonitoring() }
    }
}

extension BytePath {
    fileprivate func withCStringForTest<Result>(_ body: (UnsafePointer<CChar>) -> Result) -> Result {
        (bytes.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}
