import VigilSensors

/// A reading that turns into Prometheus metrics.
protocol ReadingMetrics {
    /// Adds this reading's samples to `builder`.
    func addMetrics(to builder: inout MetricFamilyBuilder)
    /// Why the reading, though read, has no usable value (every zone unreadable), or nil; its source is then not up.
    var unusableReason: String? { get }
    /// How many notes the reading carries: what `vigil watch` prints in brackets (a file that did not parse, a
    /// value clamped), exported as `vigil_source_notes`.
    var noteCount: Int { get }
}

extension ReadingMetrics {
    var unusableReason: String? { nil }
    var noteCount: Int { 0 }
}

/// A reading that can say it is unavailable, which makes its source's `vigil_source_up` 0.
protocol ReadingAvailability {
    /// Why the reading has no value, or nil when it has one (or is still pending).
    var unavailableReason: String? { get }
}

extension SensorReading: ReadingMetrics {
    func addMetrics(to builder: inout MetricFamilyBuilder) {
        (value as? any ReadingMetrics)?.addMetrics(to: &builder)
    }

    var unusableReason: String? { (value as? any ReadingMetrics)?.unusableReason }

    var noteCount: Int { (value as? any ReadingMetrics)?.noteCount ?? 0 }
}

extension SensorReading: ReadingAvailability {
    var unavailableReason: String? {
        if case .unavailable(let reason) = status { return reason }
        return nil
    }
}
