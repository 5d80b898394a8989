/// `vigil help [COMMAND]`, `vigil help --man` and `vigil completions SHELL`.
enum HelpCommand {
    static func run(_ arguments: Arguments) throws(ToolError) {
        if arguments.flag("--man") {
            try writeStandardOutput(ManPage.roff(version: Version.string))
            return
        }
        guard arguments.positional.count <= 1 else { throw .usage("help takes one command at most") }
        guard let name = arguments.positional.first else {
            try writeStandardOutput(HelpText.text(for: nil) + "\n")
            return
        }
        guard let spec = CommandSpec.named(name) else { throw .usage("unknown command \"\(name)\"; see vigil --help") }
        try writeStandardOutput(HelpText.text(for: spec) + "\n")
    }

    static func completions(_ arguments: Arguments) throws(ToolError) {
        guard arguments.positional.count == 1, let script = Completions.script(for: arguments.positional[0]) else {
            throw .usage("completions needs one shell: bash or zsh")
        }
        try writeStandardOutput(script)
    }
}
