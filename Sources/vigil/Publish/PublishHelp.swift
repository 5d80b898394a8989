/// `vigil publish --help`.
enum PublishHelp {
    static let text = """
        Usage: vigil publish --broker mqtt://HOST[:PORT] [--topic PREFIX] [--qos 0|1]
                             [--username NAME --password-file PATH] [--homeassistant] [--keep-alive SECONDS]
                             [SOURCE [ARGUMENT]]…

        Publishes every reading to an MQTT 3.1.1 broker, as one JSON object ({"time":…,"source":…,"status":…,…}), to
        PREFIX/SOURCE: retained for state sources, not retained for events (files, devices, clock). PREFIX is
        vigil/HOSTNAME unless --topic says otherwise. With no source named, publishes every available source that
        needs no argument.

        The broker's will is PREFIX/status = offline (retained); vigil publishes online there on every connection
        and offline when it stops. When the broker is unreachable, vigil keeps the latest reading of each state
        source and up to 1000 events, reconnects by itself (exponential backoff with jitter) and sends them; what it
        connects, loses and drops is said on standard error. Ctrl-C (SIGINT) or SIGTERM stops cleanly.

          --broker URL          mqtt://HOST[:PORT] (port 1883 by default; [IPv6] in brackets)
          --topic PREFIX        topic prefix (default vigil/HOSTNAME)
          --qos 0|1             0: at most once (default); 1: at least once, resent until the broker acknowledges
          --username NAME       user name for the broker
          --password-file PATH  read the password from the first line of PATH (never from the command line)
          --homeassistant       also publish Home Assistant MQTT discovery configs (homeassistant/sensor/…/config)
                                for the numeric sources: battery, temperatures, light, pressure, CPU, memory, storage
          --keep-alive SECONDS  MQTT keep alive (default 30): ping every half of it, reconnect after a silent one

        Examples:
          vigil publish --broker mqtt://broker.local battery thermal cpu
          mosquitto_sub -v -t 'vigil/#'
        """
}
