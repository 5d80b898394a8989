/// A metric family: one name, one help text, one type, and a sample per label set.
public struct MetricFamily: Hashable, Sendable {
    /// The metric name, valid as Prometheus requires (repaired by the initializer).
    public let name: String
    /// What the metric measures, in one line; written in the `# HELP` line.
    public let help: String
    /// Gauge or counter; written in the `# TYPE` line.
    public let type: MetricType
    /// The samples; the exposition writes one line each (a repeated label set is written once, the first).
    public var samples: [MetricSample]

    /// A family named `name` (repaired with ``MetricName/sanitized(_:)``).
    ///
    /// - Parameters:
    ///   - name: The metric name; a counter's should end in `_total`.
    ///   - help: What the metric measures.
    ///   - type: Gauge or counter.
    ///   - samples: The samples.
    public init(name: String, help: String, type: MetricType, samples: [MetricSample] = []) {
        self.name = MetricName.sanitized(name)
        self.help = help
        self.type = type
        self.samples = samples
    }
}
