import VigilSensors

extension CommandSpec {
    /// `vigil get`.
    static let get = CommandSpec(
        name: "get", summary: "print the current reading of each source and exit",
        usage: ["get SOURCE… [--json] [--timeout DURATION]"],
        description: """
            Starts each source, waits for its first reading (10 s at most, or --timeout), prints it and exits, like \
            sensors or upower -d. A source this machine lacks, or whose reading is unavailable, is an error (status \
            1). Event sources (files, devices, clock) have no current reading: watch them instead.
            """,
        options: [
            Option(long: "--json", help: "print one JSON envelope a line"),
            Option(long: "--timestamps", short: "-t", help: "prefix each line with the time of the reading"),
            Option(long: "--timeout", value: "DURATION", help: "wait at most DURATION for the readings (10s)"),
        ],
        examples: [("get cpu memory", "current CPU and memory use"), ("get battery --json", "the battery as JSON")],
        arguments: SourceCatalog.builtIn.map(\.id))
}
