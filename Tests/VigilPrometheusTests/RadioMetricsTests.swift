import Testing
import Vigil
import VigilPrometheus
import VigilSensors
import VigilTestSupport

/// The `radios` source's metrics from a fake `class/rfkill`: exact samples, labelled by switch, name and type.
@Suite(.timeLimit(.minutes(5))) struct RadioMetricsTests {
    @Test func theRadiosSourceExportsEachSwitchsBlocksAndReasons() async throws {
        let machine = FakeMachine.empty()
        defer { withExtendedLifetime(machine) {} }
        machine.addInventory()
        machine.sys.device(
            "class/rfkill/rfkill1",
            [
                "name": "phy0", "type": "wlan", "soft": "1", "hard": "1", "state": "2", "index": "1",
                "hard_block_reasons": "0x2",
            ])
        let loop = EventLoop()
        defer { loop.shutdown() }
        var options = machine.options
        options.eventLoop = loop
        let source = try #require(SourceCatalog.entry(id: "radios")).make(options)
        let exporter = MetricsExporter()
        exporter.add(source)
        try source.startMonitoring()
        defer { source.stopMonitoring() }
        #expect(await eventually { exporter.render().contains("vigil_radio_soft_blocked") })
        let text = exporter.render()
        for line in [
            #"vigil_source_up{source="radios"} 1"#,
            #"vigil_radio_soft_blocked{name="hci0",switch="rfkill0",type="bluetooth"} 0"#,
            #"vigil_radio_soft_blocked{name="phy0",switch="rfkill1",type="wlan"} 1"#,
            #"vigil_radio_hard_blocked{name="hci0",switch="rfkill0",type="bluetooth"} 0"#,
            #"vigil_radio_hard_blocked{name="phy0",switch="rfkill1",type="wlan"} 1"#,
            #"vigil_radio_hard_block_reason{name="phy0",reason="not-owner",switch="rfkill1",type="wlan"} 1"#,
            #"vigil_radio_hard_block_reason{name="phy0",reason="signal",switch="rfkill1",type="wlan"} 0"#,
            "vigil_radio_events_followed 0",
            "# TYPE vigil_radio_soft_blocked gauge",
        ] {
            #expect(text.contains(line + "\n"), "no “\(line)” in:\n\(text)")
        }
        #expect(!text.contains(#"reason="signal",switch="rfkill0""#), "rfkill0 has no hard_block_reasons")
    }
}
