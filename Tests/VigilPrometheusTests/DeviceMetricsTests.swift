import Testing
import Vigil
import VigilPrometheus
import VigilSensors
import VigilTestSupport

/// The `device` source's metrics for fixture machines (`Tests/Fixtures/dmi`, `Tests/Fixtures/os-release`; their
/// READMEs give the values): node_exporter's `node_dmi_info`, `node_os_info` and `node_os_version` label names, exact
/// values, and no sample where node_exporter has none.
@Suite(.timeLimit(.minutes(10))) struct DeviceMetricsTests {
    /// The exposition of the `device` source reading the DMI machine `dmi` with `osRelease` as its
    /// `<etc>/os-release` (a fake procfs holds only the hostname).
    static func exposition(dmi: String, osRelease: [UInt8]) async throws -> String {
        let proc = FakeSysfsTree()
        proc.write("sys/kernel/hostname", "fixture\n")
        let etc = FakeSysfsTree()
        etc.write("os-release", bytes: osRelease)
        let dev = FakeSysfsTree()
        let loop = EventLoop()
        defer { loop.shutdown() }
        let options = SourceCatalog.Options(
            sysfsRoot: Fixtures.path("dmi/\(dmi)/sys"), procfsRoot: proc.root, etcRoot: etc.root, devRoot: dev.root,
            eventLoop: loop)
        let source = try #require(SourceCatalog.entry(id: "device")).make(options)
        let exporter = MetricsExporter()
        exporter.add(source)
        try source.startMonitoring()
        defer { source.stopMonitoring() }
        #expect(await eventually { exporter.render().contains("vigil_uname_info") })
        return exporter.render()
    }

    /// The bytes of the fixture `Tests/Fixtures/os-release/<name>.os-release`.
    static func osRelease(_ name: String) throws -> [UInt8] {
        try #require(Fixtures.bytes("os-release/\(name).os-release"))
    }

    @Test func aThinkPadWithUbuntuExportsEveryLabelNodeExporterHas() async throws {
        let text = try await Self.exposition(
            dmi: "laptop-lenovo-thinkpad-t14-gen1", osRelease: try Self.osRelease("ubuntu-24.04"))
        for line in [
            // chassis_version "None" is a placeholder, so absent; no asset tags in the tree.
            "vigil_dmi_info{"
                + #"bios_date="04/06/2022",bios_release="1.25",bios_vendor="LENOVO",bios_version="N2XET35W (1.25 )","#
                + #"board_name="20S0000NBM",board_vendor="LENOVO",board_version="SDK0J40697 WIN","#
                + #"chassis_vendor="LENOVO",product_family="ThinkPad T14 Gen 1",product_name="20S0000NBM","#
                + #"product_sku="LENOVO_MT_20S0_BU_Think_FM_ThinkPad T14 Gen 1",product_version="ThinkPad T14 Gen 1","#
                + #"system_vendor="LENOVO"} 1"#,
            "vigil_os_info{"
                + #"id="ubuntu",id_like="debian",name="Ubuntu",pretty_name="Ubuntu 24.04.3 LTS","#
                + #"version="24.04.3 LTS (Noble Numbat)",version_codename="noble",version_id="24.04"} 1"#,
            #"vigil_os_version{id="ubuntu",id_like="debian",name="Ubuntu"} 24.04"#,
            "# TYPE vigil_os_version gauge",
            "# TYPE vigil_os_info gauge",
            "# TYPE vigil_dmi_info gauge",
        ] {
            #expect(text.contains(line + "\n"), "no “\(line)” in:\n\(text)")
        }
        #expect(text.contains("# HELP vigil_os_version "), "\(text)")
    }

    /// Placeholders ("System manufacturer", "To Be Filled By O.E.M.", …) are no labels; a release without
    /// `VERSION_ID` (Arch) has its info but no version sample, as with node_exporter.
    @Test func placeholdersAndAMissingVersionAreLeftOut() async throws {
        let text = try await Self.exposition(
            dmi: "desktop-asus-m4a785td-m-evo-oem-junk", osRelease: try Self.osRelease("arch"))
        for line in [
            "vigil_dmi_info{"
                + #"bios_date="01/07/2010",bios_release="8.15",bios_vendor="American Megatrends Inc.","#
                + #"bios_version="0918",board_name="M4A785TD-M EVO",board_vendor="ASUSTeK Computer INC.","#
                + #"board_version="Rev X.0x"} 1"#,
            #"vigil_os_info{build_id="rolling",id="arch",name="Arch Linux",pretty_name="Arch Linux"} 1"#,
        ] {
            #expect(text.contains(line + "\n"), "no “\(line)” in:\n\(text)")
        }
        #expect(!text.contains("vigil_os_version"), "\(text)")
    }

    struct Release: Sendable, CustomTestStringConvertible {
        /// A fixture's name, or a description of `text`.
        let name: String
        /// The os-release written for the case; nil to read the fixture `name`.
        let text: String?
        /// The `vigil_os_version` sample's value as exposed, or nil for no sample.
        let expected: String?
        var testDescription: String { name }

        static func fixture(_ name: String, _ expected: String?) -> Release {
            Release(name: name, text: nil, expected: expected)
        }

        static func versionID(_ versionID: String, _ expected: String?) -> Release {
            Release(
                name: "VERSION_ID=\(versionID.prefix(12))", text: "ID=test\nVERSION_ID=\(versionID)\n",
                expected: expected)
        }
    }

    static let releases: [Release] = [
        .fixture("ubuntu-24.04", "24.04"), .fixture("debian-13", "13"), .fixture("centos-7", "7"),
        .fixture("rhel-9.6", "9.6"), .fixture("fedora-42", "42"), .fixture("alpine-3.23", "3.23"),
        .fixture("opensuse-leap-15.2", "15.2"), .fixture("rocky-9.3", "9.3"), .fixture("amazon-linux-2023", "2023"),
        .fixture("linuxmint-17", "14.04"), .fixture("sles-12-sp1", "12.1"), .fixture("coreos-899.15.0", "899.15"),
        .fixture("buildroot-2022.02", "2022.02"), .fixture("openelec-6.0", "6"), .fixture("arch", nil),
        .fixture("gentoo", nil),
        .versionID("rolling", nil), .versionID("0", nil), .versionID("0.0", nil), .versionID("10-beta", "10"),
        .versionID("7.", "7"), .versionID("7.x", "7"), .versionID(".5", nil), .versionID("\"\"", nil),
        .versionID("2024.10.1.5", "2024.1"), .versionID(String(repeating: "9", count: 400), nil),
    ]

    /// The value is `VERSION_ID`'s leading `major.minor`, and there is no sample when it has none or it is 0.
    @Test(arguments: releases) func theVersionIsVersionIDsMajorMinor(_ release: Release) async throws {
        let bytes = try release.text.map { Array($0.utf8) } ?? Self.osRelease(release.name)
        let text = try await Self.exposition(dmi: "desktop-dell-optiplex-3060", osRelease: bytes)
        #expect(text.contains("\nvigil_os_info{"), "\(text)")
        let samples = text.split(separator: "\n").filter { $0.hasPrefix("vigil_os_version{") }
        #expect(samples.map { String($0.split(separator: " ").last ?? "") } == (release.expected.map { [$0] } ?? []))
    }
}
