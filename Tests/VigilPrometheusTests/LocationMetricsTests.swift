import Testing
import Vigil
import VigilPrometheus
import VigilSensors
import VigilTestSupport

/// The `location` source's metrics from a receiver log replayed through a pseudo-terminal behind a fake
/// `class/gnss`: exact samples of its first epochs.
@Suite(.timeLimit(.minutes(5))) struct LocationMetricsTests {
    @Test func theLocationSourceExportsItsFix() async throws {
        let terminal = try #require(PseudoTerminal())
        let (sys, dev) = (FakeSysfsTree(), FakeSysfsTree())
        sys.device("class/gnss/gnss0", ["type": "UBX"])
        dev.link("gnss0", to: terminal.slavePath)
        let options = SourceCatalog.Options(sysfsRoot: sys.root, devRoot: dev.root)
        let source = try #require(SourceCatalog.entry(id: "location")).make(options)
        let exporter = MetricsExporter()
        exporter.add(source)
        try source.startMonitoring()
        defer { source.stopMonitoring() }
        let log = try #require(Fixtures.bytes("nmea/ublox-lea-4h-nofix-then-fix.log"))
        // Up to the GGA of 03:08:59 (byte 1951): the RMC of 03:08:59 before it ends the epoch of the first fix.
        terminal.write(log.prefix(1_951))
        let receiver = dev.root + "/gnss0"
        let fixed = #"vigil_location_fix{receiver="\#(receiver)"} 1"#
        #expect(await eventually { exporter.render().contains(fixed + "\n") })
        let text = exporter.render()
        for line in [
            #"vigil_source_up{source="location"} 1"#,
            #"vigil_location_satellites_in_view{receiver="\#(receiver)"} 3"#,
            #"vigil_location_latitude_degrees{receiver="\#(receiver)"} 49.130888"#,
            #"vigil_location_altitude_meters{receiver="\#(receiver)"} 516.7"#,
            #"vigil_location_satellites_used{receiver="\#(receiver)"} 3"#,
            #"vigil_location_dilution_of_precision{kind="horizontal",receiver="\#(receiver)"} 9.97"#,
            #"vigil_location_fix_time_seconds{receiver="\#(receiver)"} 1155179338"#,
        ] {
            #expect(text.contains(line), "no “\(line)” in:\n\(text)")
        }
        #expect(!text.contains("vigil_location_error_meters"), "no GST, no errors")
        // Released after its last write, it would hang the line up under the monitor (Swift ends lifetimes early).
        withExtendedLifetime(terminal) {}
    }
}
