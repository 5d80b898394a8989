import VigilSensors

extension InterfaceTraffic {
    /// The traffic counters of every interface in `<procRoot>/net/dev`, read at each scrape (counters change with every
    /// packet; no event says so), as node_exporter's netdev collector exports them; none when the file cannot be read.
    public static func families(procRoot: String) -> [MetricFamily] {
        guard let interfaces = try? read(procRoot: procRoot) else { return [] }
        var builder = MetricFamilyBuilder()
        for (direction, verb) in [("receive", "received"), ("transmit", "sent")] {
            for (field, what) in [("bytes", "Bytes"), ("packets", "Packets"), ("errs", "Errors"), ("drop", "Drops")] {
                for interface in interfaces {
                    let counters = direction == "receive" ? interface.receive : interface.transmit
                    let value: UInt64
                    switch field {
                    case "bytes": value = counters.bytes
                    case "packets": value = counters.packets
                    case "errs": value = counters.errors
                    default: value = counters.dropped
                    }
                    builder.counter(
                        "vigil_network_\(direction)_\(field)_total", "\(what) \(verb) by a network interface.",
                        Double(value), ["interface": interface.name])
                }
            }
        }
        return builder.families
    }
}
