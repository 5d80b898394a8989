import Glibc
import Testing
import VigilSensors
import VigilTestSupport

/// What a hostile or broken tree hands ``SwitchMonitor`` (reading the kernel's way, no stand-in): a FIFO, a regular
/// file, a directory, a dangling link or a device that is not evdev where the node should be; garbage capability
/// bitmaps; a name that is not UTF-8 or far too long. Each hides only its own device, with a reason; nothing blocks,
/// crashes or reads without bound.
@Suite(.timeLimit(.minutes(5))) struct SwitchMonitorHostileTests {
    /// Reads once, through a started monitor that never polls by itself.
    static func read(_ sys: FakeSysfsTree, _ dev: FakeSysfsTree) async throws -> SwitchStates {
        let monitor = SwitchMonitor(root: sys.root, devRoot: dev.root, updateInterval: .seconds(3600))
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        #expect(await eventually { monitor.readings.value.status != .pending })
        return try #require(monitor.readings.value.value, "\(monitor.readings.value)")
    }

    static func lid(
        _ sys: FakeSysfsTree, event: Int = 0, name: String = "Lid Switch", ev: String = "21", sw: String = "1"
    ) {
        SwitchMonitorTests.Fixture.addInput(sys, event: event, name: name, ev: ev, sw: sw)
    }

    enum NodeKind: String, CaseIterable, Sendable {
        case fifo, regularFile, directory, danglingLink, notEvdev, missing
    }

    @Test(arguments: NodeKind.allCases) func aNodeThatIsNoEvdevDeviceHidesOnlyItsDevice(kind: NodeKind) async throws {
        let sys = FakeSysfsTree()
        let dev = FakeSysfsTree()
        Self.lid(sys)
        let path = dev.root + "/input/event0"
        dev.makeDirectory("input")
        switch kind {
        case .fifo: #expect(mkfifo(path, 0o644) == 0)
        case .regularFile: dev.write("input/event0", "\u{0}\u{0}\u{0}\u{0}")
        case .directory: dev.makeDirectory("input/event0")
        case .danglingLink: dev.link("input/event0", to: dev.root + "/nowhere")
        case .notEvdev: dev.link("input/event0", to: "/dev/null")
        case .missing: break
        }
        let states = try await Self.read(sys, dev)
        let device = try #require(states.devices.first)
        #expect(device.states.isEmpty)
        let problem = try #require(device.problem)
        switch kind {
        case .fifo: #expect(problem == "\(path) is a FIFO, not an evdev character device")
        case .regularFile: #expect(problem == "\(path) is a regular file, not an evdev character device")
        case .directory: #expect(problem == "\(path) is a directory, not an evdev character device")
        case .danglingLink, .missing: #expect(problem == "\(path): no such file or directory")
        case .notEvdev: #expect(problem.hasPrefix("ioctl(EVIOCGSW)(\(path)) failed: ENOTTY"), "\(problem)")
        }
        #expect(states.isLidClosed == nil)
    }

    @Test(arguments: [
        ("zz", "1"), ("21", ""), ("21", "x1"), ("21", "1  0"), ("21", "12345678123456781"), ("", "1"),
        ("21", String(repeating: "f", count: 70_000)),
    ])
    func garbageCapabilitiesAreAProblemOfTheirEntry(ev: String, sw: String) async throws {
        let sys = FakeSysfsTree()
        let dev = FakeSysfsTree()
        Self.lid(sys, event: 1, ev: ev, sw: sw)
        Self.lid(sys, event: 2, name: "Good Lid")
        let states = try await Self.read(sys, dev)
        #expect(states.devices.map(\.node) == ["event2"])
        #expect(states.problems.count == 1)
        #expect(states.problems.first?.hasPrefix("event1: ") == true, "\(states.problems)")
    }

    @Test func capabilitiesWithoutSwitchesAreNoSwitchDevice() async throws {
        let sys = FakeSysfsTree()
        let dev = FakeSysfsTree()
        // A keyboard (EV_SYN, EV_KEY, EV_MSC, EV_LED, EV_REP), a device with EV_SW but no switch bit, and the lid.
        Self.lid(sys, event: 1, name: "AT Translated Set 2 keyboard", ev: "120013", sw: "0")
        Self.lid(sys, event: 2, name: "Empty", ev: "21", sw: "0")
        Self.lid(sys, event: 4)
        sys.makeDirectory("class/input/input9")
        sys.makeDirectory("class/input/mouse0")
        sys.makeDirectory("class/input/eventx")
        let states = try await Self.read(sys, dev)
        #expect(states.devices.map(\.node) == ["event4"])
        #expect(states.problems.isEmpty)
    }

    @Test func aNameThatIsNotUTF8OrTooLongIsRepairedAndCut() async throws {
        let sys = FakeSysfsTree()
        let dev = FakeSysfsTree()
        Self.lid(sys, event: 0)
        sys.write(
            "class/input/input0/name", bytes: Array("Lid \u{1B}[31m".utf8) + [0xff, 0xfe] + Array(" Switch\n".utf8))
        Self.lid(sys, event: 1, name: String(repeating: "n", count: 10_000))
        let states = try await Self.read(sys, dev)
        #expect(states.devices.first?.name == "Lid \u{1B}[31m\u{FFFD}\u{FFFD} Switch")
        #expect(states.devices.last?.name.count == 256)
    }

    @Test func withoutInputDevicesTheSourceIsUnavailableSayingWhere() throws {
        let sys = FakeSysfsTree()
        let monitor = SwitchMonitor(root: sys.root, devRoot: sys.root)
        guard case .unavailable(.missingDevice, let detail) = monitor.availability else {
            Issue.record("\(monitor.availability)")
            return
        }
        #expect(detail.contains(sys.root + "/class/input"))
        sys.makeDirectory("class/input/input0")
        guard case .unavailable(.missingDevice, let empty) = monitor.availability else {
            Issue.record("\(monitor.availability)")
            return
        }
        #expect(empty.contains("no input device reports switches"))
        #expect(throws: SensorError.self) { try monitor.startMonitoring() }
        #expect(!monitor.isMonitoring)
    }
}
