import VigilSensors

extension ReachabilityReport: ReadingMetrics {
    func addMetrics(to builder: inout MetricFamilyBuilder) {
        for answer in targets {
            let labels = ["target": answer.target.description]
            builder.gauge(
                "vigil_reach_reachable",
                "Whether a packet to the target can leave: a route, an interface up with carrier, a usable source "
                    + "address (1), or not (0).", answer.isReachable, labels)
            if answer.target.port != nil {
                let answered: Bool? =
                    switch answer.tcp {
                    case .answered: true
                    case .refused, .timedOut, .failed, nil: false
                    case .probing: nil
                    }
                builder.gauge(
                    "vigil_reach_tcp_answered",
                    "Whether a TCP connect to the target's port completed (1) or was refused, timed out or failed (0).",
                    answered, labels)
            }
            var info = labels
            info["address"] = answer.address?.description ?? ""
            info["how"] = answer.route.map { $0.isLocal ? "local" : $0.isDirect ? "direct" : "gateway" } ?? ""
            info["gateway"] = answer.route?.gateway?.description ?? ""
            info["interface"] = answer.route?.interface ?? ""
            info["medium"] = answer.route?.medium.rawValue ?? ""
            info["source_address"] = answer.route?.sourceAddress?.description ?? ""
            info["problem"] = answer.problem?.code ?? ""
            info["reason"] = answer.problem?.description ?? ""
            info["tcp"] = answer.tcp?.code ?? ""
            builder.gauge(
                "vigil_reach_info",
                "How a target is reached (how, gateway, interface, medium, source address) or why not (problem, "
                    + "reason), and its TCP answer; always 1.", 1, info)
            builder.gauge(
                "vigil_reach_addresses", "The addresses the target's name resolved to (1 for an address).",
                Double(answer.addresses.count), labels)
        }
    }
}
