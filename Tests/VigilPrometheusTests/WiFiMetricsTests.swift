import Testing
import Vigil
import VigilPrometheus
import VigilSensors
import VigilTestSupport

/// The `wifi` source's metrics from a replayed nl80211: exact samples, and an SSID that needs escaping in a label.
@Suite(.timeLimit(.minutes(5))) struct WiFiMetricsTests {
    static func render(_ kernel: ReplayNL80211Kernel) async throws -> String {
        let loop = EventLoop()
        defer { loop.shutdown() }
        var options = FakeMachine.empty().options
        options.eventLoop = loop
        options.wifiClient = { () throws(SensorError) in kernel.client() }
        let source = try #require(SourceCatalog.entry(id: "wifi")).make(options)
        let exporter = MetricsExporter()
        exporter.add(source)
        try source.startMonitoring()
        defer { source.stopMonitoring() }
        #expect(await eventually(within: 20) { exporter.render().contains("vigil_wifi_connected") })
        return exporter.render()
    }

    @Test func aConnectedStationsSignalBitratesAndChannel() async throws {
        let text = try await Self.render(ReplayNL80211Kernel(connected: true))
        for line in [
            #"vigil_source_up{source="wifi"} 1"#,
            #"vigil_wifi_info{address="02:00:00:00:00:00",bssid="02:00:00:00:01:00",interface="wlan0",ssid="Test-WIFI",type="managed"} 1"#,
            #"vigil_wifi_connected{interface="wlan0"} 1"#,
            #"vigil_wifi_frequency_megahertz{interface="wlan0"} 2412"#,
            #"vigil_wifi_channel_width_megahertz{interface="wlan0"} 20"#,
            #"vigil_wifi_signal_dbm{interface="wlan0",ssid="Test-WIFI"} -42"#,
            #"vigil_wifi_signal_average_dbm{interface="wlan0",ssid="Test-WIFI"} -44"#,
            #"vigil_wifi_transmit_bitrate_bits_per_second{interface="wlan0",ssid="Test-WIFI"} 866700000"#,
            #"vigil_wifi_receive_bitrate_bits_per_second{interface="wlan0",ssid="Test-WIFI"} 650000000"#,
            #"vigil_wifi_connected_seconds{interface="wlan0",ssid="Test-WIFI"} 120"#,
        ] {
            #expect(text.contains(line + "\n"), "no “\(line)” in:\n\(text)")
        }
    }

    @Test func aDisconnectedStationHasNoSignal() async throws {
        let text = try await Self.render(ReplayNL80211Kernel(connected: false))
        #expect(text.contains(#"vigil_wifi_connected{interface="wlan0"} 0"# + "\n"), "\(text)")
        #expect(!text.contains("vigil_wifi_signal_dbm"))
    }

    @Test func anSSIDThatIsNotPlainTextIsEscapedInItsLabel() async throws {
        let kernel = ReplayNL80211Kernel()
        // A quote, a backslash, a newline and a Latin-1 byte that is not UTF-8.
        let ssid: [UInt8] = Array("a\"b\\c".utf8) + [0x0A, 0xE9]
        kernel.set(
            interfaces: [ReplayNL80211Kernel.interface(index: 3, name: "wlan0", ssid: false)],
            scan: [
                ReplayNL80211Kernel.associatedBSS(
                    interface: 3, bssid: [2, 0, 0, 0, 1, 0], ssid: ssid, frequency: 5180, signalMBm: -5500)
            ], stations: [])
        let text = try await Self.render(kernel)
        let line = #"vigil_wifi_signal_dbm{interface="wlan0",ssid="a\"b\\\\c\\x0a\\xe9"} -55"#
        #expect(text.contains(line + "\n"), "no “\(line)” in:\n\(text)")
        #expect(text.split(separator: "\n").allSatisfy { !$0.hasPrefix("\u{E9}") })
    }
}
