import VigilSensors

/// The `--help` text of a command, made from its ``CommandSpec``.
enum HelpText {
    /// The help of the tool (`spec` nil) or of one command.
    static func text(for spec: CommandSpec?) -> String {
        guard let spec else { return tool }
        var lines = ["Usage:"] + spec.usage.map { "  vigil " + $0 } + ["", spec.summary.capitalizedFirst + ".", ""]
        lines += spec.description.split(separator: "\n", omittingEmptySubsequences: false).map { wrapped(String($0)) }
        lines += ["", "Options:"] + optionLines(spec.options) + ["", "Global options:"]
        lines += optionLines(CommandSpec.globalOptions)
        if spec.name == "watch" || spec.name == "get" { lines += ["", sources] }
        lines += ["", "Examples:"] + spec.examples.map { "  vigil \($0.command)\n      \($0.explanation)" }
        lines += ["", exitStatus]
        return lines.joined(separator: "\n")
    }

    static var tool: String {
        let tool = CommandSpec.tool
        var lines = ["vigil: \(tool.summary).", "", "Usage:"] + tool.usage.map { "  vigil " + $0 } + ["", "Commands:"]
        let width = CommandSpec.all.map(\.name.count).max() ?? 0
        lines += CommandSpec.all.map { "  " + $0.name.padding(to: width) + "  " + $0.summary }
        lines += ["", "Options:"] + optionLines(tool.options + CommandSpec.globalOptions)
        lines += ["", "Examples:"] + tool.examples.map { "  vigil \($0.command)\n      \($0.explanation)" }
        lines += ["", exitStatus, "", "See vigil help COMMAND for a command's options."]
        return lines.joined(separator: "\n")
    }

    /// `paragraph` broken into lines of at most 100 columns at spaces.
    static func wrapped(_ paragraph: String) -> String {
        var lines: [String] = []
        var line = ""
        for word in paragraph.split(separator: " ") {
            if !line.isEmpty && line.count + 1 + word.count > 100 {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        return (lines + [line]).joined(separator: "\n")
    }

    /// One line an option: `  -t, --timestamps     help`.
    static func optionLines(_ options: [CommandSpec.Option]) -> [String] {
        let names = options.map(optionName)
        let width = names.map(\.count).max() ?? 0
        return zip(names, options).map { "  " + $0.padding(to: width) + "  " + $1.help }
    }

    static func optionName(_ option: CommandSpec.Option) -> String {
        (option.short.map { $0 + ", " } ?? "    ") + option.long + (option.value.map { " " + $0 } ?? "")
    }

    static var exitStatus: String {
        let lines = CommandSpec.exitStatuses.map { "  " + String($0.status).padding(to: 3) + "  " + $0.meaning }
        return (["Exit status:"] + lines).joined(separator: "\n")
    }

    /// The sources `watch` and `get` take, from the public catalog, wrapped to the help's width.
    static var sources: String {
        let ids = SourceCatalog.builtIn.map { entry in entry.argumentName.map { entry.id + " " + $0 } ?? entry.id }
        var lines = ["Sources (vigil list says which this machine has):"]
        var line = " "
        for (index, id) in ids.enumerated() {
            let word = " " + id + (index == ids.count - 1 ? "" : ",")
            if line.count + word.count > 100 {
                lines.append(line)
                line = " "
            }
            line += word
        }
        return (lines + [line]).joined(separator: "\n")
    }
}

extension String {
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }

    func padding(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
