import Testing

@testable import VigilSensors

/// No arithmetic on kernel-supplied numbers traps, and finite numbers print finitely (issue 14, defects 1 and 8).
@Suite(.timeLimit(.minutes(10))) struct KernelNumberArithmeticTests {
    @Test func hugeTimeToEmptyFormatsWithoutTrapping() throws {
        // 9.2e12 Wh drained at 1 µW: about 3.3e22 s to empty, past what Int holds in minutes.
        var attributes = PowerSupplyTests.energyBattery
        attributes["energy_now"] = "9200000000000000000"
        attributes["power_now"] = "1"
        let battery = try PowerSupply.parse(name: "BAT0", attributes: attributes, origin: "BAT0")
        let seconds = try #require(battery.timeToEmptySeconds)
        #expect(seconds > 5e20)
        #expect(battery.description.contains(" h to empty"))
        #expect(!battery.description.contains("inf"))
    }

    @Test(arguments: [5e20, 5.6e20, 1e300, Double.greatestFiniteMagnitude])
    func durationOfAnyFiniteLengthFormats(seconds: Double) {
        let text = UnitFormat.duration(seconds: seconds)
        #expect(text.hasSuffix(" h"))
        #expect(!text.contains("inf"))
    }

    @Test func ordinaryDurationsKeepHoursAndMinutes() {
        #expect(UnitFormat.duration(seconds: 12_000) == "3 h 20 min")
        #expect(UnitFormat.duration(seconds: -1) == "unknown")
        #expect(UnitFormat.duration(seconds: .nan) == "unknown")
    }

    @Test func finiteValuesPrintFinitelyAndOnlyInfinityPrintsInf() {
        #expect(Vector3.format(1e308) == "1e+308")
        #expect(Vector3.format(-1e308) == "-1e+308")
        #expect(Vector3.format(.infinity) == "inf")
        #expect(Vector3.format(2.5) == "2.5")
        #expect(UnitFormat.fixed(1e308) == "1e+308")
        #expect(!UnitFormat.percent(1e307).contains("inf"))
        #expect(UnitFormat.percent(0.425) == "42.5 %")
        let light = AmbientLight.Value(lux: 1e308, timestamp: 0)
        #expect(light.description.contains("1e+308"))
    }

    @Test func rawValueThatOverflowsTheScaleIsUnavailableWithTheRawValue() throws {
        let calibration = try ChannelCalibration(scale: 1e10)
        #expect(throws: SensorError.self) { try calibration.checkedApply(1e300, path: "/fake/in_accel_x_raw") }
        do {
            _ = try calibration.checkedApply(1e300, path: "/fake/in_accel_x_raw")
        } catch {
            #expect(error.description.contains("/fake/in_accel_x_raw"))
            #expect(error.description.contains("1e+300"))
        }
        #expect(try calibration.checkedApply(2, path: "") == 2e10)
    }

    @Test func tickCountersWhoseSumOverflowsAreRefused() {
        let text = "cpu  18446744073709551615 1 0 0\n"
        #expect(throws: SensorError.self) { try CPUTimes.parse(text) }
    }
}
