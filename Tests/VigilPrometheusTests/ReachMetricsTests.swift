import Testing
import Vigil
import VigilPrometheus
import VigilSensors
import VigilTestSupport

/// The `reach` source's metrics for this machine's loopback: exact samples, labels escaped.
@Suite(.timeLimit(.minutes(5))) struct ReachMetricsTests {
    @Test func reachExportsReachabilityTheTCPAnswerAndHowAsLabels() async throws {
        let source = try #require(SourceCatalog.entry(id: "reach")).make(
            argument: #"127.0.0.1:9 ::1 bad"name\x.invalid"#)
        let exporter = MetricsExporter()
        exporter.add(source, argument: "127.0.0.1:9 ::1")
        try source.startMonitoring()
        defer { source.stopMonitoring() }
        let settled = await eventually(within: 20) {
            guard let report = (source.latest as? SensorReading<ReachabilityReport>)?.value else { return false }
            return report.targets.allSatisfy { $0.problem != .resolving && $0.tcp != .probing }
        }
        #expect(settled, "\(String(describing: source.latest))")
        let text = exporter.render()
        for line in [
            #"vigil_reach_reachable{target="127.0.0.1:9"} 1"#,
            #"vigil_reach_tcp_answered{target="127.0.0.1:9"} 0"#,
            #"vigil_reach_reachable{target="::1"} 1"#,
            #"vigil_reach_reachable{target="bad\"name\\x.invalid"} 0"#,
            #"vigil_reach_addresses{target="127.0.0.1:9"} 1"#,
            #"vigil_reach_info{address="127.0.0.1",gateway="",how="local",interface="lo",medium="loopback","#
                + #"problem="",reason="",source_address="127.0.0.1",target="127.0.0.1:9",tcp="refused"} 1"#,
            "# TYPE vigil_reach_reachable gauge",
        ] {
            #expect(text.contains(line + "\n"), "no “\(line)” in:\n\(text)")
        }
        #expect(!text.contains(#"vigil_reach_tcp_answered{target="::1"}"#), "no port, no probe")
        #expect(text.contains(#"problem="dns_failed",reason="DNS failed: "#))
    }
}
