import Glibc

/// The wall clock jumped, set or carried forward by a resume; the wall-clock time just after, in seconds since the
/// Unix epoch (UTC).
///
/// The JSON form is `{"secondsSinceEpoch": …, "cause": "set", "time": …}`, or with `"cause": "resume"` and
/// `"sleptSeconds"` after a resume.
public struct ClockChange: Sendable, Hashable, Encodable, CustomStringConvertible {
    /// Why the wall clock jumped.
    public enum Cause: Sendable, Hashable {
        /// It was set: `clock_settime(2)`, `settimeofday(2)`, NTP stepping it, `date -s`.
        case set
        /// The machine resumed after sleeping `after`: the wall clock moved on by the time slept while the monotonic
        /// clock stood still (see ``SleepMonitor``).
        case resumed(after: Duration)
    }

    /// Seconds since 1970-01-01 00:00:00 UTC, read just after the change was noticed.
    public let secondsSinceEpoch: Double
    /// Why it jumped.
    public let cause: Cause
    /// When the change was noticed (its ``ReadingTime/wall`` is ``secondsSinceEpoch``, to the nanosecond).
    public let time: ReadingTime

    /// Creates an event.
    ///
    /// - Parameters:
    ///   - secondsSinceEpoch: The wall-clock time just after the change, in seconds since the Unix epoch.
    ///   - cause: Why it jumped; a set by default.
    ///   - time: When the change was noticed; now by default.
    public init(secondsSinceEpoch: Double, cause: Cause = .set, time: ReadingTime = .now()) {
        self.secondsSinceEpoch = secondsSinceEpoch
        self.cause = cause
        self.time = time
    }

    /// `wall clock set; now 2023-11-14 22:13:20 UTC`, or `resumed after sleeping 5 min 00 s; now … UTC`.
    public var description: String {
        let head =
            switch cause {
            case .set: "wall clock set"
            case .resumed(let slept): "resumed after sleeping \(slept.sleepDescription)"
            }
        // Converted only within ±1e15 s (about 30 million years), so no value of the public initializer traps.
        guard secondsSinceEpoch.isFinite, abs(secondsSinceEpoch) < 1e15 else {
            return "\(head); now \(secondsSinceEpoch) s since the epoch"
        }
        var seconds = time_t(secondsSinceEpoch.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let date = "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))"
        return "\(head); now \(date) \(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) UTC"
    }

    private enum CodingKeys: String, CodingKey { case secondsSinceEpoch, cause, sleptSeconds, time }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(secondsSinceEpoch, forKey: .secondsSinceEpoch)
        switch cause {
        case .set:
            try container.encode("set", forKey: .cause)
        case .resumed(let slept):
            try container.encode("resume", forKey: .cause)
            try container.encode(slept.inSeconds, forKey: .sleptSeconds)
        }
        try container.encode(time, forKey: .time)
    }
}
