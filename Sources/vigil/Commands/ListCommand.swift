import VigilSensors

/// `vigil list`: every source with its availability.
enum ListCommand {
    static func run(_ arguments: Arguments) throws(ToolError) {
        guard arguments.positional.isEmpty else {
            throw .usage("list takes no arguments, got \(arguments.positional.joined(separator: " "))")
        }
        let entries = SourceCatalog.builtIn
        let idWidth = entries.map { $0.id.count + ($0.argumentName.map { $0.count + 1 } ?? 0) }.max() ?? 0
        let nameWidth = entries.map(\.name.count).max() ?? 0
        for entry in entries {
            let id = entry.id + (entry.argumentName.map { " " + $0 } ?? "")
            let padded = id.padding(to: idWidth) + "  " + entry.name.padding(to: nameWidth)
            print(padded + "  " + entry.availability(arguments.options).description)
        }
    }
}

extension String {
    func padding(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
