import VigilSensors

extension CommandSpec {
    /// `vigil watch`.
    static let watch = CommandSpec(
        name: "watch", summary: "stream readings as they change",
        usage: [
            "watch [SOURCE…] [OPTIONS]", "watch files PATH… [-r] [-e LIST] [--exclude PATTERN]",
            "watch network [--changes]", "watch devices [--subsystem NAME]", "watch storage [PATH…]",
            "watch reach HOST[:PORT]… [--mark MARK]",
        ],
        description: """
            Streams readings as they change: one readable line each, or one JSON envelope a line with --json: \
            {"time": RFC 3339 with microseconds, "source": ID, "status": "ok"|"pending"|"unavailable", "reason": …, \
            "event": …, then the reading's fields}. A field that is not a finite number is null and "reason" names \
            it; the network's connectivity is "network" (satisfied or unsatisfied, with "networkReason"). With \
            no source named, watches every available source that \
            needs no argument. Duplicates are watched once. A named source this machine lacks is an error unless \
            --wait is given. files takes every word after it as a path; storage takes the words after it that hold \
            a slash; reach takes every word up to the next source id as a target.

            reach says for each target (a name, an IPv4 or IPv6 address, HOST:PORT or [IPV6]:PORT) whether a packet \
            can leave, as the kernel's own route lookup (ip route get) and the interface's carrier and source \
            address say: "reachable via 10.0.0.1 dev wlan0 (wi-fi) src 10.0.0.23" or "direct", or why not: no \
            route, unreachable route, prohibited route, blackholed, no carrier on IFACE, no usable source address, \
            DNS failed. A target with a port is also probed with a TCP connect: TCP answered, refused or timed out.

            File paths, mount points and uevent values are bytes. Readable lines escape file paths like ls -b (a \
            newline as "\\n", a byte that is not UTF-8 in octal, as in "caf\\351"), so one event stays on one line; \
            a mount point or uevent value that is not UTF-8 is escaped the same way. In JSON, "path" (and \
            "mountPoint", "mountedOn", a uevent's "devpath" and property values) is the exact name as a string when \
            it is UTF-8; when it is not, it is the array of its byte values (as journald writes such a field), never \
            a look-alike string.

            network --changes prints one line per change in ip monitor's words: "link add va <BROADCAST,MULTICAST> \
            mtu 1500 state DOWN", "link change va mtu 1400" (a change names what changed: name, up/down, carrier \
            on/off, +FLAG/-FLAG, state, mtu, address), "address add 2001:db8::1/64 dev va tentative", "address \
            change 2001:db8::1/64 dev va -tentative" (flags that changed), "route add 10.1.0.0/16 via 10.0.0.254 \
            dev va", "route change …" (ip route replace), "… del …", "status satisfied". Routes are every unicast \
            route outside the local table, without ip's proto, scope, src and pref. Changes that reach vigil \
            together may come as one line, and it also reports the IPv4 routes the kernel drops without a message \
            (their link went down or lost its last IPv4 address), which ip monitor does not. With --json each \
            change is one envelope: "event" (link, address, route, status), "action" and "detail".

            Standard output is written by a thread of its own from a bounded backlog: at most 10,000 readings of \
            each source wait to be formatted and 10,000 lines (8 MiB) to be written. When standard output falls \
            behind, or a source publishes faster than lines are printed, the oldest are dropped and counted: \
            "vigil: dropped N readings" goes to standard error once the writer catches up, or at the end of the run.
            """,
        options: [
            Option(long: "--json", help: "print one JSON envelope a line"),
            Option(long: "--timestamps", short: "-t", help: "prefix each readable line with its time, like ip -ts"),
            Option(long: "--once", help: "print the first reading of each state source, then exit (events: --count)"),
            Option(long: "--count", value: "N", help: "exit after N lines"),
            Option(long: "--timeout", value: "DURATION", help: "exit (status 0) after DURATION: 5s, 200ms, 1m"),
            Option(
                long: "--interval", value: "DURATION",
                help: "poll polled sources (cpu, memory, the network's counters, …) every DURATION"),
            Option(long: "--every", help: "print every poll of polled sources, not only changes (like vmstat 1)"),
            Option(long: "--wait", help: "wait for a named source this machine lacks instead of failing"),
            Option(long: "--recursive", short: "-r", help: "files: also watch every directory below"),
            Option(
                long: "--events", short: "-e", value: "LIST", help: "files: only these comma-separated event kinds",
                choices: FileSystemEvent.Kind.allCases.map(\.rawValue)),
            Option(long: "--exclude", value: "PATTERN", help: "files: skip paths matching this fnmatch(3) pattern"),
            Option(long: "--changes", help: "network: print only what changed (link, address, route, status)"),
            Option(long: "--subsystem", value: "NAME", help: "devices: only uevents of this subsystem (usb, block, …)"),
        ],
        examples: [
            ("watch", "every available source"), ("watch cpu memory -t", "CPU and memory use, with times"),
            ("watch files /etc -r -e modified,deleted", "changes under /etc"),
            ("watch files ~/src --exclude '*.o' --json", "changes as JSON, object files skipped"),
            ("watch network --changes", "link, address and route changes, like ip monitor"),
            ("watch network --interval 500ms", "interfaces with their traffic rates, twice a second"),
            ("watch devices --subsystem usb", "USB hot-plug, like udevadm monitor"),
            ("watch cpu --interval 200ms --every --count 10", "ten CPU readings, five a second"),
            ("watch battery --once --json", "the battery's first reading as JSON"),
            ("watch reach example.org:443 10.0.0.1", "whether and how two hosts can be reached, and port 443 answers"),
        ],
        arguments: SourceCatalog.builtIn.map(\.id))
}
