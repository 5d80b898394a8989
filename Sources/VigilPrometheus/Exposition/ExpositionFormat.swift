/// The Prometheus text exposition format, version 0.0.4.
///
/// Each family is written as a `# HELP` line, a `# TYPE` line and one line per sample:
/// `name{label="value",…} value`. Label values escape backslash, double quote and newline (`\\`, `\"`, `\n`);
/// help texts escape backslash and newline. Values are written in the shortest form that reads back exactly
/// (`42`, `0.25`, `1e-05`), with `NaN`, `+Inf` and `-Inf` spelled as Prometheus does.
public enum ExpositionFormat {
    /// The `Content-Type` of a scrape response in this format.
    public static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    /// Writes `families` as one exposition.
    ///
    /// Families that share a name are merged (the first one's help and type win; samples of another type are left
    /// out), a label set repeated within a family is written once (the first), and a family without samples is left
    /// out, so the text is valid whatever the input.
    ///
    /// - Parameter families: The families, in the order they are written.
    /// - Returns: The exposition, ending with a newline when not empty.
    public static func render(_ families: [MetricFamily]) -> String {
        var order: [String] = []
        var merged: [String: MetricFamily] = [:]
        for family in families {
            if var existing = merged[family.name] {
                guard existing.type == family.type else { continue }
                existing.samples += family.samples
                merged[family.name] = existing
            } else {
                order.append(family.name)
                merged[family.name] = family
            }
        }
        var text = ""
        text.reserveCapacity(families.reduce(0) { $0 + $1.samples.count } * 64)
        for name in order {
            guard let family = merged[name] else { continue }
            var seen = Set<[MetricSample.Label]>()
            let samples = family.samples.filter { seen.insert($0.labels).inserted }
            guard !samples.isEmpty else { continue }
            text += "# HELP \(name) \(escapedHelp(family.help))\n"
            text += "# TYPE \(name) \(family.type)\n"
            for sample in samples {
                text += name
                if !sample.labels.isEmpty {
                    text += "{"
                    for (index, label) in sample.labels.enumerated() {
                        if index > 0 { text += "," }
                        text += label.name
                        text += "=\""
                        text += escapedLabelValue(label.value)
                        text += "\""
                    }
                    text += "}"
                }
                text += " "
                text += formatted(sample.value)
                text += "\n"
            }
        }
        return text
    }

    /// A label value with `\`, `"` and newline escaped.
    public static func escapedLabelValue(_ value: String) -> String {
        guard value.utf8.contains(where: { $0 == 0x5C || $0 == 0x22 || $0 == 0x0A }) else { return value }
        var escaped = ""
        for character in value.unicodeScalars {
            switch character {
            case "\\": escaped += "\\\\"
            case "\"": escaped += "\\\""
            case "\n": escaped += "\\n"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }

    /// A help text with `\` and newline escaped.
    public static func escapedHelp(_ help: String) -> String {
        guard help.utf8.contains(where: { $0 == 0x5C || $0 == 0x0A }) else { return help }
        var escaped = ""
        for character in help.unicodeScalars {
            switch character {
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }

    /// A value as Prometheus reads it: `NaN`, `+Inf`, `-Inf`, an integer when the value is one (below 2^53), or
    /// Swift's shortest round-trip decimal.
    public static func formatted(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
        if value == value.rounded(), abs(value) < 9_007_199_254_740_992 {
            return value == 0 ? "0" : String(Int64(value))
        }
        return String(value)
    }
}
