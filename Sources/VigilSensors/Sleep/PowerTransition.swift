/// What ``SleepMonitor/transitions`` reports: the machine woke from a suspend, or a suspend failed.
///
/// The JSON form is `{"transition": "didWake", "sleptSeconds": 3600.5}` or
/// `{"transition": "suspendFailed", "failures": 3, "lastFailure": {…}}` (plus `"time"` in a ``SensorEvent``).
public enum PowerTransition: Sendable, Hashable, Encodable, CustomStringConvertible {
    /// The machine woke after sleeping `after` (the growth of `CLOCK_BOOTTIME − CLOCK_MONOTONIC`).
    case didWake(after: Duration)
    /// The kernel counted a failed suspend (`suspend_stats/fail` grew); `failures` is the new count, `last` what the
    /// kernel says about the latest one.
    case suspendFailed(failures: Int, last: SuspendStatistics.Failure?)

    public var description: String {
        switch self {
        case .didWake(let slept): return "woke after sleeping \(slept.sleepDescription)"
        case .suspendFailed(let failures, let last):
            return "a suspend failed (\(failures) since boot)" + (last.map { ", last \($0)" } ?? "")
        }
    }

    private enum CodingKeys: String, CodingKey { case transition, sleptSeconds, failures, lastFailure }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .didWake(let slept):
            try container.encode("didWake", forKey: .transition)
            try container.encode(slept.inSeconds, forKey: .sleptSeconds)
        case .suspendFailed(let failures, let last):
            try container.encode("suspendFailed", forKey: .transition)
            try container.encode(failures, forKey: .failures)
            try container.encodeIfPresent(last, forKey: .lastFailure)
        }
    }
}
