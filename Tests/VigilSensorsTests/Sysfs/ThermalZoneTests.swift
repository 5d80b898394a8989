import Testing
import VigilSensors
import VigilTestSupport

@Suite(.timeLimit(.minutes(10))) struct ThermalZoneTests {
    @Test func zonesReportDegreesCelsiusAndTripPoints() throws {
        let tree = FakeSysfsTree()
        tree.device(
            "class/thermal/thermal_zone0",
            [
                "type": "x86_pkg_temp", "temp": "45000", "mode": "enabled", "policy": "step_wise",
                "trip_point_0_type": "passive", "trip_point_0_temp": "95000", "trip_point_0_hyst": "0",
                "trip_point_1_type": "critical", "trip_point_1_temp": "105000",
            ])
        tree.device("class/thermal/thermal_zone1", ["type": "acpitz", "temp": "-5500"])
        tree.device("class/thermal/cooling_device0", ["type": "Processor", "cur_state": "0", "max_state": "3"])
        let zones = try ThermalZone.read(root: tree.root)
        #expect(zones.map(\.name) == ["thermal_zone0", "thermal_zone1"])
        #expect(zones[0].type == "x86_pkg_temp")
        #expect(zones[0].temperatureCelsius == 45.0)
        #expect(zones[0].tripPoints.map(\.kind) == ["passive", "critical"])
        #expect(zones[0].tripPoints.map(\.temperatureCelsius) == [95.0, 105.0])
        #expect(zones[1].temperatureCelsius == -5.5)
        #expect(zones[1].tripPoints.isEmpty)
        #expect(zones[0].description == "thermal_zone0 (x86_pkg_temp): 45.0 °C")
    }

    @Test func zoneWithoutReadableTemperatureIsReportedUnreadable() throws {
        let tree = FakeSysfsTree()
        tree.device("class/thermal/thermal_zone0", ["type": "iwlwifi_1"])
        let zones = try ThermalZone.read(root: tree.root)
        #expect(zones.count == 1)
        #expect(zones[0].temperatureCelsius == nil)
        #expect(zones[0].description == "thermal_zone0 (iwlwifi_1): unreadable")
    }

    @Test(arguments: ["", "warm", "-300000", "2000000"])
    func badTemperatureIsUnreadableWithANote(text: String) throws {
        let tree = FakeSysfsTree()
        tree.device("class/thermal/thermal_zone0", ["type": "acpitz", "temp": text])
        let zone = try #require(try ThermalZone.read(root: tree.root).first)
        #expect(zone.temperatureCelsius == nil)
        #expect(zone.notes.count == 1)
        #expect(zone.notes.first?.hasPrefix(tree.root + "/class/thermal/thermal_zone0/temp") == true)
    }

    @Test func missingClassMeansNoZones() throws {
        let tree = FakeSysfsTree()
        #expect(try ThermalZone.read(root: tree.root).isEmpty)
    }

    @Test func realMachineZonesParse() throws {
        // This machine may have no zones; whatever it has must parse.
        for zone in try ThermalZone.read() {
            if let celsius = zone.temperatureCelsius { #expect((-273.15...1000).contains(celsius)) }
        }
    }
}
