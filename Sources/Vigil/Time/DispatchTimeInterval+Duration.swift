import Dispatch

extension DispatchTimeInterval {
    /// `duration` in nanoseconds, none below zero, `Int.max` at most (`DispatchTime` saturates, so that is forever).
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0 else {
            self = .nanoseconds(0)
            return
        }
        guard seconds < Int64(Int.max / 1_000_000_000) else {
            self = .nanoseconds(.max)
            return
        }
        self = .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
    }
}
