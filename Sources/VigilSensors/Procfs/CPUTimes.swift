import Glibc

/// Cumulative CPU time counters from one `cpu` line of `/proc/stat`.
///
/// Units: clock ticks (`USER_HZ`, normally 1/100 s). Only differences between two samples mean anything; see
/// ``CPUUsage``.
public struct CPUTimes: Sendable, Equatable {
    /// `nil` for the total line (`cpu`), the core number for `cpuN`.
    public let core: Int?
    /// Ticks spent working: user, nice, system, irq, softirq and steal (guest time is already inside user and nice).
    public let busy: UInt64
    /// Ticks spent idle, including waiting for I/O.
    public let idle: UInt64
    /// The cumulative ticks of each mode, in the kernel's order: user, nice, system, idle, iowait, irq, softirq,
    /// steal (guest time is inside user and nice); a mode an older kernel does not report is 0.
    public let modeTicks: [UInt64]

    /// The modes of ``modeTicks``, by the names node_exporter gives them.
    public static let modes = ["user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal"]

    /// Creates counters; `modeTicks` defaults to `busy` as user time and `idle` as idle time.
    public init(core: Int?, busy: UInt64, idle: UInt64, modeTicks: [UInt64]? = nil) {
        self.core = core
        self.busy = busy
        self.idle = idle
        self.modeTicks = modeTicks ?? [busy, 0, 0, idle, 0, 0, 0, 0]
    }

    /// All ticks counted.
    public var total: UInt64 { busy &+ idle }

    /// The kernel's `USER_HZ`, the unit of `/proc/stat` (100 on every Linux architecture in use).
    public static let ticksPerSecond: Double = {
        let ticks = sysconf(Int32(_SC_CLK_TCK))
        return ticks > 0 ? Double(ticks) : 100
    }()

    /// Parses the `cpu` lines of `/proc/stat` text: the total first, then each core in order.
    ///
    /// - Throws: ``SensorError/malformedValue(path:text:expected:)`` when there is no total line or a `cpu` line has
    ///   fewer than four counters or a non-numeric one.
    package static func parse(_ text: String, path: String = "/proc/stat") throws(SensorError) -> [CPUTimes] {
        var result: [CPUTimes] = []
        for line in text.split(separator: "\n") where line.hasPrefix("cpu") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            let label = fields[0].dropFirst(3)
            let core: Int?
            if label.isEmpty {
                core = nil
            } else if let number = Int(label), number >= 0 {
                core = number
            } else {
                throw SensorError.malformedValue(path: path, text: String(line), expected: "a cpu line")
            }
            var counters: [UInt64] = []
            for field in fields.dropFirst() {
                guard let value = UInt64(field) else {
                    throw SensorError.malformedValue(path: path, text: String(line), expected: "cpu tick counters")
                }
                counters.append(value)
            }
            guard counters.count >= 4 else {
                throw SensorError.malformedValue(path: path, text: String(line), expected: "at least 4 tick counters")
            }
            // user nice system idle iowait irq softirq steal guest guest_nice
            let value = { (index: Int) -> UInt64 in index < counters.count ? counters[index] : 0 }
            // Sums that overflow 64 bits are refused rather than wrapped into a wrong figure.
            func sum(_ indices: [Int]) throws(SensorError) -> UInt64 {
                var total: UInt64 = 0
                for index in indices {
                    let (next, overflow) = total.addingReportingOverflow(value(index))
                    if overflow {
                        throw SensorError.valueOutOfRange(
                            path: path, value: String(line), range: "tick counters whose sum fits in 64 bits")
                    }
                    total = next
                }
                return total
            }
            let busy = try sum([0, 1, 2, 5, 6, 7])
            let idle = try sum([3, 4])
            guard busy.addingReportingOverflow(idle).overflow == false else {
                throw SensorError.valueOutOfRange(
                    path: path, value: String(line), range: "tick counters whose sum fits in 64 bits")
            }
            result.append(CPUTimes(core: core, busy: busy, idle: idle, modeTicks: (0..<modes.count).map(value)))
        }
        guard result.first?.core == nil, !result.isEmpty else {
            throw SensorError.malformedValue(path: path, text: String(text.prefix(64)), expected: "a total cpu line")
        }
        return result
    }
}
