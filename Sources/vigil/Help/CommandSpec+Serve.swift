import VigilSensors

extension CommandSpec {
    /// `vigil serve`.
    static let serve = CommandSpec(
        name: "serve", summary: "serve every reading as Prometheus metrics",
        usage: [
            "serve [--listen ADDRESS:PORT] [--web-config FILE] [SOURCE [ARGUMENT]]… [--textfile PATH [--interval DURATION]]"
        ],
        description: """
            Serves the sources' readings as Prometheus metrics: GET http://ADDRESS:PORT/metrics answers in the text \
            exposition format 0.0.4 (gzip-compressed when the scraper asks), GET / with a page that links there. \
            With no source named, serves every source that needs no argument; hardware this machine lacks has no \
            vigil_source_up series, only vigil_source_info with the reason. A source that fails (a named one that \
            cannot start, a reading unavailable or without a usable value) reports vigil_source_up 0 and the \
            reason, and the others are served.

            Scrapers that misbehave (send garbage, stay silent, never read, open too many connections) are answered, \
            evicted (the oldest idle first) or dropped, with one line on standard error (at most 20 a second); they \
            never stop or block vigil.

            --web-config takes node_exporter's web configuration file: tls_server_config (cert_file, key_file, \
            client_auth_type, client_ca_file, min_version, max_version) serves HTTPS through the system's OpenSSL 3, \
            and basic_auth_users (user: bcrypt hash, as htpasswd -nBC 10 USER prints) makes every request need HTTP \
            basic authentication. Relative paths are relative to the file; unknown settings are refused.
            """,
        options: [
            Option(
                long: "--listen", value: "ADDRESS:PORT",
                help: "where to listen (default 127.0.0.1:9464); 0.0.0.0:9464 or [::]:9464 for every interface"),
            Option(
                long: "--web-config", value: "FILE",
                help: "TLS and basic authentication from a web configuration file in node_exporter's format"),
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
            ("serve --listen 0.0.0.0:9464 --web-config /etc/vigil/web.yml", "HTTPS with basic authentication"),
            ("serve files /srv/inbox", "file events by kind, as vigil_file_events_total"),
            ("serve --textfile /var/lib/node_exporter/textfile_collector/vigil.prom", "for node_exporter"),
        ],
        arguments: SourceCatalog.builtIn.map(\.id))
}
