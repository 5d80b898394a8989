import Glibc
import Testing
import VigilTestSupport

@testable import VigilSensors

/// A sysfs root that is gone (a fake tree removed, sysfs not mounted) is no reading, not an empty machine; a root
/// without the class is a machine without such devices.
@Suite(.timeLimit(.minutes(5))) struct VanishedRootTests {
    static let readers: [(String, @Sendable (String) throws(SensorError) -> Void)] = [
        ("thermal", { root throws(SensorError) in _ = try ThermalReading.read(root: root) }),
        ("hwmon", { root throws(SensorError) in _ = try HwmonReading.read(root: root) }),
        ("power supply", { root throws(SensorError) in _ = try PowerSupplyReading.read(root: root) }),
    ]

    @Test(arguments: readers.map(\.0)) func aMissingRootThrowsNamingIt(reader: String) throws {
        let read = try #require(Self.readers.first { $0.0 == reader }?.1)
        let tree = FakeSysfsTree()
        let gone = tree.root + "/gone"
        #expect(throws: SensorError.notFound(path: gone)) { try read(gone) }
        try read(tree.root)  // the root is there, the class is not: no devices
    }

    @Test func aPolledMonitorReadsTheVanishedRootAsUnavailableAndRecovers() throws {
        let tree = FakeSysfsTree()
        tree.device("class/thermal/thermal_zone0", ["type": "acpitz", "temp": "45000"])
        let monitor = ThermalMonitor(root: tree.root, updateInterval: .seconds(3600))
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        #expect(monitor.latest?.value?.zones.count == 1)
        rename(tree.root, tree.root + ".vanished")
        monitor.refresh()
        rename(tree.root + ".vanished", tree.root)
        #expect(monitor.latest?.status == .unavailable(reason: "\(tree.root): no such file or directory"))
        monitor.refresh()
        #expect(monitor.latest?.value?.zones.count == 1)
    }
}
