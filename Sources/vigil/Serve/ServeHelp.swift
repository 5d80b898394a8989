/// The `--help` text of `vigil serve`.
enum ServeHelp {
    static let text = """
        Usage: vigil serve [--listen ADDRESS:PORT] [SOURCE [ARGUMENT]]… [--textfile PATH [--interval DURATION]]

        Serves the sources' readings as Prometheus metrics: GET http://ADDRESS:PORT/metrics answers in the text
        exposition format 0.0.4. With no source named, serves every source that needs no argument; those this
        machine lacks report vigil_source_up 0 and the reason in vigil_source_info. A named source that cannot
        start is reported the same way, and the others are served. SIGINT or SIGTERM stops cleanly.

        Scrapers that misbehave (send garbage, stay silent, never read, open too many connections) are answered
        or dropped, with one line on standard error; they never stop or block vigil.

          --listen ADDRESS:PORT  where to listen (default 127.0.0.1:9464, this machine only); 0.0.0.0:9464
                                 or [::]:9464 exposes every interface
          --textfile PATH        also write the metrics to PATH atomically (temporary file, fsync, rename), for
                                 node_exporter's textfile collector; then no HTTP server runs unless --listen
                                 is given too
          --interval DURATION    how often --textfile writes: 15s (default), 500ms, 2m, or seconds as a number

        Examples:
          vigil serve                                   every available source at 127.0.0.1:9464
          vigil serve --listen 0.0.0.0:9464 cpu memory  two sources, on every interface
          vigil serve files /srv/inbox                  file events by kind, as vigil_file_events_total
          vigil serve --textfile /var/lib/node_exporter/textfile_collector/vigil.prom

        Global options:
          --sys-root PATH   read sysfs from PATH instead of /sys
          --proc-root PATH  read procfs from PATH instead of /proc
          --netns NAME      watch the network inside the named network namespace
          -h, --help        show help
        """
}
