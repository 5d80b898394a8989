import VigilSensors

extension NetworkPath: ReadingMetrics {
    func addMetrics(to builder: inout MetricFamilyBuilder) {
        builder.gauge(
            "vigil_network_connected",
            "Whether an interface with carrier and a global address carries a default route (1) or not.", isConnected)
        for family in [IPAddress.Family.ipv4, .ipv6] {
            builder.gauge(
                "vigil_network_default_routes", "Default routes in the kernel's tables.",
                Double(defaultRoutes.filter { $0.family == family }.count), ["family": "\(family)"])
        }
        for interface in interfaces {
            let labels = ["interface": interface.name]
            var info = labels
            info["kind"] = "\(interface.kind)"
            info["operstate"] = "\(interface.operationalStatus)"
            info["state"] = interface.state.rawValue
            info["address"] = interface.hardwareAddress ?? ""
            builder.gauge("vigil_network_info", "An interface's kind, states and hardware address; always 1.", 1, info)
            builder.gauge("vigil_network_up", "Whether the interface is administratively up.", interface.isUp, labels)
            builder.gauge("vigil_network_carrier", "Whether the interface has carrier.", interface.hasCarrier, labels)
            builder.gauge(
                "vigil_network_mtu_bytes", "The interface's MTU, in bytes.", interface.mtu.map(Double.init), labels)
            builder.gauge(
                "vigil_network_addresses", "Addresses on the interface that are usable (not tentative).",
                Double(interface.addresses.filter(\.isUsable).count), labels)
            if let traffic = interface.traffic { addTraffic(traffic, labels: labels, to: &builder) }
        }
    }

    /// The counters as node_exporter's netdev collector names them (`node_network_receive_bytes_total`, …), under
    /// vigil's prefix.
    private func addTraffic(
        _ traffic: InterfaceTraffic, labels: [String: String], to builder: inout MetricFamilyBuilder
    ) {
        for (direction, verb, counters) in [
            ("receive", "received", traffic.receive), ("transmit", "sent", traffic.transmit),
        ] {
            let fields: [(String, String, UInt64)] = [
                ("bytes", "Bytes", counters.bytes), ("packets", "Packets", counters.packets),
                ("errs", "Errors", counters.errors), ("drop", "Drops", counters.dropped),
            ]
            for (field, what, value) in fields {
                builder.counter(
                    "vigil_network_\(direction)_\(field)_total", "\(what) \(verb) by a network interface.",
                    Double(value), labels)
            }
        }
    }
}
