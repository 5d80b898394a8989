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
    public init(from earlier: [CPUTimes], to later: [CPUTimes]) {
        func fraction(_ before: CPUTimes?, _ after: CPUTimes) -> Double? {
            guard let before, after.total > before.total, after.busy >= before.busy else { return nil }
            return min(1, Double(after.busy - before.busy) / Double(after.total - before.total))
        }
        let byCore = Dictionary(earlier.map { ($0.core ?? -1, $0) }, uniquingKeysWith: { first, _ in first })
        total = later.first.flatMap { fraction(byCore[-1], $0) } ?? 0
        cores = later.compactMap { times in
            guard let core = times.core, let busy = fraction(byCore[core], times) else { return nil }
            return Core(core: core, busy: busy)
        }
    }

    public var description: String {
        "CPU " + UnitFormat.percent(total) + " ("
            + cores.map { "cpu\($0.core) " + UnitFormat.percent($0.busy) }.joined(separator: ", ") + ")"
    }
}
