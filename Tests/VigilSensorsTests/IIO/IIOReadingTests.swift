import FoundationEssentials
import Testing
import VigilSensors

@Suite(.timeLimit(.minutes(10))) struct IIOReadingTests {
    static func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    @Test func valuesEncodeFlatAndOtherStatesSaySo() throws {
        let time = ReadingTime(monotonic: .now, wall: .seconds(1))
        let stamp = #""time":"1970-01-01T00:00:01.000000Z""#
        let light = SensorReading(.value(AmbientLight.Value(lux: 12.5, timestamp: 3)), time: time)
        #expect(try Self.json(light) == #"{"lux":12.5,"# + stamp + #","timestamp":3}"#)
        let pending = SensorReading<AmbientLight.Value>(.pending, time: time)
        #expect(try Self.json(pending) == #"{"status":"pending","# + stamp + "}")
        #expect(
            try Self.json(SensorReading<AmbientLight.Value>(.unavailable(reason: "gone"), time: time))
                == #"{"reason":"gone","status":"unavailable","# + stamp + "}")
        #expect(try Self.json(ScreenOrientation.bottomUp) == #""bottom-up""#)
        let field = Magnetometer.Value(gauss: Vector3(x: 0.5, y: 0, z: -0.25), timestamp: 1)
        #expect(field.microtesla == Vector3(x: 50, y: 0, z: -25))
        #expect(field.description == "x 50 y 0 z -25 µT")
    }

    @Test func descriptionsAreOneHumanLine() {
        #expect(AmbientLight.Value(lux: 12.5, timestamp: 0).description == "12.5 lx")
        #expect(ProximitySensor.Value(level: 30, isNear: true, timestamp: 0).description == "near (level 30)")
        #expect(ProximitySensor.Value(level: 30, isNear: nil, timestamp: 0).description == "no threshold (level 30)")
        let pressure = Barometer.Value(kilopascals: 100, altitude: 110.88, relativeAltitude: -1.5, timestamp: 0)
        #expect(pressure.description == "100 kPa, altitude 110.88 m (-1.5 m since start)")
        #expect(IIOMode.polled.description == "polled")
        #expect(IIOMode.buffered().description == "buffered (length 64)")
    }
}
