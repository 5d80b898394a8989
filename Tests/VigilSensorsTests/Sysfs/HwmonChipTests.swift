import Testing
import VigilSensors
import VigilTestSupport

@Suite(.timeLimit(.minutes(10))) struct HwmonChipTests {
    @Test func chipsReportCelsiusRPMAndVolts() throws {
        let tree = FakeSysfsTree()
        tree.device(
            "class/hwmon/hwmon0",
            [
                "name": "coretemp", "temp1_input": "52000", "temp1_label": "Package id 0", "temp1_crit": "100000",
                "temp2_input": "48000", "temp2_label": "Core 0", "temp10_input": "47000",
            ])
        tree.device(
            "class/hwmon/hwmon1",
            [
                "name": "nct6775", "fan1_input": "1250", "fan2_input": "0", "in0_input": "1024",
                "in1_input": "3312", "in1_label": "+3.3V", "in1_min": "2970",
            ])
        let chips = try HwmonChip.read(root: tree.root)
        #expect(chips.map(\.chip) == ["coretemp", "nct6775"])
        #expect(chips[0].temperatures.map(\.id) == ["temp1", "temp2", "temp10"])
        #expect(chips[0].temperatures.map(\.label) == ["Package id 0", "Core 0", "temp10"])
        #expect(chips[0].temperatures.map(\.value) == [52.0, 48.0, 47.0])
        #expect(chips[1].fans.map(\.value) == [1250, 0])
        #expect(chips[1].voltages.map(\.value) == [1.024, 3.312])
        #expect(chips[1].voltages.map(\.label) == ["in0", "+3.3V"])
        #expect(chips[1].description == "hwmon1 (nct6775): fan1 1250 RPM, fan2 0 RPM, in0 1.024 V, +3.3V 3.312 V")
    }

    @Test func olderDriversKeepAttributesInTheDeviceDirectory() throws {
        let tree = FakeSysfsTree()
        tree.device("class/hwmon/hwmon2/device", ["name": "w83627hf", "temp1_input": "40000"])
        let chips = try HwmonChip.read(root: tree.root)
        #expect(chips.count == 1)
        #expect(chips[0].chip == "w83627hf")
        #expect(chips[0].temperatures.map(\.value) == [40.0])
    }

    @Test(arguments: [("temp1_input", "hot"), ("fan1_input", "-5"), ("in0_input", "")])
    func badInputHidesOnlyItself(attribute: String, text: String) throws {
        let tree = FakeSysfsTree()
        var attributes = ["name": "nct6775", "temp1_input": "40000", "fan1_input": "900", "in0_input": "1000"]
        attributes[attribute] = text
        tree.device("class/hwmon/hwmon0", attributes)
        let chip = try #require(try HwmonChip.read(root: tree.root).first)
        let ids = (chip.temperatures + chip.fans + chip.voltages).map(\.id)
        #expect(ids.count == 2)
        #expect(!ids.contains(String(attribute.dropLast("_input".count))))
        #expect(chip.notes.count == 1)
        #expect(chip.notes.first?.hasPrefix(tree.root + "/class/hwmon/hwmon0/" + attribute) == true)
    }

    @Test func chipWithoutANameIsAProblemAndTheOthersAreRead() throws {
        let tree = FakeSysfsTree()
        tree.device("class/hwmon/hwmon0", ["name": "", "temp1_input": "40000"])
        tree.device("class/hwmon/hwmon1", ["name": "k10temp", "temp1_input": "41000"])
        let reading = try HwmonReading.read(root: tree.root)
        #expect(reading.chips.map(\.chip) == ["k10temp"])
        #expect(reading.problems.count == 1)
        #expect(reading.problems.first?.hasPrefix(tree.root + "/class/hwmon/hwmon0/name") == true)
    }
}
