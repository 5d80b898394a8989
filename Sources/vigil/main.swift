import Glibc

/// Runs the tool: parses the command line, runs a command, and maps failures to one line and an exit status.
func runTool() -> Int32 {
    // A closed pipe must be a write error (EPIPE) the writer reports, not a silent death by SIGPIPE.
    signal(SIGPIPE, SIG_IGN)
    do throws(ToolError) {
        let arguments = try Arguments(Array(CommandLine.arguments.dropFirst()))
        if arguments.command == nil && arguments.flag("--version") {
            try writeStandardOutput("vigil \(Version.string)\n")
            return 0
        }
        if arguments.help || arguments.command == nil {
            try writeStandardOutput(HelpText.text(for: arguments.command.flatMap(CommandSpec.named)) + "\n")
            return 0
        }
        switch arguments.command {
        case "list": try ListCommand.run(arguments)
        case "help": try HelpCommand.run(arguments)
        case "completions": try HelpCommand.completions(arguments)
        case "get": return try GetCommand.run(arguments)
        case "watch": return try WatchCommand.run(arguments)
        case "top": return try TopCommand.run(arguments)
        case "serve": return try ServeCommand.run(arguments)
        case "publish": return try PublishCommand.run(arguments)
        default: throw ToolError.usage("unknown command \"\(arguments.command ?? "")\"; see vigil --help")
        }
        return 0
    } catch {
        printError("vigil: error: \(error.message)")
        return error.status
    }
}

exit(runTool())
