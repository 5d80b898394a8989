import Testing
import Vigil
import VigilPrometheus
import VigilSensors
import VigilTestSupport

/// The `compass` and `attitude` sources' metrics, from a HID hub's channels and from a fused pair on fake trees.
@Suite(.timeLimit(.minutes(5))) struct MotionMetricsTests {
    func render(_ ids: [String], _ options: SourceCatalog.Options, until line: String) async throws -> String {
        let exporter = MetricsExporter()
        var sources: [CatalogSource] = []
        for id in ids {
            let source = try #require(SourceCatalog.entry(id: id)).make(options)
            exporter.add(source)
            try source.startMonitoring()
            sources.append(source)
        }
        defer { for source in sources { source.stopMonitoring() } }
        #expect(await eventually { exporter.render().contains(line) }, "\(exporter.render())")
        return exporter.render()
    }

    @Test func theDeviceChannelsExportHeadingAndAttitude() async throws {
        let tree = FakeIIOTree()
        tree.addHeadingChannel(0, raw: "1234")
        tree.addQuaternionChannel(1, raw: "0 0 7071068 7071068", scale: "0.0000001")
        let options = SourceCatalog.Options(sysfsRoot: tree.root, declination: -130)
        let text = try await render(
            ["compass", "attitude"], options, until: #"vigil_attitude_quaternion{component="w",method="device"}"#)
        for line in [
            #"vigil_source_up{source="compass"} 1"#, #"vigil_source_up{source="attitude"} 1"#,
            #"vigil_compass_heading_degrees{method="device",north="magnetic"} 123.4"#,
            #"vigil_compass_heading_degrees{method="device",north="true"} 353.4"#,
            #"vigil_attitude_yaw_degrees{method="device"} 90"#, #"vigil_attitude_pitch_degrees{method="device"} 0"#,
            #"vigil_attitude_quaternion{component="z",method="device"} 0.7071"#,
        ] {
            #expect(text.contains(line), "no “\(line)” in:\n\(text)")
        }
        #expect(!text.contains("vigil_compass_field_tesla") && !text.contains("_uncalibrated"), "no field, no flag")
    }

    @Test func theFusedCompassExportsTheFieldAndTheFlag() async throws {
        let tree = FakeIIOTree()
        let pose = DevicePose(yaw: -90, pitch: 0, roll: 0)
        tree.addMotionSensors(0, at: pose)
        tree.setField(1, pose.magneticField.scaled(by: 10))
        let text = try await render(
            ["compass"], SourceCatalog.Options(sysfsRoot: tree.root),
            until: #"vigil_compass_uncalibrated{method="fused"} 1"#)
        #expect(text.contains(#"vigil_compass_heading_degrees{method="fused",north="magnetic"} 90"#), "\(text)")
        #expect(text.contains(#"vigil_compass_field_tesla{method="fused"} 0.00048"#), "\(text)")
        #expect(!text.contains(#"north="true""#))
    }
}
