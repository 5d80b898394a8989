extension Duration {
    /// The duration in seconds, as a `Double` (JSON and metrics).
    var inSeconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// The duration as a time suspended or slept is shown: to the nearest microsecond (what two reads of the clocks
    /// can tell apart), and never below zero (the jitter of two reads on a machine that never slept).
    var asSleptTime: Duration {
        guard self > .zero else { return .zero }
        let (seconds, attoseconds) = components
        let attosecondsPerMicrosecond: Int64 = 1_000_000_000_000
        return .seconds(seconds)
            + .microseconds((attoseconds + attosecondsPerMicrosecond / 2) / attosecondsPerMicrosecond)
    }

    /// A time slept for people: `850 ms`, `42 s`, `5 min 03 s`, `2 h 05 min`, or `3 d 4 h`.
    var sleepDescription: String {
        let total = inSeconds
        guard total.isFinite, total >= 0 else { return "\(self)" }
        if total < 1 { return "\(Int((total * 1000).rounded(.down))) ms" }
        guard total < 1e12 else { return UnitFormat.fixed(total / 86400, 0) + " d" }
        let whole = Int(total.rounded(.down))
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        switch whole {
        case ..<60: return "\(whole) s"
        case ..<3600: return "\(whole / 60) min \(two(whole % 60)) s"
        case ..<86400: return "\(whole / 3600) h \(two(whole % 3600 / 60)) min"
        default: return "\(whole / 86400) d \(whole % 86400 / 3600) h"
        }
    }
}
