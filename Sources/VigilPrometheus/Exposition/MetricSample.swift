/// One line of an exposition: a label set and the value the metric has for it.
public struct MetricSample: Hashable, Sendable {
    /// The labels, sorted by name, names valid (see ``MetricName/sanitizedLabel(_:)``); a later duplicate name
    /// replaces an earlier one.
    public let labels: [Label]
    /// The value; NaN and the infinities are written as Prometheus spells them (`NaN`, `+Inf`, `-Inf`).
    public let value: Double

    /// One label: a name and a value of any text (escaped when written).
    public struct Label: Hashable, Sendable {
        /// The label's name, valid as Prometheus requires.
        public let name: String
        /// The label's value, any text.
        public let value: String
    }

    /// A sample with `labels` (names repaired, sorted) and `value`.
    ///
    /// - Parameters:
    ///   - labels: Label names and values; names are repaired to valid label names.
    ///   - value: The metric's value for this label set.
    public init(labels: [String: String] = [:], value: Double) {
        self.init(labelPairs: labels.map { ($0.key, $0.value) }, value: value)
    }

    /// A sample with labels already repaired and sorted (``labels`` of another sample), and `value`.
    init(sortedLabels: [Label], value: Double) {
        labels = sortedLabels
        self.value = value
    }

    /// A sample from label pairs in any order (names repaired; for a name given twice, the later value wins).
    init(labelPairs: [(String, String)], value: Double) {
        var byName: [String: String] = [:]
        for (name, text) in labelPairs { byName[MetricName.sanitizedLabel(name)] = text }
        labels = byName.sorted { $0.key < $1.key }.map { Label(name: $0.key, value: $0.value) }
        self.value = value
    }
}
