import Glibc
import Testing
import VigilTestSupport

@testable import VigilSensors

/// rfkill switches read from fake `class/rfkill` trees: every attribute state the kernel documents, and attributes
/// that are absent, malformed, endless or not UTF-8, directories that vanish, and the real machine without rfkill.
@Suite(.timeLimit(.minutes(5))) struct RadioSwitchReadTests {
    /// A switch as the kernel shows it, every attribute present.
    static func attributes(
        name: String = "phy0", type: String = "wlan", soft: String = "0", hard: String = "0", state: String = "1",
        index: String = "1", reasons: String = "0x0"
    ) -> [String: String] {
        [
            "name": name, "type": type, "soft": soft, "hard": hard, "state": state, "index": index,
            "hard_block_reasons": reasons,
        ]
    }

    static func read(_ sys: FakeSysfsTree) throws -> RadioSwitches {
        try RadioSwitches.read(root: sys.root, eventDevice: nil, eventDeviceProblem: nil)
    }

    /// One state of a switch's attributes and what it reads as.
    struct StateCase: Sendable, CustomStringConvertible {
        let soft: String, hard: String, state: String, reasons: String
        let softBlocked: Bool, hardBlocked: Bool, expected: RadioSwitch.HardBlockReasons
        var description: String { "soft \(soft) hard \(hard) state \(state) reasons \(reasons)" }
    }

    static let states = [
        StateCase(
            soft: "0", hard: "0", state: "1", reasons: "0x0", softBlocked: false, hardBlocked: false, expected: []),
        StateCase(
            soft: "1", hard: "0", state: "0", reasons: "0x0", softBlocked: true, hardBlocked: false, expected: []),
        StateCase(
            soft: "0", hard: "1", state: "2", reasons: "0x1", softBlocked: false, hardBlocked: true, expected: .signal),
        StateCase(
            soft: "1", hard: "1", state: "2", reasons: "0x2", softBlocked: true, hardBlocked: true, expected: .notOwner),
        StateCase(
            soft: "0", hard: "1", state: "2", reasons: "0x3", softBlocked: false, hardBlocked: true,
            expected: [.signal, .notOwner]),
        StateCase(
            soft: "0", hard: "1", state: "2", reasons: "0x80", softBlocked: false, hardBlocked: true,
            expected: RadioSwitch.HardBlockReasons(rawValue: 0x80)),
    ]

    @Test(arguments: states) func everyStateIsRead(case state: StateCase) throws {
        let sys = FakeSysfsTree()
        sys.device(
            "class/rfkill/rfkill1",
            Self.attributes(soft: state.soft, hard: state.hard, state: state.state, reasons: state.reasons))
        let reading = try Self.read(sys)
        #expect(reading.problems.isEmpty, "\(reading.problems)")
        #expect(
            reading.switches == [
                RadioSwitch(
                    name: "rfkill1", label: "phy0", type: "wlan", softBlocked: state.softBlocked,
                    hardBlocked: state.hardBlocked, index: 1, hardBlockReasons: state.expected)
            ])
    }

    @Test func reasonsAreNamedAndUnknownBitsKept() {
        #expect(RadioSwitch.HardBlockReasons(rawValue: 0x83).names == ["signal", "not-owner", "bit 7"])
        #expect(RadioSwitch.HardBlockReasons().description == "none")
        let radio = RadioSwitch(
            name: "rfkill2", label: "phy1", type: "wlan", softBlocked: true, hardBlocked: true, index: 2,
            hardBlockReasons: .notOwner)
        #expect(radio.description == "rfkill2 soft-blocked, hard-blocked (not-owner)")
    }

    /// A kernel before 2.6.34 has `state` alone; before 5.11 no `hard_block_reasons`; an `index` missing comes from
    /// the entry's number.
    @Test(arguments: [("0", true, false), ("1", false, false), ("2", nil, true)] as [(String, Bool?, Bool?)])
    func stateAloneStandsInForSoftAndHard(state: String, soft: Bool?, hard: Bool?) throws {
        let sys = FakeSysfsTree()
        sys.device("class/rfkill/rfkill4", ["name": "tpacpi_bluetooth_sw", "type": "bluetooth", "state": state])
        let reading = try Self.read(sys)
        #expect(reading.problems.isEmpty, "\(reading.problems)")
        let radio = try #require(reading.switches.first)
        #expect(radio.softBlocked == soft && radio.hardBlocked == hard)
        #expect(radio.index == 4 && radio.hardBlockReasons == nil)
        #expect(reading.description.hasPrefix("tpacpi_bluetooth_sw (rfkill4, bluetooth) "))
        let unnamed = RadioSwitches(switches: [
            RadioSwitch(name: "rfkill7", label: nil, type: nil, softBlocked: true, hardBlocked: false)
        ])
        #expect(unnamed.description == "rfkill7 soft-blocked")
    }

    @Test func malformedAttributesHideOnlyTheirFieldAndSayWhere() throws {
        let sys = FakeSysfsTree()
        sys.device(
            "class/rfkill/rfkill1",
            Self.attributes(soft: "yes", hard: "7", state: "9", index: "-1", reasons: "0x1ff"))
        sys.device("class/rfkill/rfkill2", Self.attributes(name: "hci0", type: "bluetooth", index: "2"))
        let reading = try Self.read(sys)
        #expect(reading.switches.count == 2)
        let bad = try #require(reading.switches.first)
        #expect(bad.softBlocked == nil && bad.hardBlocked == nil && bad.hardBlockReasons == nil)
        #expect(bad.index == 1, "the entry's number stands in for a bad index")
        #expect(bad.description == "rfkill1 state unknown")
        for attribute in ["soft", "hard", "state", "index", "hard_block_reasons"] {
            #expect(reading.problems.contains { $0.contains("rfkill1/" + attribute) }, "\(attribute)")
        }
        #expect(reading.switches.last?.isUnblocked == true)
    }

    @Test func endlessAndUnreadableAttributesAreProblemsNotHangs() throws {
        let sys = FakeSysfsTree()
        sys.device("class/rfkill/rfkill1", Self.attributes())
        sys.remove("class/rfkill/rfkill1/soft")
        sys.link("class/rfkill/rfkill1/soft", to: "/dev/zero")
        sys.remove("class/rfkill/rfkill1/name")
        #expect(mkfifo(sys.root + "/class/rfkill/rfkill1/name", 0o644) == 0)
        let reading = try Self.read(sys)
        let radio = try #require(reading.switches.first)
        #expect(radio.softBlocked == false, "state 1 stands in for the endless soft")
        #expect(radio.label == nil)
        #expect(reading.problems.contains { $0.contains("rfkill1/soft") }, "\(reading.problems)")
        #expect(reading.problems.contains { $0.contains("rfkill1/name") }, "\(reading.problems)")
    }

    @Test func vanishedAndStrayEntriesHideOnlyThemselves() throws {
        let sys = FakeSysfsTree()
        sys.device("class/rfkill/rfkill1", Self.attributes())
        sys.link("class/rfkill/rfkill2", to: "../../devices/gone/rfkill2")
        sys.write("class/rfkill/rfkill3", "a file\n")
        sys.link("class/rfkill/rfkill4", to: "rfkill4")
        sys.makeDirectory("class/rfkill/notaswitch")
        let reading = try Self.read(sys)
        #expect(reading.switches.map(\.name) == ["rfkill1"])
        #expect(reading.problems.count == 2, "\(reading.problems)")
    }

    @Test func namesThatAreNotUTF8AreReadReplaced() throws {
        let sys = FakeSysfsTree()
        sys.device("class/rfkill/rfkill1", Self.attributes())
        sys.write("class/rfkill/rfkill1/name", bytes: [0x70, 0xFF, 0x30, 0x0A])
        sys.makeDirectory("class/rfkill")
        let odd = sys.root + "/class/rfkill/rfkill\u{FF}"
        #expect(mkdir(odd, 0o755) == 0)
        let reading = try Self.read(sys)
        #expect(reading.switches.map(\.name) == ["rfkill1"])
        #expect(reading.switches.first?.label == "p\u{FFFD}0")
    }

    @Test func aGoneRootIsNoReadingAndAnEmptyClassNoSwitches() throws {
        let sys = FakeSysfsTree()
        sys.makeDirectory("class/rfkill")
        #expect(try Self.read(sys).switches.isEmpty)
        #expect(try Self.read(sys).description == "no radio switches")
        #expect(throws: SensorError.notFound(path: sys.root + "/gone")) {
            try RadioSwitches.read(root: sys.root + "/gone", eventDevice: nil, eventDeviceProblem: nil)
        }
    }

    @Test func availabilityNamesWhatIsMissing() {
        let sys = FakeSysfsTree()
        guard case .unavailable(.missingDevice, let detail) = RadioMonitor(root: sys.root).availability else {
            Issue.record("available without class/rfkill")
            return
        }
        #expect(detail.contains(sys.root + "/class/rfkill"))
        sys.makeDirectory("class/rfkill")
        #expect(!RadioMonitor(root: sys.root).availability.isAvailable)
        sys.device("class/rfkill/rfkill0", Self.attributes())
        #expect(RadioMonitor(root: sys.root).availability == .available)
    }

    /// This machine has no rfkill driver and no `/dev/rfkill`: the real absent path, read for real.
    @Test func thisMachineWithoutRfkillSaysSo() throws {
        guard !SysfsFile.exists("/sys/class/rfkill") else {
            try skip(
                "this machine has rfkill switches; the absent path is checked on fake trees", expectedUnderCI: true)
        }
        let monitor = RadioMonitor()
        guard case .unavailable(.missingDevice, let detail) = monitor.availability else {
            Issue.record("\(monitor.availability)")
            return
        }
        #expect(detail.contains("/sys/class/rfkill"))
        #expect(throws: SensorError.self) { try monitor.startMonitoring() }
        #expect(!monitor.isMonitoring)
        if !SysfsFile.exists("/dev/rfkill") {
            #expect(throws: SensorError.notFound(path: "/dev/rfkill")) { try RfkillAccess.kernel.open("/dev/rfkill") }
        }
    }
}
