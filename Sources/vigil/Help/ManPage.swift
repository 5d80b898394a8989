import Foundation

/// The manual page, `vigil(1)` in roff, made from the ``CommandSpec`` tables.
enum ManPage {
    static func roff(version: String) -> String {
        var lines = [
            ".TH VIGIL 1 \"\" \"vigil \(escape(version))\" \"User Commands\"", ".SH NAME",
            "vigil \\- \(escape(CommandSpec.tool.summary))", ".SH SYNOPSIS",
        ]
        for spec in CommandSpec.all {
            for usage in spec.usage { lines += [".B vigil", escape(usage), ".br"] }
        }
        lines += [".SH DESCRIPTION", escape(CommandSpec.tool.description), ".SH COMMANDS"]
        for spec in CommandSpec.all {
            lines += [".SS \(spec.name)", escape(spec.summary.capitalizedFirst) + "."]
            for paragraph in spec.description.split(separator: "\n", omittingEmptySubsequences: true) {
                lines += [".PP", escape(String(paragraph))]
            }
            lines += options(spec.options)
        }
        lines +=
            [".SH OPTIONS", "Every command takes these:"]
            + options(CommandSpec.globalOptions + CommandSpec.tool.options)
        lines += [".SH EXIT STATUS"]
        for (status, meaning) in CommandSpec.exitStatuses { lines += [".TP", ".B \(status)", escape(meaning)] }
        lines += [".SH EXAMPLES"]
        for spec in [CommandSpec.tool] + CommandSpec.all {
            for example in spec.examples {
                lines += [".TP", ".B vigil \(escape(example.command))", escape(example.explanation)]
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func options(_ options: [CommandSpec.Option]) -> [String] {
        options.flatMap { option -> [String] in
            let names = (option.short.map { "\\fB\(escape($0))\\fR, " } ?? "") + "\\fB\(escape(option.long))\\fR"
            return [".TP", names + (option.value.map { " \\fI\(escape($0))\\fR" } ?? ""), escape(option.help)]
        }
    }

    /// `text` safe in a roff line: backslashes and hyphens escaped, and no line starting with a dot or quote.
    static func escape(_ text: String) -> String {
        let escaped = text.replacingOccurrences(of: "\\", with: "\\e").replacingOccurrences(of: "-", with: "\\-")
        return escaped.hasPrefix(".") || escaped.hasPrefix("'") ? "\\&" + escaped : escaped
    }
}
