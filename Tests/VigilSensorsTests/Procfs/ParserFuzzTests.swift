import Testing
import VigilSensors
import VigilTestSupport

/// The `procfs` and `sysfs` fuzz corpora replayed through the parsers their fuzzers feed, each input with the reading
/// or the typed error it must give; `Fuzz/run.sh procfs` and `Fuzz/run.sh sysfs` are where random text goes.
@Suite(.timeLimit(.minutes(10))) struct ParserFuzzTests {
    /// A `procfs` input: the first byte picks the file as the fuzz target does (0 `/proc/stat`, 1 `/proc/meminfo`,
    /// 2 a PSI file), the rest is its text.
    static func procfs(_ name: String) throws -> (selector: UInt8, text: String) {
        let bytes = try #require(FuzzCorpus.input("procfs", name))
        return (try #require(bytes.first), String(decoding: bytes.dropFirst(), as: UTF8.self))
    }

    /// A `sysfs` input: `name=value` lines, as a device directory's attributes.
    static func sysfs(_ name: String) throws -> [String: String] {
        let text = String(decoding: try #require(FuzzCorpus.input("sysfs", name)), as: UTF8.self)
        var attributes: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            attributes[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
        }
        return attributes
    }

    @Test func everyCorpusInputHasAnExpectation() {
        #expect(FuzzCorpus.names("procfs") == ["meminfo", "pressure", "pressure-idle", "stat"])
        #expect(
            FuzzCorpus.names("sysfs") == ["backlight", "battery-energy", "battery-uevent", "hwmon", "mains", "thermal"])
    }

    @Test func procStatGivesTheTotalAndEachCore() throws {
        let (selector, text) = try Self.procfs("stat")
        #expect(selector % 3 == 0)
        let times = try CPUTimes.parse(text)
        #expect(times.map(\.core) == [nil, 0, 1])
        // Busy: user, nice, system, irq, softirq and steal; idle: idle and iowait.
        let busy: [UInt64] = [
            640_904 + 112_029 + 758 + 13_084, 329_612 + 53_658 + 71 + 6_342, 311_291 + 58_371 + 687 + 6_741,
        ]
        let idle: [UInt64] = [5_396_386 + 2_183, 2_691_892 + 413, 2_704_493 + 1_770]
        #expect(times.map(\.busy) == busy)
        #expect(times.map(\.idle) == idle)
        // Cut inside its first line, the total has three counters: a typed error that quotes the line.
        let cut = String(text.prefix(while: { $0 != "\n" }).prefix(20))
        #expect(cut == "cpu  640904 0 112029")
        #expect(throws: SensorError.malformedValue(path: "/proc/stat", text: cut, expected: "at least 4 tick counters"))
        {
            try CPUTimes.parse(cut)
        }
    }

    @Test func meminfoGivesBytes() throws {
        let (selector, text) = try Self.procfs("meminfo")
        #expect(selector % 3 == 1)
        let memory = try MemoryUsage.parse(text)
        #expect(memory.totalBytes == 24_683_568 * 1024)
        #expect(memory.freeBytes == 22_532_164 * 1024)
        #expect(memory.availableBytes == 24_023_632 * 1024)
    }

    @Test(
        arguments: [
            ("pressure", [1.5, 0.8, 0.2], 123_456, [0.1, 0.05, 0.01], 2_345),
            ("pressure-idle", [0, 0, 0], 3_104_051, [0, 0, 0], 1_625_977),
        ] as [(String, [Double], UInt64, [Double], UInt64)])
    func pressureGivesItsAverages(name: String, some: [Double], someTotal: UInt64, full: [Double], fullTotal: UInt64)
        throws
    {
        let (selector, text) = try Self.procfs(name)
        #expect(selector % 3 == 2)
        let stall = try PressureStall.parse(text)
        #expect([stall.some.avg10, stall.some.avg60, stall.some.avg300] == some)
        #expect(stall.some.totalMicroseconds == someTotal)
        let fullAverages = try #require(stall.full)
        #expect([fullAverages.avg10, fullAverages.avg60, fullAverages.avg300] == full)
        #expect(fullAverages.totalMicroseconds == fullTotal)
    }

    @Test func batteryAttributesGiveAnEnergyBattery() throws {
        let battery = try PowerSupply.parse(name: "BAT0", attributes: try Self.sysfs("battery-energy"), origin: "BAT0")
        #expect(battery.kind == .battery && battery.status == .discharging && battery.isPresent == true)
        #expect(battery.capacityPercent == 57 && battery.capacityLevel == .normal)
        #expect(battery.energy == PowerSupply.Store(now: 28.5, full: 50, fullDesign: 57))
        #expect(battery.powerWatts == 9.5 && battery.voltageVolts == 11.8)
        #expect(battery.technology == .lithiumIon && battery.cycleCount == 312)
        #expect(battery.notes.isEmpty)
    }

    @Test func batteryUeventGivesAChargeBattery() throws {
        let text = String(decoding: try #require(FuzzCorpus.input("sysfs", "battery-uevent")), as: UTF8.self)
        let (name, attributes) = PowerSupply.attributes(fromUevent: text)
        #expect(name == "BAT1")
        let battery = try PowerSupply.parse(name: "BAT1", attributes: attributes, origin: "uevent")
        #expect(battery.kind == .battery && battery.status == .charging)
        #expect(battery.charge == PowerSupply.Store(now: 2.1, full: 4.2, fullDesign: nil))
        #expect(battery.currentAmperes == 1.5 && battery.voltageVolts == 12.1)
        let toFull = try #require(battery.timeToFullSeconds)
        #expect(abs(toFull - 5040) < 1e-6)  // (4.2 − 2.1) Ah / 1.5 A = 1 h 24 min
        #expect(battery.notes.isEmpty)
    }

    @Test func mainsIsOnline() throws {
        let mains = try PowerSupply.parse(name: "AC", attributes: try Self.sysfs("mains"), origin: "AC")
        #expect(mains.kind == .mains && mains.isOnline == true && mains.notes.isEmpty)
    }

    @Test func hwmonChipGivesItsChannels() throws {
        let chip = try HwmonChip.parse(name: "hwmon0", attributes: try Self.sysfs("hwmon"), origin: "hwmon0")
        #expect(chip.chip == "coretemp")
        #expect(chip.temperatures.map(\.label) == ["Package id 0"] && chip.temperatures.map(\.value) == [42])
        #expect(chip.fans.map(\.value) == [1800])
        #expect(chip.voltages.map(\.value) == [1.2])
        #expect(chip.notes.isEmpty)
    }

    @Test func thermalZoneGivesItsTemperatureAndTrip() throws {
        let zone = try ThermalZone.parse(name: "thermal_zone0", attributes: try Self.sysfs("thermal"), origin: "z")
        #expect(zone.type == "x86_pkg_temp" && zone.temperatureCelsius == 45)
        #expect(zone.tripPoints.map(\.kind) == ["critical"] && zone.tripPoints.map(\.temperatureCelsius) == [95])
        #expect(zone.notes.isEmpty)
    }

    @Test func backlightGivesItsFraction() throws {
        let panel = try Backlight.parse(name: "panel", attributes: try Self.sysfs("backlight"), origin: "panel")
        #expect(panel.brightness == 120 && panel.maximumBrightness == 255 && panel.actualBrightness == 120)
        #expect(panel.fraction == 120.0 / 255.0)
    }

    @Test func errorsAreSensorErrors() throws {
        #expect(throws: SensorError.self) { try CPUTimes.parse("\u{0}") }
        #expect(throws: SensorError.self) { try PressureStall.parse("some avg10=1e400 avg60=0 avg300=0 total=0") }
        // A power-supply attribute that does not parse hides only itself: a note naming the file, from a SensorError.
        let supply = try PowerSupply.parse(name: "x", attributes: ["energy_now": "99999999999999999999"], origin: "x")
        #expect(supply.energy == nil)
        #expect(
            supply.notes == [
                SensorError.malformedValue(path: "x/energy_now", text: "99999999999999999999", expected: "an integer")
                    .description
            ])
    }
}
