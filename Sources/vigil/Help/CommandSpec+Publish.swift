import VigilSensors

extension CommandSpec {
    /// `vigil publish`.
    static let publish = CommandSpec(
        name: "publish", summary: "publish every reading to an MQTT broker",
        usage: [
            "publish --broker mqtt[s]://HOST[:PORT] [--ca-file PATH] [--cert-file PATH --key-file PATH] [--topic PREFIX] "
                + "[--qos 0|1] [--username NAME --password-file PATH] [--homeassistant] [--keep-alive SECONDS] "
                + "[--interval [SOURCE=]DURATION]… [SOURCE [ARGUMENT]]…"
        ],
        description: """
            Publishes every reading to an MQTT 3.1.1 broker, as the JSON envelope of vigil watch --json, to \
            PREFIX/SOURCE: retained for state sources, not retained for events (files, devices, clock). PREFIX is \
            vigil/HOSTNAME unless --topic says otherwise. With no source named, publishes every available source \
            that needs no argument; sources take the same words and options as vigil watch.

            The broker's will is PREFIX/status = offline (retained); vigil publishes online there on every \
            connection and offline when it stops. When the broker is unreachable, vigil keeps the latest reading of \
            each state source and up to 1000 events, reconnects by itself (exponential backoff with jitter) and \
            sends them; what it connects, loses and drops is said on standard error. At most 1000 readings of \
            each source wait to be handed to the publisher; a source that publishes faster loses its oldest, and \
            "vigil: publish: dropped N readings of SOURCE" says how many.

            mqtts:// connects through TLS (the system's OpenSSL 3): the broker's certificate must be signed by a CA \
            in --ca-file (else the system's store) and name the host of the URL; --cert-file and --key-file present \
            a client certificate to a broker that requires one. A certificate that is refused is said on standard \
            error, and vigil retries as for any failed connection.
            """,
        options: [
            Option(
                long: "--broker", value: "URL",
                help: "mqtt://HOST[:PORT] (port 1883 by default; [IPv6] in brackets), or mqtts:// for TLS (port 8883)"),
            Option(
                long: "--ca-file", value: "PATH", help: "CA certificates (PEM) to verify an mqtts:// broker against"),
            Option(long: "--cert-file", value: "PATH", help: "client certificate (PEM) for an mqtts:// broker"),
            Option(long: "--key-file", value: "PATH", help: "the client certificate's private key (PEM)"),
            Option(long: "--topic", value: "PREFIX", help: "topic prefix (default vigil/HOSTNAME)"),
            Option(
                long: "--qos", value: "0|1", help: "0: at most once (default); 1: resent until the broker acknowledges",
                choices: ["0", "1"]),
            Option(long: "--username", value: "NAME", help: "user name for the broker"),
            Option(
                long: "--password-file", value: "PATH",
                help: "read the password from the first line of PATH (else from VIGIL_MQTT_PASSWORD; never an argument)"
            ),
            Option(
                long: "--homeassistant",
                help: "also publish Home Assistant MQTT discovery configs for the numeric sources"),
            Option(
                long: "--keep-alive", value: "SECONDS",
                help: "MQTT keep alive (default 30): ping every half of it, reconnect after a silent one"),
            Option(
                long: "--interval", value: "[SOURCE=]DURATION",
                help: "poll polled sources every DURATION, or only SOURCE (repeat for several): 10s, cpu=1m"),
        ],
        examples: [
            ("publish --broker mqtt://broker.local battery thermal cpu", "three sources to vigil/HOSTNAME/…"),
            ("publish --broker mqtt://10.0.0.2:1883 --qos 1 --homeassistant", "every source, for Home Assistant"),
            ("publish --broker mqtts://broker.example.org --ca-file /etc/vigil/ca.crt", "through TLS"),
            (
                "publish --broker mqtt://broker.local --interval 1m --interval thermal=10s",
                "CPU and others once a minute"
            ),
        ],
        arguments: SourceCatalog.builtIn.map(\.id))
}
