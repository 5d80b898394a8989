import Testing
import VigilTestSupport

/// What `vigil_source_up` says about health: a source whose readings hold no usable value is not up, hardware the
/// machine lacks is not a failure (no `vigil_source_up` series, so the README's alert stays quiet), and the notes
/// `vigil watch` prints are counted.
@Suite(.timeLimit(.minutes(5)))
struct ServeHealthTests {
    @Test func unusableReadingsAreNotUpAbsentHardwareHasNoUpSeriesAndNotesAreCounted() async throws {
        let scratch = TemporaryDirectory("vigil-health")
        // Two thermal zones, neither of which reads a temperature; no power supply, no IIO sensor at all.
        scratch.write("sys/class/thermal/thermal_zone0/type", "acpitz\n")
        scratch.write("sys/class/thermal/thermal_zone0/temp", "nan\n")
        scratch.write("sys/class/thermal/thermal_zone1/type", "x86_pkg_temp\n")
        scratch.write("sys/class/thermal/thermal_zone1/temp", "-274000\n")
        // A backlight whose actual brightness is above its maximum: clamped, with a note.
        scratch.write("sys/class/backlight/panel/brightness", "5\n")
        scratch.write("sys/class/backlight/panel/max_brightness", "10\n")
        scratch.write("sys/class/backlight/panel/actual_brightness", "20\n")
        // The power-supply class exists (the kernel has it) but holds no battery: hardware this machine lacks.
        scratch.write("sys/class/power_supply/.keep", "")
        let (serve, port) = try startServe(
            ["thermal", "battery", "accelerometer", "backlight"], globals: ["--sys-root", scratch.path + "/sys"])
        var exposition = ""
        let complete = eventually(timeout: 20) {
            exposition = LoopbackClient.get(port: port, "/metrics")?.body ?? ""
            return exposition.contains(#"vigil_source_notes{source="backlight"}"#)
                && exposition.contains(#"vigil_source_notes{source="thermal"}"#)
        }
        #expect(complete, "\(exposition)")
        let lines = exposition.split(separator: "\n").map(String.init)
        #expect(lines.contains(#"vigil_source_up{source="thermal"} 0"#), "\(exposition)")
        #expect(
            lines.contains {
                $0.hasPrefix("vigil_source_info{") && $0.contains(#"source="thermal""#)
                    && $0.contains(#"reason="no thermal zone reads a temperature""#)
            }, "\(exposition)")
        #expect(lines.contains(#"vigil_source_notes{source="thermal"} 2"#), "\(exposition)")
        #expect(lines.contains(#"vigil_source_up{source="backlight"} 1"#), "\(exposition)")
        #expect(lines.contains(#"vigil_source_notes{source="backlight"} 1"#), "\(exposition)")
        for absent in ["battery", "accelerometer"] {
            #expect(!lines.contains { $0.hasPrefix(#"vigil_source_up{source="\#(absent)""#) }, "\(exposition)")
            #expect(
                lines.contains { $0.hasPrefix("vigil_source_info{") && $0.contains(#"source="\#(absent)""#) },
                "\(exposition)")
        }
        #expect(await serve.stop() == 143)
    }
}
