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
    public init(from earlier: [CPUTimes], to later: [CPUTimes]) {
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
        "CPU " + UnitFormat.percent(total) + " ("
            + cores.map { "cpu\($0.core) " + UnitFormat.percent($0.busy) }.joined(separator: ", ") + ")"
    }
}
