extension CommandSpec {
    /// The tool itself (`vigil --help`, `vigil --version`).
    static let tool = CommandSpec(
        name: "vigil", summary: "watch Linux kernel sensors and events live",
        usage: ["COMMAND [ARGUMENT…] [OPTIONS]", "--version"],
        description: """
            Reads sensors, files, devices and the network straight from the kernel (sysfs, procfs, IIO, inotify, \
            netlink) and prints every change, as readable lines or as one JSON object a line.
            """,
        options: [Option(long: "--version", help: "print the version and exit")],
        examples: [
            ("watch", "watch every available source"), ("get cpu memory", "print the current CPU and memory use"),
            ("watch files /tmp --json | jq .", "follow changes under /tmp as JSON"),
        ])
}
