import Foundation
import Glibc
import Testing

@testable import VigilSensors

@Suite(.timeLimit(.minutes(10))) struct ReadingTimeTests {
    static let base = ContinuousClock.now

    @Test(arguments: [
        (Duration.zero, "1970-01-01T00:00:00.000000Z"),
        (.seconds(1_709_210_096), "2024-02-29T12:34:56.000000Z"),
        (.seconds(1_796_404_200) + .microseconds(123_456), "2026-12-04T17:10:00.123456Z"),
        (.seconds(59) + .nanoseconds(999_999_999), "1970-01-01T00:00:59.999999Z"),
        (.nanoseconds(1_999), "1970-01-01T00:00:00.000001Z"),
        (.nanoseconds(-1), "1969-12-31T23:59:59.999999Z"),
        (.seconds(-86_400) - .microseconds(1), "1969-12-30T23:59:59.999999Z"),
    ])
    func formatsWallTimeAsRFC3339WithTruncatedMicroseconds(wall: Duration, expected: String) {
        let time = ReadingTime(monotonic: Self.base, wall: wall)
        #expect(time.description == expected)
    }

    @Test func encodesAsOneRFC3339String() throws {
        let time = ReadingTime(monotonic: Self.base, wall: .seconds(1_709_210_096) + .microseconds(7))
        let json = String(decoding: try JSONEncoder().encode([time]), as: UTF8.self)
        #expect(json == #"["2024-02-29T12:34:56.000007Z"]"#)
    }

    @Test func nowReadsBothClocks() {
        let monotonicBefore = ContinuousClock.now
        let wallBefore = Self.realtime()
        let time = ReadingTime.now()
        let wallAfter = Self.realtime()
        let monotonicAfter = ContinuousClock.now
        #expect(monotonicBefore <= time.monotonic && time.monotonic <= monotonicAfter)
        #expect(wallBefore <= time.wall && time.wall <= wallAfter, "\(wallBefore) \(time.wall) \(wallAfter)")
    }

    @Test func comparesByTheMonotonicClock() {
        let earlier = ReadingTime(monotonic: Self.base, wall: .seconds(100))
        let later = ReadingTime(monotonic: Self.base + .milliseconds(1), wall: .seconds(50))
        #expect(earlier < later)
        #expect(!(later < earlier))
    }

    static func realtime() -> Duration {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return .seconds(spec.tv_sec) + .nanoseconds(spec.tv_nsec)
    }
}
