/// A metric or collector added to a ``MetricsExporter``; ``remove()`` takes it out.
///
/// Releasing the handle does not remove the metric: the exporter keeps it until ``remove()`` or until the exporter
/// is released.
public final class ExportedMetric: Sendable {
    private let removal: @Sendable () -> Void

    init(removal: @escaping @Sendable () -> Void) { self.removal = removal }

    /// Removes the metric from its exporter and ends its subscription; calling it again does nothing.
    public func remove() { removal() }
}
