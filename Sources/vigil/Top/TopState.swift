import VigilSensors

/// What the dashboard shows: each source's latest reading, the plotted rows' history, and the panes' recent events.
///
/// A value type changed by the readings and the sampling tick, and read by ``TopLayout``; no clock inside, so it
/// is tested without waiting.
struct TopState {
    /// One source shown as rows: its latest reading, as points to plot or as one line of text.
    struct SourceRows {
        let id: String
        /// The plotted rows of the latest reading; nil or empty when it has none (pending, unavailable, text only).
        var points: [PlotPoint]?
        /// The latest reading as one line, shown when there is nothing to plot.
        var text = "no reading yet"
        /// When each row's shown value last changed, by row key ("" for the text row).
        var changed: [String: ContinuousClock.Instant] = [:]
    }

    /// How many samples each history keeps: wider than any sparkline drawn.
    static let historyLength = 240
    /// How many events each pane keeps.
    static let eventLength = 50

    /// The row sources in the order they are shown.
    private(set) var sources: [SourceRows]
    /// Recent values of each plotted row, oldest first, by ``historyKey(_:_:)``.
    private(set) var histories: [String: [Double]] = [:]
    /// The network's status line and its details (interfaces, routes).
    private(set) var network: [String] = ["…"]
    /// The rates of the network's traffic counters, from one reading to the next, for the throughput row.
    private var trafficMeter = TrafficRateMeter<ContinuousClock.Instant>()
    /// The latest file and device events as lines, oldest first.
    private(set) var files: [String] = []
    private(set) var devices: [String] = []

    /// The source ids that have a pane of their own rather than rows.
    static let paneSources: Set<String> = ["network", "files", "devices"]

    /// A state for these row sources (in order) with nothing read yet.
    init(rowSources: [String]) {
        sources = rowSources.map { SourceRows(id: $0) }
    }

    static func historyKey(_ source: String, _ key: String) -> String { source + "/" + key }

    /// Takes a reading of `source` delivered at `now`.
    mutating func record(_ reading: any CatalogReading, from source: String, at now: ContinuousClock.Instant) {
        switch source {
        case "network":
            network = Self.networkLines(reading)
            recordThroughput(reading, at: now)
        case "files": Self.append(Self.eventLine(reading), to: &files)
        case "devices": Self.append(Self.eventLine(reading), to: &devices)
        default:
            guard let index = sources.firstIndex(where: { $0.id == source }) else { return }
            var rows = sources[index]
            let points = (reading as? any PlottableReading)?.plotPoints
            for point in points ?? [] where rows.points?.first(where: { $0.key == point.key })?.text != point.text {
                rows.changed[point.key] = now
            }
            let text = ControlEscape.escaped(reading.description)
            if text != rows.text { rows.changed[""] = now }
            rows.points = points
            rows.text = text
            sources[index] = rows
        }
    }

    /// Updates the throughput row (added after the other rows with the first network reading): the bytes per second
    /// every interface but loopback received and sent, from two readings of their counters, plotted as their sum.
    private mutating func recordThroughput(_ reading: any CatalogReading, at now: ContinuousClock.Instant) {
        var rows = sources.last { $0.id == Self.throughputRow } ?? SourceRows(id: Self.throughputRow)
        var points: [PlotPoint]?
        var text = ControlEscape.escaped(reading.description)
        if let path = (reading as? SensorReading<NetworkPath>)?.value {
            let measured = trafficMeter.measure(path).interfaces.filter { $0.kind != .loopback }
            let rates = measured.compactMap(\.rates)
            if rates.isEmpty {
                text = measured.contains { $0.traffic != nil } ? "measuring…" : "no counters"
            } else {
                let received = rates.reduce(0) { $0 + $1.receiveBytesPerSecond }
                let sent = rates.reduce(0) { $0 + $1.transmitBytesPerSecond }
                text = Self.throughputText(received: received, sent: sent)
                points = [PlotPoint(key: "total", label: "throughput", value: received + sent, text: text, scale: nil)]
            }
        }
        if text != rows.text { rows.changed[points == nil ? "" : "total"] = now }
        rows.points = points
        rows.text = text
        if let index = sources.lastIndex(where: { $0.id == Self.throughputRow }) {
            sources[index] = rows
        } else {
            sources.append(rows)
        }
    }

    /// The throughput row's source id.
    static let throughputRow = "throughput"

    /// `↓1.2 MB/s ↑45.0 kB/s`, without the spaces before the units when that is too wide for the value column.
    static func throughputText(received: Double, sent: Double) -> String {
        let wide = "↓\(TrafficRates.bytes(received))/s ↑\(TrafficRates.bytes(sent))/s"
        guard wide.count > 22 else { return wide }
        let compact = { (value: Double) in TrafficRates.bytes(value).split(separator: " ").joined() }
        return "↓\(compact(received))/s ↑\(compact(sent))/s"
    }

    /// Appends every plotted row's latest value to its history: called once a second, so a sparkline is a timeline.
    mutating func sample() {
        for rows in sources {
            for point in rows.points ?? [] {
                let key = Self.historyKey(rows.id, point.key)
                var history = histories[key] ?? []
                history.append(point.value)
                if history.count > Self.historyLength { history.removeFirst(history.count - Self.historyLength) }
                histories[key] = history
            }
        }
    }

    private static func append(_ line: String, to lines: inout [String]) {
        lines.append(line)
        if lines.count > eventLength { lines.removeFirst(lines.count - eventLength) }
    }

    /// An event as "HH:MM:SS what", with the time it carries when it carries one.
    private static func eventLine(_ reading: any CatalogReading) -> String {
        let time: ReadingTime? =
            switch reading {
            case let event as SensorEvent<FileSystemEvent>: event.time
            case let event as DeviceEvent: event.time
            case let event as SensorEvent<ClockChange>: event.time
            default: nil
            }
        let text = ControlEscape.escaped(reading.description)
        return time.map { TopClock.timeOfDay($0.wall) + " " + text } ?? text
    }

    /// The network's status (with the interfaces that carry it) on the first line, then each interface and route.
    private static func networkLines(_ reading: any CatalogReading) -> [String] {
        guard let path = (reading as? SensorReading<NetworkPath>)?.value else {
            return [ControlEscape.escaped(reading.description)]
        }
        let connected = path.connectedInterfaces.map(\.name)
        let status = path.status.description + (connected.isEmpty ? "" : " via " + connected.joined(separator: ", "))
        let interfaces = path.interfaces.map { interface in
            ([interface.name, interface.state.description]
                + interface.addresses.map { $0.address.description + "/" + String($0.prefixLength) })
                .joined(separator: " ")
        }
        let routes = path.defaultRoutes.flatMap(\.nextHops).map { hop in
            "default" + (hop.gateway.map { " via \($0)" } ?? "")
                + (hop.interfaceIndex.map { " dev " + (path.interface(index: $0)?.name ?? String($0)) } ?? "")
        }
        return [status, (interfaces + routes).joined(separator: "; ")].map(ControlEscape.escaped)
    }
}
