import Vigil
import VigilSensors

/// The Prometheus metrics of one built-in source: its latest reading as gauges, its events as counters, and whether
/// it is up.
///
/// It subscribes to the `CatalogSource`'s readings when made (subscribe before starting the source, so no event is
/// missed) and keeps, under a lock, only the latest reading of a state source and one number per counter of an event
/// source: file events by kind (`vigil_file_events_total`), uevents by action and subsystem (`vigil_uevents_total`, at
/// most ``maximumUeventSeries`` label sets, the rest counted under `subsystem="other"`), and wall-clock sets
/// (`vigil_clock_changes_total`; a jump from a resume is not a set). Netlink overflows and resyncs come from the
/// monitor's `NetlinkStatistics` at each render. Every source also reports `vigil_source_up{source=…}` (1 while it runs
/// and its latest reading is neither `unavailable` nor without any usable value, such as thermal zones that all fail
/// to read), `vigil_source_info{source=…,name=…,reason=…}` (always 1; `reason` is empty while up), and
/// `vigil_source_notes{source=…}` (how many notes its latest reading carries). The README lists every metric.
///
/// ``MetricsExporter/add(_:argument:)`` adds one to an exporter. The subscription ends when this object is released.
public final class CatalogMetrics: Sendable {
    /// The most label sets `vigil_uevents_total` grows to; further subsystems are counted as `other`.
    public static let maximumUeventSeries = 256

    private struct Counter: Hashable {
        let name: String
        let labels: [String: String]
    }

    private struct State {
        var latest: (any CatalogReading)?
        var eventReason: String?
        var counters: [Counter: Double] = [:]
        var counterOrder: [Counter] = []
    }

    private static let counterHelp = [
        "vigil_file_events_total": "File-system events seen by a files source, by kind.",
        "vigil_uevents_total": "Kernel uevents received, by action and subsystem.",
        "vigil_clock_changes_total": "Times the wall clock was set (a jump, not its steady ticking).",
    ]

    /// The source whose metrics these are.
    public let source: CatalogSource
    private let argument: String?
    private let state = FutexMutex(State())
    private let subscription: FutexMutex<Subscription?> = FutexMutex(nil)

    /// Starts following `source`'s readings; the source itself is started by the caller.
    ///
    /// - Parameters:
    ///   - source: A source made from `SourceCatalog`.
    ///   - argument: The entry's argument (the watched path of `files`), shown in the `path` label of its counters
    ///     and the `argument` label of `vigil_source_up`.
    public init(source: CatalogSource, argument: String? = nil) {
        self.source = source
        self.argument = argument
        if source.id == "files" {
            state.withLock { state in
                for kind in FileSystemEvent.Kind.allCases.map(\.rawValue) + ["overflow", "unavailable"] {
                    Self.count(&state, "vigil_file_events_total", ["path": argument ?? "", "kind": kind], 0)
                }
            }
        } else if source.id == "clock" {
            state.withLock { Self.count(&$0, "vigil_clock_changes_total", [:], 0) }
        }
        let taken = source.readings.subscribe { [weak self] reading in self?.receive(reading) }
        subscription.withLock { $0 = taken }
    }

    deinit {
        subscription.withLock { $0 }?.dispose()
    }

    /// The source's families now: `vigil_source_up`, `vigil_source_info`, then its readings' and counters'.
    public var families: [MetricFamily] {
        let (latest, eventReason, counters) = state.withLock { state in
            (state.latest, state.eventReason, state.counterOrder.map { ($0, state.counters[$0] ?? 0) })
        }
        var builder = MetricFamilyBuilder()
        let metrics = latest as? any ReadingMetrics
        var reason = source.isMonitoring ? nil : "not running"
        if reason == nil {
            reason = (latest as? any ReadingAvailability)?.unavailableReason ?? metrics?.unusableReason ?? eventReason
        }
        Self.addStatus(
            to: &builder, id: source.id, name: source.name, argument: argument, reason: reason)
        if let metrics {
            builder.gauge(
                "vigil_source_notes", "Notes a source's latest reading carries (values left out or clamped).",
                Double(metrics.noteCount), ["source": source.id])
            metrics.addMetrics(to: &builder)
        }
        for (counter, value) in counters {
            builder.counter(counter.name, Self.counterHelp[counter.name] ?? counter.name, value, counter.labels)
        }
        addNetlinkStatistics(to: &builder)
        return builder.families
    }

    /// The status families of a source that is not running, for example one unavailable on this machine.
    ///
    /// - Parameters:
    ///   - id: The catalog id.
    ///   - name: The catalog name.
    ///   - reason: Why it does not run, for the `reason` label.
    ///   - absent: Whether the machine lacks the hardware: then there is no `vigil_source_up` series at all, so an
    ///     alert on `vigil_source_up == 0` fires for failures only, never for a battery a desktop never had.
    /// - Returns: `vigil_source_up` 0 (unless `absent`) and `vigil_source_info` with the reason.
    public static func unavailable(id: String, name: String, reason: String, absent: Bool = false) -> [MetricFamily] {
        var builder = MetricFamilyBuilder()
        addStatus(to: &builder, id: id, name: name, argument: nil, reason: reason, absent: absent)
        return builder.families
    }

    private static func addStatus(
        to builder: inout MetricFamilyBuilder, id: String, name: String, argument: String?, reason: String?,
        absent: Bool = false
    ) {
        var labels = ["source": id]
        if let argument { labels["argument"] = argument }
        builder.gauge(
            "vigil_source_up", "Whether a source runs and its latest reading has a value (1), or not (0).",
            absent ? nil : reason == nil, labels)
        labels["name"] = name
        labels["reason"] = reason ?? ""
        builder.gauge(
            "vigil_source_info", "A source's name and why it is down (empty while up), in labels; always 1.", 1, labels)
    }

    private func addNetlinkStatistics(to builder: inout MetricFamilyBuilder) {
        let statistics: NetlinkStatistics
        var resyncs: Int?
        if let monitor = source.source as? NetworkMonitor {
            statistics = monitor.statistics
            resyncs = max(0, statistics.dumps - 1)
        } else if let monitor = source.source as? DeviceMonitor {
            statistics = monitor.statistics
        } else {
            return
        }
        let labels = ["source": source.id]
        builder.counter(
            "vigil_netlink_overflows_total", "Times the kernel dropped netlink messages for a source (ENOBUFS).",
            Double(statistics.overflows), labels)
        builder.counter(
            "vigil_netlink_resyncs_total", "Full dumps after the first, run to repair the mirror after a drop.",
            resyncs.map(Double.init), labels)
        builder.counter(
            "vigil_netlink_datagrams_total", "Netlink datagrams received by a source.", Double(statistics.datagrams),
            labels)
        builder.counter(
            "vigil_netlink_rejected_total", "Netlink datagrams dropped because the kernel did not send them.",
            Double(statistics.rejected), labels)
        builder.counter(
            "vigil_netlink_malformed_total", "Netlink messages skipped as truncated or malformed.",
            Double(statistics.malformed), labels)
    }

    /// Keeps a state reading, or counts an event.
    private func receive(_ reading: any CatalogReading) {
        let argument = argument
        state.withLock { state in
            switch reading {
            case let event as SensorEvent<FileSystemEvent>:
                // A directory that cannot be watched hides only itself: counted, not a source that is down.
                let kind =
                    switch event.kind {
                    case .event(let change): change.kind.rawValue
                    case .overflow: "overflow"
                    case .unavailable: "unavailable"
                    }
                Self.count(&state, "vigil_file_events_total", ["path": argument ?? "", "kind": kind])
            case let event as DeviceEvent:
                Self.receive(event, &state) { uevent, state in
                    // A label value must be UTF-8 text: a subsystem that is not (none the kernel has) is written
                    // lossily, with U+FFFD.
                    var labels = ["action": uevent.action.rawValue, "subsystem": uevent.subsystem.lossyString]
                    let known = state.counters[Counter(name: "vigil_uevents_total", labels: labels)] != nil
                    let series = state.counterOrder.lazy.filter { $0.name == "vigil_uevents_total" }.count
                    if !known && series >= Self.maximumUeventSeries - Uevent.Action.allCases.count {
                        labels["subsystem"] = "other"
                    }
                    Self.count(&state, "vigil_uevents_total", labels)
                }
            case let event as SensorEvent<ClockChange>:
                // A resume also moves the wall clock; it is a wake (the sleep source counts those), not a set.
                Self.receive(event, &state) { change, state in
                    if case .set = change.cause { Self.count(&state, "vigil_clock_changes_total", [:]) }
                }
            default:
                state.latest = reading
            }
        }
    }

    /// Counts an event source's event with `count` (and forgets why it could not read), or keeps why it cannot read
    /// now, which makes the source down until its next event.
    private static func receive<Payload>(
        _ event: SensorEvent<Payload>, _ state: inout State, count: (Payload, inout State) -> Void
    ) {
        switch event.kind {
        case .event(let payload):
            state.eventReason = nil
            count(payload, &state)
        case .overflow:
            break
        case .unavailable(let reason):
            state.eventReason = reason
        }
    }

    private static func count(_ state: inout State, _ name: String, _ labels: [String: String], _ amount: Double = 1) {
        let counter = Counter(name: name, labels: labels)
        if state.counters[counter] == nil { state.counterOrder.append(counter) }
        state.counters[counter, default: 0] += amount
    }
}

extension MetricsExporter {
    /// Adds a built-in source's metrics (see ``CatalogMetrics``); call it before starting the source.
    ///
    /// - Parameters:
    ///   - source: A source made from `SourceCatalog`.
    ///   - argument: The entry's argument, if it takes one (the path of `files`).
    /// - Returns: A handle that removes the source's metrics and ends their subscription.
    @discardableResult
    public func add(_ source: CatalogSource, argument: String? = nil) -> ExportedMetric {
        let metrics = CatalogMetrics(source: source, argument: argument)
        return add(collector: { metrics.families })
    }
}
