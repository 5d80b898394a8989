import Glibc

/// When a reading was taken, on the monotonic clock and on the wall clock.
///
/// ``monotonic`` orders readings and measures the time between them: it is a `ContinuousClock` instant (on Linux
/// `CLOCK_BOOTTIME`), comparable with `ContinuousClock.now`, and it keeps counting while the machine is suspended, so
/// the interval between two readings is right across a suspend. ``wall`` is the calendar time a user reads
/// (`CLOCK_REALTIME`), which jumps when the clock is set; use it to show or log a reading, not to measure.
///
/// Readings compare by ``monotonic``. The description and the JSON form are the wall time in RFC 3339, UTC, with
/// microseconds: `2026-12-04T17:10:00.123456Z`.
public struct ReadingTime: Sendable, Hashable, Comparable, Encodable, CustomStringConvertible {
    /// When the reading was taken on the continuous clock, comparable with `ContinuousClock.now`.
    public let monotonic: ContinuousClock.Instant
    /// When the reading was taken on the wall clock, as the time since the Unix epoch (1970-01-01T00:00:00Z).
    public let wall: Duration

    /// A time from both clocks' values, for custom sources that took the reading earlier and for tests.
    ///
    /// - Parameters:
    ///   - monotonic: The continuous-clock instant of the reading.
    ///   - wall: The wall-clock time of the reading since the Unix epoch.
    public init(monotonic: ContinuousClock.Instant, wall: Duration) {
        self.monotonic = monotonic
        self.wall = wall
    }

    /// The current time, read from the continuous clock and the wall clock (`clock_gettime(CLOCK_REALTIME)`).
    public static func now() -> ReadingTime {
        let monotonic = ContinuousClock.now
        return ReadingTime(monotonic: monotonic, wall: wallClockNow())
    }

    /// Earlier on the monotonic clock.
    public static func < (lhs: ReadingTime, rhs: ReadingTime) -> Bool {
        lhs.monotonic < rhs.monotonic
    }

    /// The wall time in RFC 3339, UTC, with microseconds (truncated), for example `2026-12-04T17:10:00.123456Z`.
    public var description: String { Self.rfc3339(wall) }

    /// Encodes the wall time as one RFC 3339 string, like ``description``.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

extension ReadingTime {
    /// Reads `CLOCK_REALTIME` as the time since the Unix epoch.
    static func wallClockNow() -> Duration {
        var spec = timespec()
        // clock_gettime(CLOCK_REALTIME) cannot fail with a valid clock id and pointer.
        _ = clock_gettime(CLOCK_REALTIME, &spec)
        return .seconds(spec.tv_sec) + .nanoseconds(spec.tv_nsec)
    }

    /// Formats a time since the Unix epoch as RFC 3339 in UTC with microseconds, truncated towards the past.
    ///
    /// A time `gmtime_r(3)` cannot break down (beyond its year range) falls back to seconds since the epoch.
    static func rfc3339(_ sinceEpoch: Duration) -> String {
        let (seconds, attoseconds) = sinceEpoch.components
        let attosecondsPerMicrosecond: Int64 = 1_000_000_000_000
        var wholeSeconds = seconds
        var microseconds = attoseconds / attosecondsPerMicrosecond
        if attoseconds < 0, attoseconds % attosecondsPerMicrosecond != 0 { microseconds -= 1 }
        if microseconds < 0 {
            wholeSeconds -= 1
            microseconds += 1_000_000
        }
        var time = time_t(wholeSeconds)
        var parts = tm()
        guard gmtime_r(&time, &parts) != nil else { return "\(sinceEpoch) since 1970-01-01T00:00:00Z" }
        let date = "\(padded(Int(parts.tm_year) + 1900, 4))-\(padded(parts.tm_mon + 1, 2))-\(padded(parts.tm_mday, 2))"
        let clock = "\(padded(parts.tm_hour, 2)):\(padded(parts.tm_min, 2)):\(padded(parts.tm_sec, 2))"
        return "\(date)T\(clock).\(padded(microseconds, 6))Z"
    }

    /// `value` in decimal, zero-padded on the left to `width` digits (a minus sign comes first).
    private static func padded(_ value: some BinaryInteger, _ width: Int) -> String {
        let digits = String(value.magnitude)
        let zeros = String(repeating: "0", count: max(0, width - digits.count))
        return (value < 0 ? "-" : "") + zeros + digits
    }
}
