import Testing
import VigilSensors
import VigilTestSupport

/// Each entry's availability on fake trees, checked without starting anything: what the tree holds.
@Suite(.timeLimit(.minutes(10))) struct SourceCatalogAvailabilityTests {
    @Test(arguments: FakeMachine.treeDeviceIDs) func presentDeviceIsAvailable(id: String) throws {
        let machine = FakeMachine.equipped()
        let entry = try #require(SourceCatalog.entry(id: id))
        #expect(entry.availability(machine.options) == .available)
    }

    /// What an entry says on a tree without its device: a sysfs device is missing (the class is there, empty, as
    /// the kernel shows it); a procfs file missing means the kernel lacks the interface.
    static let absentReasons: [(String, UnavailabilityReason)] =
        [
            "battery", "thermal", "hwmon", "backlight", "displays", "switches", "radios", "accelerometer",
            "orientation", "compass", "attitude",
        ].map { ($0, .missingDevice) }
        + ["cpu", "memory", "pressure", "device"].map { ($0, .kernelLacksInterface) }

    @Test(arguments: absentReasons)
    func absentDeviceIsUnavailableSayingWhere(id: String, expected: UnavailabilityReason) throws {
        let machine = FakeMachine.empty()
        let entry = try #require(SourceCatalog.entry(id: id))
        let availability = entry.availability(machine.options)
        guard case .unavailable(let reason, let detail) = availability else {
            Issue.record("\(id) is available on an empty tree")
            return
        }
        #expect(reason == expected, "\(id): \(detail)")
        #expect(detail.contains(machine.sys.root) || detail.contains(machine.proc.root), "\(id): \(detail)")
    }

    @Test func batteryIsMissingWhereOnlyMainsIs() throws {
        let machine = FakeMachine.empty()
        machine.sys.device("class/power_supply/AC", ["type": "Mains", "online": "1"])
        let battery = try #require(SourceCatalog.entry(id: "battery"))
        let power = try #require(SourceCatalog.entry(id: "power"))
        #expect(
            battery.availability(machine.options)
                == .unavailable(
                    reason: .missingDevice,
                    detail: "this machine has no battery (\(machine.sys.root)/class/power_supply has none)"))
        #expect(power.availability(machine.options) == .available)
    }

    @Test func madeBatteryReportsTheEntrysAvailability() throws {
        let machine = FakeMachine.empty()
        machine.sys.device("class/power_supply/AC", ["type": "Mains", "online": "1"])
        let battery = try #require(SourceCatalog.entry(id: "battery"))
        let source = try battery.make(machine.options)
        #expect(source.availability == battery.availability(machine.options))
        #expect(!source.availability.isAvailable)
        #expect(source.source.availability == .available)
    }

    @Test func otherSensorKindsAreMissingBesideAnAccelerometer() throws {
        let machine = FakeMachine.equipped()
        // The compass and the attitude need a magnetometer beside the accelerometer, or a channel of their own.
        for id in ["gyroscope", "magnetometer", "light", "proximity", "barometer", "compass", "attitude"] {
            let entry = try #require(SourceCatalog.entry(id: id))
            guard case .unavailable(let reason, _) = entry.availability(machine.options) else {
                Issue.record("\(id) is available beside an accelerometer only")
                continue
            }
            #expect(reason == .missingDevice, "\(id)")
        }
    }

    @Test func treeIndependentSourcesAreAvailable() throws {
        let machine = FakeMachine.empty()
        for id in ["files", "storage", "clock", "sleep"] {
            let entry = try #require(SourceCatalog.entry(id: id))
            #expect(entry.availability(machine.options) == .available, "\(id)")
        }
    }
}
