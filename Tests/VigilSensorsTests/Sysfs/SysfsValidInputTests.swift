import Testing
import VigilSensors
import VigilTestSupport

/// One bad attribute or entry hides only itself, and every value the kernel documents is accepted (issue 14,
/// defects 4, 5 and 8).
@Suite(.timeLimit(.minutes(10))) struct SysfsValidInputTests {
    // MARK: One bad attribute hides only itself

    @Test func unreadableHwmonInputHidesOnlyThatInput() throws {
        let tree = FakeSysfsTree()
        tree.device("class/hwmon/hwmon0", ["name": "coretemp", "temp1_input": "52000"])
        tree.makeDirectory("class/hwmon/hwmon0/temp2_input")  // reading it fails (EISDIR before, refused now)
        tree.device("class/hwmon/hwmon1", ["name": "nvme", "temp1_input": "38850"])
        let reading = try HwmonReading.read(root: tree.root)
        #expect(reading.chips.map(\.chip) == ["coretemp", "nvme"])
        #expect(reading.chips[0].temperatures.map(\.id) == ["temp1"])
        #expect(reading.chips[1].temperatures.map(\.value) == [38.85])
        #expect(
            reading.chips[0].notes == [
                "\(tree.root)/class/hwmon/hwmon0/temp2_input is a directory, not an attribute file"
            ])
    }

    @Test func peripheralBatteryWithBadCapacityHidesOnlyItsCapacity() throws {
        let tree = FakeSysfsTree()
        tree.device("class/power_supply/BAT0", PowerSupplyTests.energyBattery)
        tree.device(
            "class/power_supply/hidpp_battery_0",
            ["type": "Battery", "scope": "Device", "status": "Discharging", "capacity": "lots"])
        let reading = try PowerSupplyReading.read(root: tree.root)
        #expect(reading.supplies.map(\.name) == ["BAT0", "hidpp_battery_0"])
        #expect(reading.batteries.map(\.capacityPercent) == [62])
        #expect(reading.powerSource == .battery)
        let mouse = reading.supplies[1]
        #expect(mouse.scope == .device)
        #expect(mouse.capacityPercent == nil)
        #expect(mouse.notes.count == 1)
        #expect(mouse.notes.first?.contains("hidpp_battery_0/capacity: cannot parse \"lots\"") == true)
    }

    @Test func invalidTripPointHidesOnlyThatTrip() throws {
        let tree = FakeSysfsTree()
        tree.device(
            "class/thermal/thermal_zone0",
            [
                "type": "acpitz", "temp": "45000", "trip_point_0_type": "critical", "trip_point_0_temp": "105000",
                "trip_point_1_type": "passive", "trip_point_1_temp": "garbage",
            ])
        tree.device("class/thermal/thermal_zone1", ["type": "x86_pkg_temp", "temp": "52000"])
        let zones = try ThermalReading.read(root: tree.root).zones
        #expect(zones.map(\.name) == ["thermal_zone0", "thermal_zone1"])
        #expect(zones[0].temperatureCelsius == 45)
        #expect(zones[0].tripPoints.map(\.kind) == ["critical"])
        #expect(zones[0].notes.first?.hasPrefix("\(tree.root)/class/thermal/thermal_zone0/trip_point_1_temp") == true)
        #expect(zones[1].temperatureCelsius == 52)
    }

    // MARK: Every documented value is accepted

    @Test(arguments: [("0", false), ("1", true), ("2", true)])
    func everyDocumentedOnlineValueIsAccepted(text: String, online: Bool) throws {
        let tree = FakeSysfsTree()
        tree.device("class/power_supply/ucsi-source-psy-USBC000:001", ["type": "USB", "online": text])
        let supply = try #require(try PowerSupplyReading.read(root: tree.root).supplies.first)
        #expect(supply.isOnline == online)
        #expect(supply.notes.isEmpty)
    }

    @Test(arguments: [
        ("Battery", PowerSupply.Kind.battery), ("UPS", .ups), ("Mains", .mains), ("USB", .usb),
        ("Wireless", .wireless), ("USB_DCP", .usb), ("USB_CDP", .usb), ("USB_ACA", .usb), ("USB_C", .usb),
        ("USB_PD", .usb), ("USB_PD_DRP", .usb), ("BrickID", .usb), ("Unknown", .unknown),
    ])
    func everyDocumentedTypeIsAccepted(type: String, kind: PowerSupply.Kind) throws {
        let tree = FakeSysfsTree()
        tree.device("class/power_supply/psy", ["type": type, "online": "1"])
        let supply = try #require(try PowerSupplyReading.read(root: tree.root).supplies.first)
        #expect(supply.kind == kind)
        #expect(supply.notes.isEmpty)
    }

    @Test func unknownTypeKeepsTheSupplyWithANote() throws {
        let tree = FakeSysfsTree()
        tree.device("class/power_supply/psy", ["type": "Quantum", "online": "1"])
        let supply = try #require(try PowerSupplyReading.read(root: tree.root).supplies.first)
        #expect(supply.kind == .unknown)
        #expect(supply.isOnline == true)
        #expect(supply.notes.count == 1)
        #expect(supply.notes.first?.contains("psy/type: cannot parse \"Quantum\"") == true)
    }

    @Test func capacityAboveOneHundredIsReportedWithANote() throws {
        var attributes = PowerSupplyTests.energyBattery
        attributes["capacity"] = "105"
        let battery = try PowerSupply.parse(
            name: "BAT0", attributes: attributes, origin: "/sys/class/power_supply/BAT0")
        #expect(battery.capacityPercent == 105)
        #expect(
            battery.notes == [
                "/sys/class/power_supply/BAT0/capacity: 105 % is above 100 % (the fuel gauge over-reads); shown as reported"
            ])
    }

    @Test func invalidTripTemperatureIsShownAsInvalid() throws {
        let tree = FakeSysfsTree()
        tree.device(
            "class/thermal/thermal_zone3",
            [
                "type": "iwlwifi_1", "temp": "-274000", "trip_point_0_type": "passive", "trip_point_0_temp": "-274000",
                "trip_point_1_type": "critical", "trip_point_1_temp": "118000",
            ])
        let zone = try #require(try ThermalZone.read(root: tree.root).first)
        #expect(zone.tripPoints.map(\.isValid) == [false, true])
        #expect(zone.tripPoints.map(\.description) == ["passive at invalid", "critical at 118.0 °C"])
        #expect(zone.temperatureCelsius == nil)
        #expect(zone.notes.count == 1)
        #expect(zone.notes.first?.contains("THERMAL_TEMP_INVALID") == true)
    }

    @Test func actualBrightnessAboveTheMaximumIsClampedWithANote() throws {
        let tree = FakeSysfsTree()
        tree.device(
            "class/backlight/intel_backlight",
            ["brightness": "9600", "max_brightness": "9600", "actual_brightness": "12000"])
        let light = try #require(try Backlight.read(root: tree.root).first)
        #expect(light.actualBrightness == 9600)
        #expect(light.fraction == 1.0)
        #expect(
            light.notes == [
                "\(tree.root)/class/backlight/intel_backlight/actual_brightness: 12000 is above max_brightness 9600; clamped to 9600"
            ])
    }

    // MARK: Messages name the file and say what is wrong in the attribute's own units

    @Test func symbolicLinkLoopIsAnUnreadableEntryNotASupply() throws {
        let tree = FakeSysfsTree()
        tree.device("class/power_supply/AC", ["type": "Mains", "online": "1"])
        tree.link("class/power_supply/loop", to: "loop")
        let reading = try PowerSupplyReading.read(root: tree.root)
        #expect(reading.supplies.map(\.name) == ["AC"])
        #expect(
            reading.problems == [
                "\(tree.root)/class/power_supply/loop is unavailable: it is a symbolic-link loop; skipped, not a device"
            ])
        let hwmon = FakeSysfsTree()
        hwmon.link("class/hwmon/hwmon9", to: "hwmon9")
        #expect(try HwmonReading.read(root: hwmon.root).problems.first?.contains("symbolic-link loop") == true)
    }

    @Test func negativeEnergyIsQuotedInMicrowattHoursNamingTheFile() throws {
        var attributes = PowerSupplyTests.energyBattery
        attributes["energy_now"] = "-5"
        let battery = try PowerSupply.parse(
            name: "BAT0", attributes: attributes, origin: "/sys/class/power_supply/BAT0")
        #expect(battery.energy?.now == nil)
        #expect(battery.energy?.full == 50.12)
        let note = try #require(battery.notes.first)
        #expect(note.hasPrefix("/sys/class/power_supply/BAT0/energy_now: value -5 µWh is outside ≥ 0 µWh"))
        #expect(!note.contains("e-06"))
    }
}
