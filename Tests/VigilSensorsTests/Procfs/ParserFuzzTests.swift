import Testing
import VigilSensors

/// Feeds every pure parser random and mutated text: each must return or throw a `SensorError`, never trap or hang.
@Suite(.timeLimit(.minutes(10))) struct ParserFuzzTests {
    static let seeds = [
        "cpu  100 0 50 800 50 0 0 0 0 0\ncpu0 60 0 20 400 20 0 0 0 0 0",
        "MemTotal:        8000000 kB\nMemFree:         1000000 kB\nMemAvailable:    6000000 kB",
        "some avg10=12.50 avg60=3.25 avg300=0.75 total=160160\nfull avg10=1.00 avg60=0.50 avg300=0.00 total=113456",
        "POWER_SUPPLY_TYPE=Battery\nPOWER_SUPPLY_ENERGY_NOW=31500000\nPOWER_SUPPLY_CAPACITY=62",
        "-9223372036854775808", "18446744073709551616", "1e400", "\0\0\n=", "",
    ]

    @Test func parsersSurviveMutatedInput() {
        var generator = SeededGenerator(seed: 0x5eed_1234)
        let alphabet = Array(" \n\t=:-.+0123456789abcdefkBcpusomeavgfull_\u{0}é")
        for round in 0..<3000 {
            var text = Array(Self.seeds[round % Self.seeds.count])
            for _ in 0..<Int(generator.next() % 6) {
                let position = text.isEmpty ? 0 : Int(generator.next() % UInt64(text.count + 1))
                let character = alphabet[Int(generator.next() % UInt64(alphabet.count))]
                switch generator.next() % 3 {
                case 0: text.insert(character, at: position)
                case 1 where position < text.count: text.remove(at: position)
                default: if position < text.count { text[position] = character }
                }
            }
            let input = String(text)
            _ = try? CPUTimes.parse(input)
            _ = try? MemoryUsage.parse(input)
            _ = try? PressureStall.parse(input)
            let (name, attributes) = PowerSupply.attributes(fromUevent: input)
            _ = try? PowerSupply.parse(name: name ?? "x", attributes: attributes, origin: "fuzz")
            let single = ["capacity": input, "temp": input, "energy_now": input, "status": input, "power_now": input]
            _ = try? PowerSupply.parse(name: "x", attributes: single, origin: "fuzz")
            _ = try? ThermalZone.parse(name: "z", attributes: ["type": input, "temp": input], origin: "fuzz")
            _ = try? HwmonChip.parse(name: "h", attributes: ["name": "n", "temp1_input": input], origin: "fuzz")
            _ = try? Backlight.parse(
                name: "b", attributes: ["brightness": input, "max_brightness": input], origin: "fuzz")
        }
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
