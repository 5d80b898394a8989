extension CommandSpec {
    /// `vigil help`.
    static let help = CommandSpec(
        name: "help", summary: "show help for a command, or the manual page", usage: ["help [COMMAND]", "help --man"],
        description: "Shows the help of COMMAND (the same as vigil COMMAND --help), or prints the man page in roff.",
        options: [Option(long: "--man", help: "print the manual page (roff): vigil help --man | man -l -")],
        examples: [("help watch", "the options of watch"), ("help --man > vigil.1", "write the man page")],
        arguments: ["list", "watch", "get", "help", "completions"])

    /// `vigil completions`.
    static let completions = CommandSpec(
        name: "completions", summary: "print a shell completion script", usage: ["completions bash|zsh"],
        description: "Prints a completion script for bash or zsh, made from the same tables as this help.",
        options: [],
        examples: [
            ("completions bash > /etc/bash_completion.d/vigil", "install bash completion"),
            ("completions zsh > ~/.zfunc/_vigil", "install zsh completion (with ~/.zfunc in fpath)"),
        ],
        arguments: ["bash", "zsh"])
}
