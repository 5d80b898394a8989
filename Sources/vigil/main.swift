import Glibc

/// Runs the tool: parses the command line, runs a command, and maps failures to one line and an exit status.
func runTool() -> Int32 {
    do throws(ToolError) {
        // `serve` parses its own options (Serve/ServeOptions.swift), so it is dispatched before the shared parser.
        if ServeOptions.isServe(Array(CommandLine.arguments.dropFirst())) {
            try ServeCommand.run(Array(CommandLine.arguments.dropFirst()))
            return 0
        }
        let arguments = try Arguments(Array(CommandLine.arguments.dropFirst()))
        var command = arguments.command
        if command == "help" {
            command = arguments.positional.first
        }
        if arguments.help || arguments.command == "help" || command == nil {
            guard let text = Help.text(for: command) else { throw ToolError.usage("unknown command \(command ?? "")") }
            print(text)
            return 0
        }
        switch command {
        case "list": try ListCommand.run(arguments)
        case "watch": try WatchCommand.run(arguments)
        default: throw ToolError.usage("unknown command \"\(command ?? "")\"; see vigil --help")
        }
        return 0
    } catch {
        printError("vigil: error: \(error.message)")
        return error.status
    }
}

exit(runTool())
