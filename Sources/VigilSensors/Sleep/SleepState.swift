/// What ``SleepMonitor`` reads: the time this machine spent suspended since boot, the wakes the monitor noticed, and
/// the kernel's suspend statistics where it has them.
///
/// The JSON form is `{"suspendedSeconds": 5400.25, "wakes": 2, "lastWake": {"sleptSeconds": 3600.5, "time": …},
/// "statistics": {…}}`; `lastWake` and `statistics` are left out when there are none.
public struct SleepState: Sendable, Equatable, Encodable, CustomStringConvertible {
    /// One wake the monitor noticed.
    public struct Wake: Sendable, Hashable, Encodable, CustomStringConvertible {
        /// How long the machine slept.
        public var slept: Duration
        /// When the wake was noticed (promptly after the resume: the kernel wakes the monitor's timer then).
        public var time: ReadingTime

        /// A wake after sleeping `slept`, noticed at `time`.
        public init(slept: Duration, time: ReadingTime) {
            self.slept = slept
            self.time = time
        }

        public var description: String { "woke at \(time) after sleeping \(slept.sleepDescription)" }

        private enum CodingKeys: String, CodingKey { case sleptSeconds, time }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(slept.inSeconds, forKey: .sleptSeconds)
            try container.encode(time, forKey: .time)
        }
    }

    /// The time spent suspended since boot: `CLOCK_BOOTTIME − CLOCK_MONOTONIC` as of the last wake (or the start),
    /// so it is steady between wakes, to the microsecond. Inside a time namespace it includes the namespace's
    /// boot-time offset less its monotonic offset (never below zero).
    public var suspendedSinceBoot: Duration
    /// How many wakes the monitor noticed while it ran.
    public var wakes: Int
    /// The last wake noticed, or nil before the first.
    public var lastWake: Wake?
    /// The kernel's suspend statistics, or nil where it has none (`<sys>/power/suspend_stats` is missing).
    public var statistics: SuspendStatistics?

    /// A state; by default no wake seen and no statistics.
    public init(
        suspendedSinceBoot: Duration, wakes: Int = 0, lastWake: Wake? = nil, statistics: SuspendStatistics? = nil
    ) {
        self.suspendedSinceBoot = suspendedSinceBoot
        self.wakes = wakes
        self.lastWake = lastWake
        self.statistics = statistics
    }

    /// For example `suspended 1 h 05 min since boot; woke at … after sleeping 1 h 00 min; suspends: 3 succeeded, 0
    /// failed`.
    public var description: String {
        var parts = ["suspended \(suspendedSinceBoot.sleepDescription) since boot"]
        if let lastWake { parts.append(lastWake.description) }
        parts.append(statistics?.description ?? "no suspend statistics")
        return parts.joined(separator: "; ")
    }

    private enum CodingKeys: String, CodingKey { case suspendedSeconds, wakes, lastWake, statistics }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(suspendedSinceBoot.inSeconds, forKey: .suspendedSeconds)
        try container.encode(wakes, forKey: .wakes)
        try container.encodeIfPresent(lastWake, forKey: .lastWake)
        try container.encodeIfPresent(statistics, forKey: .statistics)
    }
}
