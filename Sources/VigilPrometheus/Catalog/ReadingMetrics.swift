import VigilSensors

/// A reading that turns into Prometheus metrics.
protocol ReadingMetrics {
    /// Adds this reading's samples to `builder`.
    func addMetrics(to builder: inout MetricFamilyBuilder)
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
}

extension SensorReading: ReadingAvailability {
    var unavailableReason: String? {
        if case .unavailable(let reason) = status { return reason }
        return nil
    }
}
