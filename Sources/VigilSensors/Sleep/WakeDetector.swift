/// Tells a wake from the clocks alone: a pure value that takes ``ClockPair`` readings and says when the time
/// suspended grew, and by how much.
///
/// It keeps the suspended time of the last wake it reported (or of its first reading) as a reference. A reading whose
/// suspended time exceeds the reference by at least ``threshold`` is a wake: the growth is the time slept, and the
/// reference moves to it. Anything less (the jitter of two clock reads, or a reading older than one seen already)
/// changes nothing, so jitter never adds up to a false wake, and a real sleep shorter than the threshold is counted
/// into the next reported one rather than lost.
package struct WakeDetector: Sendable, Equatable {
    /// The least growth of the suspended time that counts as a wake: far above the jitter of ``ClockPair/now()``
    /// (microseconds), far below any real suspend (the kernel's own suspend and resume take longer).
    package static let threshold = Duration.milliseconds(10)

    /// The suspended time (boot time minus monotonic) of the last wake reported, or of the first reading.
    package private(set) var reference: Duration

    /// A detector whose first reading is `pair`.
    package init(_ pair: ClockPair) {
        reference = pair.suspended
    }

    /// Takes a reading; returns the time slept when it shows a wake since the last one, else nil.
    package mutating func observe(_ pair: ClockPair) -> Duration? {
        let growth = pair.suspended - reference
        guard growth >= Self.threshold else { return nil }
        reference = pair.suspended
        return growth
    }
}
