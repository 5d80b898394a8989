import Foundation
import Testing

@testable import VigilSensors

@Suite(.timeLimit(.minutes(10))) struct SensorReadingTests {
    struct Level: Sendable, Equatable, Encodable, CustomStringConvertible {
        let level: Int
        var description: String { "level \(level)" }
    }

    static let time = ReadingTime(monotonic: .now, wall: .seconds(1_709_210_096) + .microseconds(250_000))

    static func json(_ reading: SensorReading<Level>) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(reading), as: UTF8.self)
    }

    @Test func encodesTheTimeBesideTheStatus() throws {
        #expect(
            try Self.json(SensorReading(.pending, time: Self.time))
                == #"{"status":"pending","time":"2024-02-29T12:34:56.250000Z"}"#)
        #expect(
            try Self.json(SensorReading(.unavailable(reason: "gone"), time: Self.time))
                == #"{"reason":"gone","status":"unavailable","time":"2024-02-29T12:34:56.250000Z"}"#)
        let value = try Self.json(SensorReading(.value(Level(level: 3)), time: Self.time))
        #expect(value.contains(#""time":"2024-02-29T12:34:56.250000Z""#), "\(value)")
        #expect(value.contains(#""level":3"#), "\(value)")
    }

    @Test func aValueThatIsNotAnObjectGoesUnderValue() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let number = String(decoding: try encoder.encode(SensorReading(.value(5), time: Self.time)), as: UTF8.self)
        #expect(number == #"{"time":"2024-02-29T12:34:56.250000Z","value":5}"#)
        let list = String(decoding: try encoder.encode(SensorReading(.value([1, 2]), time: Self.time)), as: UTF8.self)
        #expect(list == #"{"time":"2024-02-29T12:34:56.250000Z","value":[1,2]}"#)
    }

    @Test func theStaticMembersStampNow() {
        let before = ContinuousClock.now
        let readings: [SensorReading<Level>] = [.pending, .value(Level(level: 1)), .unavailable(reason: "gone")]
        let after = ContinuousClock.now
        #expect(readings.allSatisfy { before <= $0.time.monotonic && $0.time.monotonic <= after })
    }

    @Test func aReadingIsAFactAtATime() {
        let later = ReadingTime(monotonic: Self.time.monotonic + .seconds(1), wall: Self.time.wall + .seconds(1))
        let first = SensorReading<Level>(.pending, time: Self.time)
        #expect(first == SensorReading(.pending, time: Self.time))
        #expect(first != SensorReading(.pending, time: later))
        #expect(first.description == "waiting for the first reading")
    }
}
