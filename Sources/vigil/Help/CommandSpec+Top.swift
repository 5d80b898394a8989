import VigilSensors

extension CommandSpec {
    /// `vigil top`.
    static let top = CommandSpec(
        name: "top", summary: "a live full-screen dashboard of every available source",
        usage: ["top [PATH] [--reach TARGET]… [--sys-root PATH] [--proc-root PATH]"],
        description: """
            A live dashboard on the terminal's alternate screen: one row per available source with its latest \
            reading, and for numbers (CPU total and per core, memory, memory pressure, battery, temperatures, fans, \
            light, the accelerometer's magnitude) a sparkline of recent history, one block a second. A value that \
            changed is highlighted for a moment. Below the rows: the network's status, and the latest file events in \
            PATH (the current directory when none is given; not recursive) and device events (kernel uevents). \
            With --reach, one more row says whether and how each target can be reached (see vigil help watch).

            Keys: q quits (status 0); Ctrl-C quits with status 130. SIGTERM ends it with status 143. The terminal \
            is restored on the way out, also after a crash signal. Names are escaped like ls -b. The screen is \
            redrawn at most four times a second, only the lines that changed, and follows the terminal's size; \
            at most 64 readings of each source wait to be drawn (the newest: a flood of events cannot grow memory). \
            Standard output must be a terminal: otherwise vigil top says so and exits with status 2 (use vigil \
            watch for pipes).
            """,
        options: [
            Option(
                long: "--reach", value: "TARGET",
                help: "add a row of reach's answer for HOST[:PORT] (repeat it, or give several in one quoted word)")
        ],
        examples: [
            ("top", "every source, file events in the current directory"),
            ("top ~/Downloads", "file events in ~/Downloads"),
            ("top --reach example.org:443 --reach 10.0.0.1", "a row saying whether two hosts can be reached"),
            ("top --sys-root /tmp/fake-sys --proc-root /tmp/fake-proc", "a recorded or fake machine"),
        ])
}
