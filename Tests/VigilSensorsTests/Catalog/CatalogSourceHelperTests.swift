import Testing
import VigilTestSupport

@testable import VigilSensors

/// A source that follows uevents under the real `/sys` owns its ``DeviceMonitor``: both start, all or none, and
/// stop together.
@Suite(.timeLimit(.minutes(10))) struct CatalogSourceHelperTests {
    /// Whether this process can open the kernel's uevent socket (the tests below need it).
    private static var ueventsWork: Bool { DeviceMonitor().availability.isAvailable }

    @Test(
        .enabled(if: ueventsWork, "needs the kernel's uevent socket"),
        arguments: ["battery", "power", "backlight", "accelerometer", "orientation"])
    func theRealSysfsSourceOwnsADeviceMonitor(id: String) throws {
        let source = try #require(SourceCatalog.entry(id: id)).make()
        let helpers = source.helpers
        #expect(helpers.count == 1)
        #expect(helpers.allSatisfy { $0 is DeviceMonitor })
    }

    @Test(.enabled(if: ueventsWork, "needs the kernel's uevent socket"))
    func startAndStopTakeTheHelperAlong() throws {
        let source = try #require(SourceCatalog.entry(id: "power")).make()
        #expect(source.helpers.count == 1)
        try source.startMonitoring()
        #expect(source.isMonitoring)
        #expect(source.source.isMonitoring)
        #expect(source.helpers.allSatisfy { $0.isMonitoring })
        source.stopMonitoring()
        #expect(!source.isMonitoring)
        #expect(!source.source.isMonitoring)
        #expect(!source.helpers.contains { $0.isMonitoring })
    }

    @Test func aSourceThatCannotStartLeavesItsHelperStopped() throws {
        let empty = FakeSysfsTree()
        let proc = FakeMachine.equipped().proc
        let helper = MemoryUsageMonitor(root: proc.root)
        let source = CatalogSource(
            id: "backlight", name: "Backlight", source: BacklightMonitor(root: empty.root), helpers: [helper])
        #expect(throws: SensorError.unavailable(source: "Backlight", reason: "this machine has no backlight")) {
            try source.startMonitoring()
        }
        #expect(!helper.isMonitoring)
        #expect(!source.isMonitoring)
    }
}
