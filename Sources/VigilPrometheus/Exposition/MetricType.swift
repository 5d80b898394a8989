/// How Prometheus reads a metric family: a value that goes up and down, or a total that only rises.
public enum MetricType: String, Hashable, Sendable, CustomStringConvertible {
    /// A value that can go up and down (a temperature, a byte count in use, a 0/1 state).
    case gauge
    /// A running total that only rises, or restarts from zero when the process does; its name ends in `_total`.
    case counter

    /// The type's name in a `# TYPE` line.
    public var description: String { rawValue }
}
