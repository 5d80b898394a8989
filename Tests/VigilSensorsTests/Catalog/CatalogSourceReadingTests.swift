import Foundation
import Testing
import VigilSensors
import VigilTestSupport

/// Sources made by the catalog on a fake machine: they start, read it, and stop with their helper monitors.
@Suite(.timeLimit(.minutes(10))) struct CatalogSourceReadingTests {
    /// Makes and starts `id` on `machine`, and returns the JSON of its first reading that `predicate` accepts.
    private func firstJSON(
        _ id: String, on machine: FakeMachine, afterStart: () -> Void = {},
        where predicate: @escaping @Sendable (String) -> Bool
    ) throws -> String? {
        let source = try #require(SourceCatalog.entry(id: id)).make(machine.options)
        try source.startMonitoring()
        defer { source.stopMonitoring() }
        #expect(source.isMonitoring)
        afterStart()
        let reading = firstReading(of: source.readings) { reading in
            predicate(Self.json(reading))
        }
        return reading.map(Self.json)
    }

    private static func json(_ reading: any CatalogReading) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return (try? encoder.encode(reading)).map { String(decoding: $0, as: UTF8.self) } ?? "not encodable"
    }

    private static func isValue(_ json: String) -> Bool { !json.contains("\"status\":\"pending\"") }

    @Test func memoryReadsTheFakeMeminfo() throws {
        let json = try #require(try firstJSON("memory", on: .equipped(), where: Self.isValue))
        #expect(json.contains("\"usedFraction\":0.5"))
    }

    @Test func cpuReadsTheFakeStatOnceItHasTwoSamples() throws {
        let machine = FakeMachine.equipped()
        let secondSample = { machine.proc.write("stat", "cpu  50 0 0 150 0\ncpu0 50 0 0 150 0\n") }
        let json = try #require(try firstJSON("cpu", on: machine, afterStart: secondSample, where: Self.isValue))
        #expect(json.contains("\"total\":0.5"))
    }

    @Test func thermalReadsTheFakeZone() throws {
        let json = try #require(try firstJSON("thermal", on: .equipped(), where: Self.isValue))
        #expect(json.contains("\"temperatureCelsius\":45"))
    }

    @Test func batteryReadsTheFakeBattery() throws {
        let json = try #require(try firstJSON("battery", on: .equipped(), where: Self.isValue))
        #expect(json.contains("\"capacityPercent\":62"))
        #expect(json.contains("\"powerSource\":\"on battery\""))
    }

    @Test func readingsPrintAsTheSourcesOwn() throws {
        let machine = FakeMachine.equipped()
        let source = try #require(SourceCatalog.entry(id: "memory")).make(machine.options)
        try source.startMonitoring()
        defer { source.stopMonitoring() }
        let reading = try #require(firstReading(of: source.readings) { $0.description.hasPrefix("memory") })
        #expect(reading.description == "memory 50.0 % used, 500.0 KiB available of 1000.0 KiB")
    }

    @Test func aFakeRootFollowsNoUevents() throws {
        let machine = FakeMachine.equipped()
        for id in ["battery", "power", "backlight", "accelerometer", "orientation"] {
            #expect(try #require(SourceCatalog.entry(id: id)).make(machine.options).helpers.isEmpty, "\(id)")
        }
    }
}
