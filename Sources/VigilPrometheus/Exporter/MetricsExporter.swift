import Vigil

/// A registry of metrics that renders them in the Prometheus text format on demand.
///
/// Named for what it does in Prometheus' vocabulary: an *exporter* is what a Prometheus server scrapes. Application
/// code adds any `Observable` of numbers as a gauge or a counter with labels, so a state store of its own is
/// exposed beside Vigil's built-in sources; ``add(collector:)`` adds families computed at each scrape (the built-in
/// sources use it, see ``CatalogMetrics``). ``render()`` writes everything in the order it was added; ``MetricsServer``
/// serves it over HTTP and ``TextfileWriter`` writes it to a file.
///
/// ```swift
/// let exporter = MetricsExporter()
/// let queueLength = BehaviorSubject(0)
/// try exporter.add(queueLength, name: "app_queue_length", help: "Jobs waiting.", labels: ["queue": "mail"])
/// queueLength.publish(3)
/// print(exporter.render())   // # HELP app_queue_length Jobs waiting.\n# TYPE app_queue_length gauge\n…
/// ```
///
/// Each added observable is subscribed at once, delivered immediately on the publishing thread, and only its latest
/// value is kept, under a lock; nothing is buffered. The subscription ends when the metric is removed
/// (``ExportedMetric/remove()``) or the exporter is released. All methods are safe from any thread; none calls user
/// code under a lock (a collector runs during ``render()`` with no lock of the exporter held).
public final class MetricsExporter: Sendable {
    private struct Entry {
        let collect: @Sendable () -> [MetricFamily]
        /// For a metric fed by an observable: its name, type and label set, checked against later additions.
        let declared: (name: String, type: MetricType, labels: [MetricSample.Label])?
        let subscription: Subscription?
    }

    private struct State {
        var entries: [(id: UInt64, entry: Entry)] = []
        var nextID: UInt64 = 1
    }

    private let state = FutexMutex(State())

    /// Creates an empty exporter.
    public init() {}

    deinit {
        let subscriptions = state.withLock { state in state.entries.compactMap(\.entry.subscription) }
        for subscription in subscriptions { subscription.dispose() }
    }

    /// Adds a metric that takes the latest value of `values`.
    ///
    /// Until `values` publishes, the metric has no sample and is left out of the exposition; after it completes, the
    /// last value stays.
    ///
    /// - Parameters:
    ///   - values: Any observable of floating-point numbers; a `BehaviorSubject` gives its current value at once.
    ///   - name: The metric name (repaired to a valid one); a counter's should end in `_total`.
    ///   - help: What the metric measures, in one line.
    ///   - type: ``MetricType/gauge`` (the default) or ``MetricType/counter``, whose values are running totals.
    ///   - labels: Labels that tell this series apart from others of the same name.
    /// - Returns: A handle that removes the metric.
    /// - Throws: ``MetricRegistrationError`` when the name is already added with another type, or with the same
    ///   labels.
    @discardableResult
    public func add<Values: ObservableType>(
        _ values: Values, name: String, help: String, type: MetricType = .gauge, labels: [String: String] = [:]
    ) throws(MetricRegistrationError) -> ExportedMetric where Values.Element: BinaryFloatingPoint {
        try addValues(values.asDoubles(), name: name, help: help, type: type, labels: labels)
    }

    /// Adds a metric that takes the latest value of `values`, an observable of integers.
    ///
    /// The same as the floating-point variant; integers beyond 2^53 lose precision, as they do in Prometheus.
    ///
    /// - Parameters:
    ///   - values: Any observable of integers.
    ///   - name: The metric name (repaired to a valid one); a counter's should end in `_total`.
    ///   - help: What the metric measures, in one line.
    ///   - type: ``MetricType/gauge`` (the default) or ``MetricType/counter``.
    ///   - labels: Labels that tell this series apart from others of the same name.
    /// - Returns: A handle that removes the metric.
    /// - Throws: ``MetricRegistrationError`` when the name is already added with another type, or with the same
    ///   labels.
    @discardableResult
    public func add<Values: ObservableType>(
        _ values: Values, name: String, help: String, type: MetricType = .gauge, labels: [String: String] = [:]
    ) throws(MetricRegistrationError) -> ExportedMetric where Values.Element: BinaryInteger {
        try addValues(values.asDoubles(), name: name, help: help, type: type, labels: labels)
    }

    /// Adds families computed at each render, for example from a source's latest reading.
    ///
    /// - Parameter collector: Called during every ``render()``, on the rendering thread, with no lock of the
    ///   exporter held; it should be quick and must not block.
    /// - Returns: A handle that removes the collector.
    @discardableResult
    public func add(collector: @escaping @Sendable () -> [MetricFamily]) -> ExportedMetric {
        insert(Entry(collect: collector, declared: nil, subscription: nil))
    }

    /// Every family of every metric and collector, in the order they were added.
    public var families: [MetricFamily] {
        let collectors = state.withLock { state in state.entries.map(\.entry.collect) }
        return collectors.flatMap { $0() }
    }

    /// The exposition of every metric, in the Prometheus text format 0.0.4 (see ``ExpositionFormat``).
    public func render() -> String {
        ExpositionFormat.render(families)
    }

    private func addValues(
        _ values: Observable<Double>, name: String, help: String, type: MetricType, labels: [String: String]
    ) throws(MetricRegistrationError) -> ExportedMetric {
        let family = MetricFamily(name: name, help: help, type: type)
        let sampleLabels = MetricSample(labels: labels, value: 0).labels
        let latest = LatestValue()
        let declared = (name: family.name, type: type, labels: sampleLabels)
        let conflict: MetricRegistrationError? = state.withLock { state in
            for (_, entry) in state.entries {
                guard let other = entry.declared, other.name == declared.name else { continue }
                if other.type != type { return .conflictingType(name: family.name, existing: other.type) }
                if other.labels == sampleLabels { return .duplicate(name: family.name, labels: labels) }
            }
            return nil
        }
        if let conflict { throw conflict }
        let subscription = values.subscribe { value in latest.set(value) }
        let collect: @Sendable () -> [MetricFamily] = {
            guard let value = latest.value else { return [] }
            var filled = family
            filled.samples = [MetricSample(sortedLabels: sampleLabels, value: value)]
            return [filled]
        }
        return insert(Entry(collect: collect, declared: declared, subscription: subscription))
    }

    private func insert(_ entry: Entry) -> ExportedMetric {
        let id = state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.entries.append((id, entry))
            return id
        }
        return ExportedMetric { [weak self] in self?.remove(id: id) }
    }

    private func remove(id: UInt64) {
        let removed = state.withLock { state -> Entry? in
            guard let index = state.entries.firstIndex(where: { $0.id == id }) else { return nil }
            return state.entries.remove(at: index).entry
        }
        removed?.subscription?.dispose()
    }
}

/// The latest value of an observed metric, behind a lock.
private final class LatestValue: Sendable {
    private let storage = FutexMutex<Double?>(nil)

    var value: Double? { storage.withLock { $0 } }

    func set(_ value: Double) { storage.withLock { $0 = value } }
}

extension ObservableType where Element: BinaryFloatingPoint {
    fileprivate func asDoubles() -> Observable<Double> { map { Double($0) } }
}

extension ObservableType where Element: BinaryInteger {
    fileprivate func asDoubles() -> Observable<Double> { map { Double($0) } }
}
