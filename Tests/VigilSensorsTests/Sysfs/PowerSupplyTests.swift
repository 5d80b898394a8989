import Testing
import VigilSensors
import VigilTestSupport

@Suite(.timeLimit(.minutes(10))) struct PowerSupplyTests {
    /// A laptop battery reporting energy (µWh) and power (µW), as `drivers/acpi/battery.c` does.
    static let energyBattery = FakeMachine.energyBattery
    /// A battery reporting charge (µAh) and current (µA) only, with a temperature in tenths of °C.
    static let chargeBattery = [
        "type": "Battery", "status": "Charging", "present": "1", "technology": "Li-poly", "voltage_now": "7600000",
        "current_now": "1500000", "charge_full_design": "4400000", "charge_full": "4000000", "charge_now": "1000000",
        "capacity": "25", "temp": "315",
    ]

    @Test func energyBatteryIsConvertedToWattHoursAndWatts() throws {
        let tree = FakeSysfsTree()
        tree.device("class/power_supply/BAT0", Self.energyBattery)
        let reading = try PowerSupplyReading.read(root: tree.root)
        let battery = try #require(reading.supplies.first)
        #expect(battery.name == "BAT0")
        #expect(battery.kind == .battery)
        #expect(battery.status == .discharging)
        #expect(battery.isPresent == true)
        #expect(battery.capacityPercent == 62)
        #expect(battery.capacityLevel == .normal)
        #expect(battery.energy == PowerSupply.Store(now: 31.5, full: 50.12, fullDesign: 57.02))
        #expect(battery.charge == nil)
        #expect(battery.powerWatts == 9.45)
        #expect(battery.voltageVolts == 11.85)
        #expect(battery.technology == .lithiumIon)
        #expect(battery.cycleCount == 123)
        #expect(battery.temperatureCelsius == nil)
        let toEmpty = try #require(battery.timeToEmptySeconds)
        #expect(abs(toEmpty - 12_000) < 1e-6)  // 31.5 Wh / 9.45 W = 3 h 20 min
        #expect(battery.timeToFullSeconds == nil)
        #expect(reading.powerSource == .battery)
        #expect(battery.description == "BAT0: battery, 62 %, discharging, 9.5 W, 3 h 20 min to empty")
    }

    @Test func chargeOnlyBatteryIsConvertedToAmpereHoursAndAmperes() throws {
        let tree = FakeSysfsTree()
        tree.device("class/power_supply/BAT1", Self.chargeBattery)
        tree.device("class/power_supply/AC", ["type": "Mains", "online": "1"])
        let reading = try PowerSupplyReading.read(root: tree.root)
        #expect(reading.supplies.map(\.name) == ["AC", "BAT1"])
        let battery = reading.supplies[1]
        #expect(battery.energy == nil)
        #expect(battery.charge == PowerSupply.Store(now: 1.0, full: 4.0, fullDesign: 4.4))
        #expect(battery.charge?.health == 4.0 / 4.4)
        #expect(battery.currentAmperes == 1.5)
        #expect(battery.voltageVolts == 7.6)
        #expect(battery.temperatureCelsius == 31.5)
        #expect(battery.timeToFullSeconds == 7200)  // (4.0 − 1.0) Ah / 1.5 A = 2 h
        #expect(battery.timeToEmptySeconds == nil)
        #expect(reading.supplies[0].kind == .mains)
        #expect(reading.supplies[0].isOnline == true)
        #expect(reading.powerSource == .external)
    }

    @Test func kernelTimeToEmptyWinsOverDerivedOne() throws {
        var attributes = Self.energyBattery
        attributes["time_to_empty_now"] = "9000"
        let battery = try PowerSupply.parse(name: "BAT0", attributes: attributes, origin: "BAT0")
        #expect(battery.timeToEmptySeconds == 9000)
    }

    @Test func zeroPowerGivesNoTimeEstimate() throws {
        var attributes = Self.energyBattery
        attributes["power_now"] = "0"
        let battery = try PowerSupply.parse(name: "BAT0", attributes: attributes, origin: "BAT0")
        #expect(battery.timeToEmptySeconds == nil)
    }

    @Test func negativeCurrentWhileDischargingIsReportedAsMagnitude() throws {
        var attributes = Self.chargeBattery
        attributes["status"] = "Discharging"
        attributes["current_now"] = "-500000"
        let battery = try PowerSupply.parse(name: "BAT1", attributes: attributes, origin: "BAT1")
        #expect(battery.currentAmperes == 0.5)
        #expect(battery.timeToEmptySeconds == 7200)  // 1.0 Ah / 0.5 A = 2 h
    }

    @Test func desktopWithoutBatteryReportsNoBattery() throws {
        let empty = FakeSysfsTree()
        #expect(try PowerSupplyReading.read(root: empty.root).powerSource == .noBattery)
        let tree = FakeSysfsTree()
        tree.device("class/power_supply/hidpp_battery_0", ["type": "Battery", "scope": "Device", "capacity": "80"])
        tree.device("class/power_supply/ucsi-source-psy-USBC000:001", ["type": "USB", "online": "0"])
        let reading = try PowerSupplyReading.read(root: tree.root)
        #expect(reading.supplies.count == 2)
        #expect(reading.batteries.isEmpty)
        #expect(reading.powerSource == .noBattery)
        #expect(reading.description.hasPrefix("no battery"))
    }

    @Test func ueventSnapshotParsesLikeTheAttributes() throws {
        let uevent = """
            POWER_SUPPLY_NAME=BAT0
            POWER_SUPPLY_TYPE=Battery
            POWER_SUPPLY_STATUS=Discharging
            POWER_SUPPLY_PRESENT=1
            POWER_SUPPLY_TECHNOLOGY=Li-ion
            POWER_SUPPLY_CYCLE_COUNT=123
            POWER_SUPPLY_VOLTAGE_NOW=11850000
            POWER_SUPPLY_POWER_NOW=9450000
            POWER_SUPPLY_ENERGY_FULL_DESIGN=57020000
            POWER_SUPPLY_ENERGY_FULL=50120000
            POWER_SUPPLY_ENERGY_NOW=31500000
            POWER_SUPPLY_CAPACITY=62
            POWER_SUPPLY_CAPACITY_LEVEL=Normal
            ACTION=change
            SUBSYSTEM=power_supply
            """
        let (name, attributes) = PowerSupply.attributes(fromUevent: uevent)
        #expect(name == "BAT0")
        let fromUevent = try PowerSupply.parse(name: "BAT0", attributes: attributes, origin: "uevent")
        let fromFiles = try PowerSupply.parse(name: "BAT0", attributes: Self.energyBattery, origin: "BAT0")
        #expect(fromUevent == fromFiles)
    }

    @Test(arguments: [
        ("capacity", ""), ("capacity", "lots"), ("capacity", "-3"), ("status", "Exploding"), ("energy_now", "-5"),
        ("online", "3"), ("temp", "99999999"), ("power_now", "1.5"),
    ])
    func badAttributeHidesOnlyItselfWithANoteNamingIt(attribute: String, text: String) throws {
        let tree = FakeSysfsTree()
        var attributes = Self.energyBattery
        attributes[attribute] = text
        tree.device("class/power_supply/BAT0", attributes)
        let path = tree.root + "/class/power_supply/BAT0/" + attribute
        let battery = try #require(try PowerSupplyReading.read(root: tree.root).supplies.first)
        #expect(battery.notes.count == 1)
        #expect(battery.notes.first?.hasPrefix(path) == true, "\(battery.notes)")
        #expect(battery.voltageVolts == 11.85)
        #expect(battery.description.contains(path))
    }

    @Test func attributeThatIsADirectoryIsNotedAndLeftOut() throws {
        let tree = FakeSysfsTree()
        tree.device("class/power_supply/BAT0", Self.energyBattery)
        tree.remove("class/power_supply/BAT0/capacity")
        tree.makeDirectory("class/power_supply/BAT0/capacity")
        let battery = try #require(try PowerSupplyReading.read(root: tree.root).supplies.first)
        #expect(battery.capacityPercent == nil)
        #expect(
            battery.notes == ["\(tree.root)/class/power_supply/BAT0/capacity is a directory, not an attribute file"])
    }

    @Test func deviceRemovedAfterListingIsLeftOut() throws {
        // sysfs class entries are symbolic links into /sys/devices; a link whose device went away is what a read
        // racing with an unplug sees.
        let tree = FakeSysfsTree()
        tree.device("devices/platform/AC", ["type": "Mains", "online": "1"])
        tree.link("class/power_supply/AC", to: "../../devices/platform/AC")
        tree.link("class/power_supply/BAT0", to: "../../devices/platform/BAT0")
        let reading = try PowerSupplyReading.read(root: tree.root)
        #expect(reading.supplies.map(\.name) == ["AC"])
        #expect(reading.powerSource == .noBattery)
    }

    @Test func attributeTheKernelRefusesGivesPermissionDenied() throws {
        // Tests run as root, so file modes cannot refuse a read; a write-only sysfs attribute can: kernfs answers
        // EACCES to any reader of an attribute without a show method. Link one into the fake tree.
        let refused = "/sys/bus/cpu/uevent"
        try #require(FakeSysfsTree.isUnreadable(refused), "\(refused) is readable here; no refusing attribute to use")
        let tree = FakeSysfsTree()
        tree.device("class/power_supply/BAT0", Self.energyBattery)
        tree.remove("class/power_supply/BAT0/capacity")
        tree.link("class/power_supply/BAT0/capacity", to: refused)
        let battery = try #require(try PowerSupplyReading.read(root: tree.root).supplies.first)
        #expect(battery.capacityPercent == nil)
        #expect(
            battery.notes == [
                SensorError.permissionDenied(path: tree.root + "/class/power_supply/BAT0/capacity").description
            ])
        #expect(battery.energy?.now == 31.5)
    }
}

extension PowerSupplyTests {
    @Test(arguments: [
        (String?("0"), "Full", PowerSupplyReading.PowerSource.battery), ("1", "Discharging", .external),
        ("0", "Charging", .battery), (nil, "Charging", .external), (nil, "Full", .battery),
    ])
    func adapterStateDecidesThePowerSource(online: String?, status: String, source: PowerSupplyReading.PowerSource)
        throws
    {
        var battery = Self.energyBattery
        battery["status"] = status
        var supplies = [try PowerSupply.parse(name: "BAT0", attributes: battery, origin: "BAT0")]
        if let online {
            supplies.append(
                try PowerSupply.parse(name: "AC", attributes: ["type": "Mains", "online": online], origin: "AC"))
        }
        #expect(PowerSupplyReading(supplies: supplies).powerSource == source)
    }
}

extension PowerSupplyTests {
    @Test func supplyWhoseNameIsNotUTF8IsReportedEscaped() throws {
        let tree = FakeSysfsTree()
        tree.device("class/power_supply/AC", ["type": "Mains", "online": "0"])
        // "BAT\xFF0": the byte FF is never UTF-8. A String path cannot spell it, so the test writes it by bytes.
        let directory = BytePathFiles.path(tree.root + "/class/power_supply", Array("BAT".utf8) + [0xFF, 0x30])
        #expect(BytePathFiles.makeDirectory(directory))
        let attributes = ["type": "Battery", "status": "Discharging", "present": "1", "capacity": "40"]
        for (name, value) in attributes { #expect(BytePathFiles.write(directory.appending(BytePath(name)), value)) }
        defer {
            for name in attributes.keys { BytePathFiles.remove(directory.appending(BytePath(name))) }
            BytePathFiles.removeDirectory(directory)
        }
        let reading = try PowerSupplyReading.read(root: tree.root)
        #expect(reading.supplies.map(\.name) == ["AC", #"BAT\3770"#])
        #expect(reading.problems.isEmpty)
        let battery = try #require(reading.batteries.first)
        #expect(battery.capacityPercent == 40)
        #expect(reading.powerSource == .battery)
        #expect(reading.description.hasPrefix(#"on battery; AC: mains offline; BAT\3770: battery, 40 %, discharging"#))
    }
}
