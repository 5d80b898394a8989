/// Why ``MetricsExporter`` refused a metric.
public enum MetricRegistrationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A metric of this name was added with another type; one family has one type.
    case conflictingType(name: String, existing: MetricType)
    /// A metric of this name with the same labels was already added; its series would be written twice.
    case duplicate(name: String, labels: [String: String])

    public var description: String {
        switch self {
        case .conflictingType(let name, let existing): return "\(name) is already a \(existing)"
        case .duplicate(let name, let labels):
            let text = labels.sorted { $0.key < $1.key }.map { "\($0.key)=\"\($0.value)\"" }.joined(separator: ",")
            return "\(name){\(text)} is already added"
        }
    }
}
