import VigilSensors

extension CommandSpec {
    /// `vigil serve`.
    static let serve = CommandSpec(
        name: "serve", summary: "serve every reading as Prometheus metrics",
        usage: ["serve [--listen ADDRESS:PORT] [SOURCE [ARGUMENT]]… [--textfile PATH [--interval DURATION]]"],
        description: """
            Serves the sources' readings as Prometheus metrics: GET http://ADDRESS:PORT/metrics answers in the text \
            exposition format 0.0.4. With no source named, serves every source that needs no argument; those this \
            machine lacks report vigil_source_up 0 and the reason in vigil_source_info. A named source that cannot \
            start is reported the same way, and the others are served.

            Scrapers that misbehave (send garbage, stay silent, never read, open too many connections) are answered \
            or dropped, with one line on standard error; they never stop or block vigil.
            """,
        options: [
            Option(
                long: "--listen", value: "ADDRESS:PORT",
                help: "where to listen (default 127.0.0.1:9464); 0.0.0.0:9464 or [::]:9464 for every interface"),
            Option(
                long: "--textfile", value: "PATH",
                help: "write the metrics to PATH atomically for node_exporter's textfile collector (no HTTP "
                    + "server then, unless --listen is given too)"),
            Option(
                long: "--interval", value: "DURATION", help: "how often --textfile writes: 15s (default), 500ms, 2m"),
        ],
        examples: [
            ("serve", "every available source at 127.0.0.1:9464"),
            ("serve --listen 0.0.0.0:9464 cpu memory", "two sources, on every interface"),
            ("serve files /srv/inbox", "file events by kind, as vigil_file_events_total"),
            ("serve --textfile /var/lib/node_exporter/textfile_collector/vigil.prom", "for node_exporter"),
        ],
        arguments: SourceCatalog.builtIn.map(\.id))
}
