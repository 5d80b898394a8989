import Glibc

/// One reported figure: a scenario, its parameter, which implementation, and the per-operation samples.
struct Figure: Encodable {
    let scenario: String
    let parameter: String
    let variant: String
    let unit: String
    let median: Double
    let min: Double
    let max: Double
    /// This figure divided by the baseline's median from the same run (lower is better for time units).
    let ratioToBaseline: Double?
    /// This figure divided by the limit's median from the same run, where the scenario has a `limit` row.
    let ratioToLimit: Double?
    let note: String?
}

/// Collects figures, prints them as a table, and writes them as JSON.
final class Report {
    private(set) var figures: [Figure] = []
    private var lastScenario = ""

    func add(
        _ scenario: String, _ parameter: String, _ variant: String, unit: String, _ samples: Samples,
        baseline: Samples? = nil, limit: Samples? = nil, note: String? = nil
    ) {
        let ratio = baseline.map { samples.median / $0.median }
        let ratioToLimit = limit.map { samples.median / $0.median }
        let figure = Figure(
            scenario: scenario, parameter: parameter, variant: variant, unit: unit, median: samples.median,
            min: samples.min, max: samples.max, ratioToBaseline: ratio, ratioToLimit: ratioToLimit, note: note)
        figures.append(figure)
        printRow(figure)
    }

    /// Adds a single measured number (no rounds), such as a count.
    func addValue(
        _ scenario: String, _ parameter: String, _ variant: String, unit: String, _ value: Double, note: String? = nil
    ) {
        add(scenario, parameter, variant, unit: unit, Samples(values: [value]), note: note)
    }

    /// Adds the limit row of a scenario: the fastest form of the same work with no reference counting.
    ///
    /// The note names every form's median; a limit slower than the closure baseline is flagged, since it would mean
    /// a form still counts references (or the loop measures something else).
    func addLimit(
        _ scenario: String, _ parameter: String, unit: String, _ limit: Limit, baseline: Samples?, note: String? = nil
    ) {
        var text = limit.note
        if let baseline, limit.samples.median > baseline.median {
            text += "; SLOWER THAN THE BASELINE"
            print("WARNING: \(scenario) \(parameter): the limit is slower than the closure baseline")
        }
        if let note { text = note + "; " + text }
        add(
            scenario, parameter, "limit", unit: unit, limit.samples, baseline: baseline, limit: limit.samples,
            note: text)
    }

    private func printRow(_ figure: Figure) {
        if figure.scenario != lastScenario {
            print("\n\(figure.scenario)")
            print(
                pad("parameter", 14) + pad("variant", 26) + pad("median", 12) + pad("min–max", 24) + pad("unit", 16)
                    + pad("× baseline", 12) + "× limit")
            lastScenario = figure.scenario
        }
        let range = format(figure.min) + "–" + format(figure.max)
        let ratio = figure.ratioToBaseline.map { format($0) + "×" } ?? ""
        let ratioToLimit = figure.ratioToLimit.map { format($0) + "×" } ?? ""
        var line =
            pad(figure.parameter, 14) + pad(figure.variant, 26) + pad(format(figure.median), 12) + pad(range, 24)
            + pad(figure.unit, 16) + pad(ratio, 12) + ratioToLimit
        while line.last == " " { line.removeLast() }
        if let note = figure.note { line += "  (\(note))" }
        print(line)
    }

    /// The report as JSON, written by hand so the benchmark needs no Foundation.
    func json(machine: String, command: String) -> String {
        let rows = figures.map { figure in
            var fields = [
                "\"scenario\": \(quote(figure.scenario))", "\"parameter\": \(quote(figure.parameter))",
                "\"variant\": \(quote(figure.variant))", "\"unit\": \(quote(figure.unit))",
                "\"median\": \(figure.median)", "\"min\": \(figure.min)", "\"max\": \(figure.max)",
            ]
            if let ratio = figure.ratioToBaseline { fields.append("\"ratioToBaseline\": \(ratio)") }
            if let ratio = figure.ratioToLimit { fields.append("\"ratioToLimit\": \(ratio)") }
            if let note = figure.note { fields.append("\"note\": \(quote(note))") }
            return "    {" + fields.joined(separator: ", ") + "}"
        }
        return """
            {
              "machine": \(quote(machine)),
              "command": \(quote(command)),
              "figures": [
            \(rows.joined(separator: ",\n"))
              ]
            }

            """
    }

    private func quote(_ text: String) -> String {
        var escaped = "\""
        for character in text.unicodeScalars {
            switch character {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped + "\""
    }
}

/// Formats a number with three significant digits or so.
func format(_ value: Double) -> String {
    if value >= 1000 { return String(Int(value.rounded())) }
    if value >= 100 { return String(Int(value.rounded())) }
    let scaled = (value * 100).rounded() / 100
    return String(scaled)
}

func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
}

/// Writes `text` to `path`, replacing it.
func writeFile(_ path: String, _ text: String) -> Bool {
    guard let file = fopen(path, "w") else { return false }
    defer { fclose(file) }
    return fputs(text, file) >= 0
}
