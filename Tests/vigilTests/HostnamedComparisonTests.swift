import Foundation
import Testing
import VigilSensors
import VigilTestSupport

/// `vigil get device` against systemd-hostnamed: what `hostnamectl` would print, on this machine and on fixture
/// machines (``HostnamedOnAPrivateBus``).
@Suite(.timeLimit(.minutes(10))) struct HostnamedComparisonTests {
    @Test func getDeviceSaysWhatHostnamedSays() async throws {
        let tools = try HostnamedOnAPrivateBus.Tools()
        let hostnamed = try await HostnamedOnAPrivateBus.properties(tools)
        let vigil = try ChildProcess(vigil: ["get", "device", "--json"])
        #expect(await vigil.waitForExit())
        let device = try #require(try VigilOutput.objects(vigil.standardOutput).first, "\(vigil.standardError)")
        Self.expectAgreement(hostnamed, device)
    }

    /// The machines of `Tests/Fixtures/dmi` in turn, each with the next os-release of `Tests/Fixtures/os-release`.
    static let fixtureMachines: [(machine: String, osRelease: String)] = {
        let machines = Fixtures.names("dmi")
        let releases = Fixtures.names("os-release").filter { $0.hasSuffix(".os-release") }
        return releases.indices.map { (machines[$0 % machines.count], releases[$0]) }
    }()

    /// hostnamed chrooted into a fake root holding a fixture's DMI tree, os-release and static hostname, with the
    /// udev database entry udev's own rules and hwdb make of that DMI tree, against vigil given the same roots.
    ///
    /// This machine's CPU says it is a guest, to hostnamed (CPUID) and to vigil (`/proc/cpuinfo`) alike, so both say
    /// chassis `vm` here; the SMBIOS chassis table is compared with hostnamed's in `DMIFixtureTests`.
    @Test(arguments: fixtureMachines) func getDeviceSaysWhatHostnamedSaysOnAFixtureMachine(
        machine: String, osRelease: String
    ) async throws {
        let tools = try HostnamedOnAPrivateBus.Tools()
        guard let udevadm = ChildProcess.installed("udevadm") else {
            try skip("needs udevadm(8) for the udev database hostnamed reads (.ci/setup)", expectedUnderCI: false)
        }
        let root = try FakeRoot()
        try root.installDMI(from: Fixtures.path("dmi/\(machine)/sys/class/dmi/id"))
        try FileManager.default.copyItem(
            atPath: Fixtures.path("os-release/\(osRelease)"), toPath: root.etc + "/os-release")
        try #require(writeFile(root.etc + "/hostname", "fixture-\(machine.prefix(while: { $0 != "-" }))\n"))
        let udev = try await root.runUdevOnDMI(udevadm: udevadm)
        #expect(udev.contains("E:ID_VENDOR="), "udev's rules named no vendor: \(udev)")
        let hostnamed = try await HostnamedOnAPrivateBus.properties(tools, root: root)

        let vigil = try ChildProcess(vigil: ["--sys-root", root.sys, "--etc-root", root.etc, "get", "device", "--json"])
        #expect(await vigil.waitForExit())
        let device = try #require(try VigilOutput.objects(vigil.standardOutput).first, "\(vigil.standardError)")
        Self.expectAgreement(hostnamed, device)
    }

    /// Twelve of hostnamed's properties against the same fields of `vigil get device --json`.
    static func expectAgreement(
        _ hostnamed: [String: Any], _ device: [String: Any], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let kernel = device["kernel"] as? [String: Any] ?? [:]
        let system = device["operatingSystem"] as? [String: Any] ?? [:]
        let dmi = device["dmi"] as? [String: Any] ?? [:]
        let pairs: [(String, Any?)] = [
            ("Hostname", device["hostname"]), ("StaticHostname", device["staticHostname"]),
            ("Chassis", device["chassis"]), ("IconName", device["iconName"]),
            ("HardwareVendor", device["hardwareVendor"]), ("HardwareModel", device["hardwareModel"]),
            ("FirmwareVersion", dmi["biosVersion"]), ("KernelName", kernel["name"]),
            ("KernelRelease", kernel["release"]), ("KernelVersion", kernel["version"]),
            ("OperatingSystemPrettyName", system["prettyName"]), ("HomeURL", system["homeURL"]),
        ]
        for (name, ours) in pairs {
            // hostnamed says "" where it knows nothing; vigil leaves the field out.
            let theirs = hostnamed[name] as? String ?? ""
            let ours = ours as? String ?? ""
            #expect(
                ours == theirs || isDeliberate(name, theirs: theirs, ours: ours),
                "\(name): hostnamed \"\(theirs)\", vigil \"\(ours)\"", sourceLocation: sourceLocation)
        }
    }

    /// Where vigil differs from hostnamed on purpose, each case exactly:
    /// - the firmware version hostnamed reads as the file holds it, padding included (`0918   `); vigil trims it,
    ///   and leaves out a vendor's placeholder (`unknown`), as every DMI string;
    /// - the hardware vendor and model hostnamed takes from udev, whose rules put `$attr{product_name}` through its
    ///   character filter (`Standard PC (Q35 + ICH9, 2009)` becomes `Standard PC _Q35 + ICH9, 2009_`); vigil keeps
    ///   the firmware's string.
    static func isDeliberate(_ name: String, theirs: String, ours: String) -> Bool {
        switch name {
        case "FirmwareVersion":
            let trimmed = String(theirs.reversed().drop(while: { $0 == " " }).reversed())
            return ours.isEmpty ? DMIText.isPlaceholder(trimmed) : trimmed == ours
        case "HardwareVendor", "HardwareModel": return !ours.isEmpty && theirs == udevFiltered(ours)
        default: return false
        }
    }

    /// What udev makes of a sysfs attribute it substitutes into a property: ASCII letters and digits, non-ASCII
    /// characters and `#+-.:=@_/ $%?,` kept, anything else `_`.
    static func udevFiltered(_ text: String) -> String {
        let kept = Set("#+-.:=@_/ $%?,".unicodeScalars)
        return String(
            String.UnicodeScalarView(
                text.unicodeScalars.map { scalar in
                    !scalar.isASCII || kept.contains(scalar) || ("a"..."z").contains(scalar)
                        || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) ? scalar : "_"
                }))
    }
}
