/// One command of the tool, declared once: the parser, `--help`, the completion scripts and the man page are all made
/// from these values, so they cannot drift apart.
///
/// To add a command (`top`, `serve`, `publish`): write `CommandSpec+Name.swift` with a
/// `static let name = CommandSpec(…)` that lists every option the command takes, add it to ``all``, and dispatch to
/// its run function in `main.swift`. The parser, help, completions and the man page pick it up with no other change;
/// add its options to `VigilHelpTests.commands`, which checks that all of them show every option.
struct CommandSpec: Sendable {
    /// One option: its long name (`--count`), its short name if any (`-c`), the value it takes (`N`), and one line
    /// of help.
    struct Option: Sendable {
        var long: String
        var short: String?
        /// The value's placeholder (`N`, `DURATION`), or nil for a flag.
        var value: String?
        var help: String
        /// Words the value can be, for completion (`bash`, `zsh`).
        var choices: [String] = []
    }

    /// The command word (`watch`).
    var name: String
    /// One line: what the command does.
    var summary: String
    /// Usage lines after `vigil ` (`watch [SOURCE…] [OPTIONS]`).
    var usage: [String]
    /// Paragraphs explaining the command.
    var description: String
    /// The command's own options, without ``globalOptions``.
    var options: [Option]
    /// Command lines (after `vigil `) with what each does.
    var examples: [(command: String, explanation: String)]
    /// Words the command's positional arguments can be, for completion (source ids).
    var arguments: [String] = []

    /// The options every command takes.
    static let globalOptions: [Option] = [
        Option(long: "--sys-root", value: "PATH", help: "read sysfs from PATH instead of /sys"),
        Option(long: "--proc-root", value: "PATH", help: "read procfs from PATH instead of /proc"),
        Option(long: "--etc-root", value: "PATH", help: "read os-release and machine-id from PATH instead of /etc"),
        Option(long: "--dev-root", value: "PATH", help: "open device nodes (input/eventN) under PATH instead of /dev"),
        Option(long: "--netns", value: "NAME", help: "watch the network inside the named network namespace"),
        Option(
            long: "--declination", value: "DEGREES",
            help: "the local magnetic declination (east positive, -180 to 180): the compass adds a true heading"),
        Option(
            long: "--mark", value: "MARK",
            help: "give reach's route lookups (as ip route get ADDR mark MARK) and TCP probes this firewall mark"),
        Option(long: "--help", short: "-h", help: "show this help"),
    ]

    /// Every command, in the order help lists them.
    static let all: [CommandSpec] = [list, watch, get, top, serve, publish, help, completions]

    /// The command named `name`.
    static func named(_ name: String) -> CommandSpec? { all.first { $0.name == name } }

    /// The command's options followed by the global ones.
    var allOptions: [Option] { options + Self.globalOptions }

    /// The exit statuses every command shares, as help and the man page list them.
    static let exitStatuses: [(status: Int32, meaning: String)] = [
        (0, "done: the command finished (or --once, --count or --timeout ended it)"),
        (1, "runtime error: a source is unavailable or failed, or standard output could not be written"),
        (2, "usage error: an unknown command, source or option, or a bad value"),
        (130, "stopped by SIGINT (Ctrl-C)"),
        (143, "stopped by SIGTERM"),
    ]
}
