import VigilSensors

/// `vigil list`: every source with its availability.
enum ListCommand {
    static func run(_ arguments: Arguments) throws(ToolError) {
        guard arguments.positional.isEmpty else {
            throw .usage("list takes no arguments, got \(arguments.positional.joined(separator: " "))")
        }
        let options = try arguments.sourceOptions()
        let entries = SourceCatalog.builtIn
        var lines = ""
        if arguments.json {
            for entry in entries {
                let availability = entry.availability(options)
                var fields: [(key: String, value: JSONValue)] = [
                    ("id", .string(entry.id)), ("name", .string(entry.name)),
                ]
                if let argument = entry.argumentName { fields.append(("argument", .string(argument))) }
                fields.append(("available", .bool(availability.isAvailable)))
                if case .unavailable = availability { fields.append(("reason", .string(availability.description))) }
                lines += JSONValue.object(fields).text + "\n"
            }
            return try writeStandardOutput(lines)
        }
        let idWidth = entries.map { $0.id.count + ($0.argumentName.map { $0.count + 1 } ?? 0) }.max() ?? 0
        let nameWidth = entries.map(\.name.count).max() ?? 0
        for entry in entries {
            let id = entry.id + (entry.argumentName.map { " " + $0 } ?? "")
            let padded = id.padding(to: idWidth) + "  " + entry.name.padding(to: nameWidth)
            lines += padded + "  " + ControlEscape.escaped(entry.availability(options).description) + "\n"
        }
        try writeStandardOutput(lines)
    }
}
