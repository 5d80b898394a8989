/// CPU use between two samples of `/proc/stat`.
///
/// Units: fractions of time busy, 0...1, for the whole machine and for each core.
public struct CPUUsage: Sendable, Equatable, Encodable, CustomStringConvertible {
    /// The fraction of all cores' time spent busy.
    public let total: Double
    /// The fraction of each core's time spent busy, by core number; a core that went offline between the samples is
    /// left out.
    public let cores: [Core]

    /// One core's use.
    public struct Core: Sendable, Equatable, Encodable {
        /// The core number (N in `cpuN`).
        public let core: Int
        /// The fraction of its time spent busy, 0...1.
        public let busy: Double
    }

    /// Usage from an earlier and a later sample; counters that went backwards (a core re-plugged) count as no time.
    ///
    /// The total is the busy share of the summed per-core deltas, so it always agrees with the cores shown: the
    /// kernel's aggregate `cpu` line is summed from rounded per-core figures at a slightly different moment and can
    /// read 50.7 % while the only two cores read 0 % and 100 %. Only without a usable core line (a sample with the
    /// total line alone) does the total come from the aggregate line.
    public init(from earlier: [CPUTimes], to later: [CPUTimes]) {
        /// Busy and total ticks elapsed, or nil when the counters went backwards or did not move.
        func delta(_ before: CPUTimes?, _ after: CPUTimes) -> (busy: Double, total: Double)? {
            guard let before, after.total > before.total, after.busy >= before.busy else { return nil }
            return (Double(after.busy - before.busy), Double(after.total - before.total))
        }
        func fraction(_ delta: (busy: Double, total: Double)) -> Double { min(1, delta.busy / delta.total) }
        let byCore = Dictionary(earlier.map { ($0.core ?? -1, $0) }, uniquingKeysWith: { first, _ in first })
        var sum: (busy: Double, total: Double) = (0, 0)
        cores = later.compactMap { times in
            guard let core = times.core, let elapsed = delta(byCore[core], times) else { return nil }
            sum.busy += min(elapsed.busy, elapsed.total)
            sum.total += elapsed.total
            return Core(core: core, busy: fraction(elapsed))
        }
        if sum.total > 0 {
            total = fraction(sum)
        } else {
            total =
                later.first.flatMap { times in times.core == nil ? delta(byCore[-1], times).map(fraction) : nil } ?? 0
        }
    }

    public var description: String {
        "CPU " + UnitFormat.percent(total) + " ("
            + cores.map { "cpu\($0.core) " + UnitFormat.percent($0.busy) }.joined(separator: ", ") + ")"
    }
}
