/// CPU use between two samples of `/proc/stat`.
///
/// Units: fractions of time busy, 0...1, for the whole machine and for each core.
public struct CPUUsage: Sendable, Equatable, Encodable, CustomStringConvertible {
    /// The fraction of all cores' time spent busy.
    public let total: Double
    /// The fraction of each core's time spent busy, by core number; a core that went offline between the samples is
    /// left out.
    public let cores: [Core]
    /// Each core's cumulative time in each mode since boot, in seconds, from the later sample: counters, for a rate
    /// over any window (node_exporter's `node_cpu_seconds_total`). Not in the JSON encoding, which stays one line a
    /// reading of ratios.
    public let times: [CoreTimes]
    /// The load average (`<proc>/loadavg`) read with the later sample; nil where it cannot be read.
    public let loadAverage: LoadAverage?

    /// One core's cumulative time by mode.
    public struct CoreTimes: Sendable, Equatable {
        /// The core number (N in `cpuN`).
        public let core: Int
        /// Seconds in each mode of ``CPUTimes/modes``, in that order.
        public let seconds: [Double]
    }

    /// The numbers of runnable and uninterruptible tasks averaged over 1, 5 and 15 minutes, as `uptime` shows them.
    public struct LoadAverage: Sendable, Equatable, Encodable {
        /// Over the last minute.
        public let one: Double
        /// Over the last 5 minutes.
        public let five: Double
        /// Over the last 15 minutes.
        public let fifteen: Double

        /// Parses `/proc/loadavg` text (`0.52 0.58 0.59 1/123 4567`); nil when its first three fields are not
        /// finite, non-negative numbers.
        public init?(parsing text: String) {
            let fields = text.split(separator: " ", maxSplits: 3).prefix(3).compactMap { Double($0) }
            guard fields.count == 3, fields.allSatisfy({ $0.isFinite && $0 >= 0 }) else { return nil }
            (one, five, fifteen) = (fields[0], fields[1], fields[2])
        }
    }

    private enum CodingKeys: String, CodingKey {
        case total, cores, loadAverage
    }

    /// One core's use.
    public struct Core: Sendable, Equatable, Encodable {
        /// The core number (N in `cpuN`).
        public let core: Int
        /// The fraction of its time spent busy, 0...1.
        public let busy: Double
    }

    /// Usage from an earlier and a later sample; a counter that went backwards counts as no time.
    ///
    /// A core's share is its busy ticks over its busy and idle ticks. The kernel documents that a core's idle (and
    /// iowait) counter can go backwards (NO_HZ idle accounting revises it), so that counter's change then counts as
    /// no time; a core whose busy counter went backwards was re-plugged, and a core that did not move or appeared
    /// between the samples is left out.
    ///
    /// The total is the mean of the cores shown, so it always agrees with them: every online core lives through
    /// the same wall-clock interval, so each weighs the same. Weighting each core by its own tick count (summing
    /// the per-core deltas) or taking the kernel's aggregate `cpu` line (their sum) would not: when one core's idle
    /// went backwards, its few ticks made cores at 0 % and 100 % total 48.7 %, and the aggregate line is summed from
    /// rounded per-core figures at a slightly different moment. Only without a usable core line (a sample with the
    /// total line alone) does the total come from the aggregate line.
    ///
    /// - Parameters:
    ///   - earlier: The earlier sample.
    ///   - later: The later sample, whose counters ``times`` holds.
    ///   - loadAverage: The load average read with the later sample.
    ///   - ticksPerSecond: The kernel's `USER_HZ`, the unit of `/proc/stat`: `sysconf(_SC_CLK_TCK)`.
    public init(
        from earlier: [CPUTimes], to later: [CPUTimes], loadAverage: LoadAverage? = nil,
        ticksPerSecond: Double = CPUTimes.ticksPerSecond
    ) {
        self.loadAverage = loadAverage
        times = later.compactMap { times in
            times.core.map { CoreTimes(core: $0, seconds: times.modeTicks.map { Double($0) / ticksPerSecond }) }
        }
        /// Busy and busy-plus-idle ticks elapsed, or nil when the core was re-plugged or did not move.
        func delta(_ before: CPUTimes?, _ after: CPUTimes) -> (busy: Double, total: Double)? {
            guard let before, after.busy >= before.busy else { return nil }
            let busy = after.busy - before.busy
            let idle = after.idle >= before.idle ? after.idle - before.idle : 0
            guard busy > 0 || idle > 0 else { return nil }
            return (Double(busy), Double(busy) + Double(idle))
        }
        func fraction(_ delta: (busy: Double, total: Double)) -> Double { delta.busy / delta.total }
        let byCore = Dictionary(earlier.map { ($0.core ?? -1, $0) }, uniquingKeysWith: { first, _ in first })
        cores = later.compactMap { times in
            guard let core = times.core, let elapsed = delta(byCore[core], times) else { return nil }
            return Core(core: core, busy: fraction(elapsed))
        }
        if !cores.isEmpty {
            total = cores.reduce(0) { $0 + $1.busy } / Double(cores.count)
        } else {
            total =
                later.first.flatMap { times in times.core == nil ? delta(byCore[-1], times).map(fraction) : nil } ?? 0
        }
    }

    public var description: String {
        var line =
            "CPU " + UnitFormat.percent(total) + " ("
            + cores.map { "cpu\($0.core) " + UnitFormat.percent($0.busy) }.joined(separator: ", ") + ")"
        if let loadAverage {
            let figures = [loadAverage.one, loadAverage.five, loadAverage.fifteen].map { UnitFormat.fixed($0, 2) }
            line += ", load " + figures.joined(separator: " ")
        }
        return line
    }
}
