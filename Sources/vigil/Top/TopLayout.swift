/// Lays the dashboard out on a terminal of a given size: a header, one row per source (or per plotted number), and
/// the network, files and devices panes at the bottom.
///
/// Each line is at most `width` columns, measured by display width, with its styling as SGR sequences; the layout
/// always returns exactly `height` lines, so a frame replaces the previous one line by line.
struct TopLayout {
    let width: Int
    let height: Int
    /// When the frame is drawn: rows whose value changed within ``highlightTime`` of it are highlighted.
    let now: ContinuousClock.Instant
    /// The clock time the header shows.
    let clock: String
    /// The watched folder as the files pane's title shows it, or nil for no files pane.
    let filesTitle: String?

    /// How long a changed value stays highlighted.
    static let highlightTime: Duration = .milliseconds(1500)

    private static let labelColumns = 16
    private static let valueColumns = 22

    private enum Style: String {
        case header = "\u{1B}[7m"
        case highlight = "\u{1B}[1;7m"
        case title = "\u{1B}[1m"
        case dim = "\u{1B}[2m"
    }

    /// The frame's lines for `state`.
    func lines(_ state: TopState) -> [String] {
        guard width > 0, height > 0 else { return [] }
        let eventLines = max(1, min(8, (height - 18) / 2))
        var panes = pane("network", state.network, count: 2)
        if let filesTitle { panes += pane("files " + filesTitle, state.files, count: eventLines) }
        panes += pane("devices", state.devices, count: eventLines)
        let rowLines = max(2, height - 1 - panes.count)
        let header = " vigil top   \(clock)   \(width)×\(height)   q quit"
        let lines =
            [styled(TerminalText.fitted(header, to: width, pad: true), .header)] + rows(state, count: rowLines)
            + panes
        return Array((lines + Array(repeating: "", count: max(0, height - lines.count))).prefix(height))
    }

    /// Exactly `count` lines of source rows, the plotted ones first (each kind in catalog order), so that a source
    /// added to the catalog never pushes a sparkline off the screen; the last line says how many did not fit.
    private func rows(_ state: TopState, count: Int) -> [String] {
        var plotted: [String] = []
        var texts: [String] = []
        for source in state.sources {
            if let points = source.points, !points.isEmpty {
                for point in points {
                    let history = state.histories[TopState.historyKey(source.id, point.key)] ?? []
                    plotted.append(
                        row(point.label, point.text, changed: source.changed[point.key], history, point.scale))
                }
            } else {
                texts.append(row(source.id, source.text, changed: source.changed[""], nil, nil))
            }
        }
        var lines = plotted + texts
        if lines.count > count {
            let hidden = lines.count - (count - 1)
            lines = Array(lines.prefix(count - 1))
            lines.append(styled(TerminalText.fitted(" … \(hidden) more rows: enlarge the terminal", to: width), .dim))
        }
        return lines + Array(repeating: "", count: count - lines.count)
    }

    /// A label, a value (highlighted for a moment after it changed) and, for a plotted row, its sparkline.
    private func row(
        _ label: String, _ value: String, changed: ContinuousClock.Instant?, _ history: [Double]?,
        _ scale: ClosedRange<Double>?
    ) -> String {
        let labelColumns = min(Self.labelColumns, width)
        let valueColumns = max(0, history == nil ? width - labelColumns : min(Self.valueColumns, width - labelColumns))
        var line = " " + TerminalText.fitted(ControlEscape.escaped(label), to: labelColumns - 2, pad: true) + " "
        let fittedValue = TerminalText.fitted(value, to: valueColumns, pad: history != nil)
        let isFresh = changed.map { now - $0 < Self.highlightTime } ?? false
        line += isFresh ? styled(fittedValue, .highlight) : fittedValue
        if let history {
            let sparkColumns = width - labelColumns - valueColumns - 1
            if sparkColumns > 0 { line += " " + Sparkline.render(history, width: sparkColumns, scale: scale) }
        }
        return line
    }

    /// A titled pane with the last `count` of `lines`.
    private func pane(_ title: String, _ lines: [String], count: Int) -> [String] {
        let heading = TerminalText.fitted("── " + ControlEscape.escaped(title) + " ", to: width)
        let rule = String(repeating: "─", count: max(0, width - TerminalText.width(of: heading)))
        var body = lines.suffix(count).map { " " + TerminalText.fitted($0, to: width - 1) }
        if body.isEmpty { body = [styled(TerminalText.fitted(" no events yet", to: width), .dim)] }
        return [styled(heading + rule, .title)] + body + Array(repeating: "", count: max(0, count - body.count))
    }

    private func styled(_ text: String, _ style: Style) -> String {
        text.isEmpty ? text : style.rawValue + text + "\u{1B}[0m"
    }
}
