import Testing
import VigilSensors
import VigilTestSupport

@Suite(.timeLimit(.minutes(10))) struct BacklightTests {
    @Test func brightnessIsAFractionOfTheMaximum() throws {
        let tree = FakeSysfsTree()
        tree.device(
            "class/backlight/intel_backlight",
            ["brightness": "4800", "max_brightness": "9600", "actual_brightness": "2400", "type": "raw"])
        tree.device("class/backlight/acpi_video0", ["brightness": "3", "max_brightness": "15", "type": "firmware"])
        let lights = try Backlight.read(root: tree.root)
        #expect(lights.map(\.name) == ["acpi_video0", "intel_backlight"])
        #expect(lights[1].brightness == 4800)
        #expect(lights[1].actualBrightness == 2400)
        #expect(lights[1].maximumBrightness == 9600)
        #expect(lights[1].fraction == 0.25)
        #expect(lights[0].actualBrightness == 3)
        #expect(lights[0].fraction == 0.2)
        #expect(lights[1].description == "intel_backlight: 25.0 % (2400/9600)")
    }

    @Test(arguments: [
        ["brightness": "5", "max_brightness": "0"], ["brightness": "20", "max_brightness": "10"],
        ["brightness": "", "max_brightness": "10"], ["brightness": "5"],
    ])
    func badAttributesAreErrors(attributes: [String: String]) throws {
        #expect(throws: SensorError.self) { try Backlight.parse(name: "panel", attributes: attributes, origin: "/x") }
        let tree = FakeSysfsTree()
        tree.device("class/backlight/panel", attributes)
        tree.device("class/backlight/zz_panel", ["brightness": "5", "max_brightness": "10"])
        #expect(try Backlight.read(root: tree.root).map(\.name) == ["zz_panel"])
    }

    @Test func unparsableActualBrightnessFallsBackToTheRequestedOneWithANote() throws {
        let attributes = ["brightness": "5", "max_brightness": "10", "actual_brightness": "-1"]
        let light = try Backlight.parse(name: "panel", attributes: attributes, origin: "/x")
        #expect(light.actualBrightness == 5)
        #expect(light.notes.first?.hasPrefix("/x/actual_brightness") == true)
    }
}
