import Glibc

/// Runs the tool: parses the command line, runs a command, and maps failures to one line and an exit status.
func runTool() -> Int32 {
    do throws(ToolError) {
        // `publish` parses its own options (--broker, …) before the shared ones, so it is dispatched first.
        if CommandLine.arguments.dropFirst().first == "publish" {
            try PublishCommand.run(Array(CommandLine.arguments.dropFirst(2)))
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
        case "top": return try TopCommand.run(arguments)
        default: throw ToolError.usage("unknown command \"\(command ?? "")\"; see vigil --help")
        }
        return 0
    } catch {
        printError("vigil: error: \(error.message)")
        return error.status
    }
}

exit(runTool())
