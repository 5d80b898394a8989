import Foundation
import Glibc
import Testing
import VigilTestSupport

/// `vigil get/watch device` end to end: a fixture machine's identity as JSON and as a line, root-only files hidden
/// from another user, and the hostname of the tool's own UTS namespace followed live.
@Suite(.timeLimit(.minutes(5))) struct DeviceCommandTests {
    /// A fixture machine's DMI as sysfs, with a hostname, an os-release and a machine id of its own.
    final class Machine {
        let proc = FakeSysfsTree()
        let etc = FakeSysfsTree()
        let sys: String

        init(_ folder: String) {
            sys = Fixtures.path("dmi/\(folder)/sys")
            proc.write("sys/kernel/hostname", "kiosk-07\n")
            etc.write("os-release", readWholeFile(Fixtures.path("os-release/debian-13.os-release")) ?? "")
            etc.write("machine-id", "3d1219c7c4c5404aaa1f6d2a48adfda4\n")
        }

        var roots: [String] { ["--sys-root", sys, "--proc-root", proc.root, "--etc-root", etc.root] }
    }

    @Test func getDevicePrintsTheIdentityAsJSON() async throws {
        let machine = Machine("laptop-lenovo-thinkpad-t14-gen1")
        let vigil = try ChildProcess(vigil: machine.roots + ["get", "device", "--json"])
        #expect(await vigil.waitForExit())
        #expect(vigil.exitStatus == 0, "\(vigil.standardError)")
        let object = try #require(try VigilOutput.objects(vigil.standardOutput).first)
        #expect(object["source"] as? String == "device" && object["status"] as? String == "ok")
        #expect(object["hostname"] as? String == "kiosk-07")
        #expect(object["chassis"] as? String == "laptop" && object["chassisEvidence"] as? String == "dmi")
        #expect(object["hardwareVendor"] as? String == "Lenovo")
        #expect(object["hardwareModel"] as? String == "ThinkPad T14 Gen 1")
        #expect(object["machineID"] as? String == "3d1219c7c4c5404aaa1f6d2a48adfda4")
        let dmi = try #require(object["dmi"] as? [String: Any])
        #expect(dmi["biosVersion"] as? String == "N2XET35W (1.25 )" && dmi["chassisType"] as? Int == 10)
        #expect(dmi["chassisVersion"] == nil, "the placeholder None is absent")
        let system = try #require(object["operatingSystem"] as? [String: Any])
        #expect(system["prettyName"] as? String == "Debian GNU/Linux 13 (trixie)")
        #expect(system["versionCodename"] as? String == "trixie")
        let kernel = try #require(object["kernel"] as? [String: Any])
        #expect(kernel["name"] as? String == "Linux")
    }

    @Test func getDevicePrintsOneLine() async throws {
        let machine = Machine("desktop-asus-m4a785td-m-evo-oem-junk")
        let vigil = try ChildProcess(vigil: machine.roots + ["get", "device"])
        #expect(await vigil.waitForExit())
        #expect(vigil.exitStatus == 0, "\(vigil.standardError)")
        let line = vigil.standardOutput
        #expect(line.hasPrefix("device: kiosk-07, Debian GNU/Linux 13 (trixie), Linux "), "\(line)")
        #expect(
            line.hasSuffix(", ASUSTeK Computer INC. M4A785TD-M EVO, chassis desktop, firmware 0918 of 01/07/2010\n"))
        #expect(line.split(separator: "\n").count == 1)
    }

    /// Root reads anything, so the tool runs as `nobody` over a tree whose serial files are root's, mode 0400.
    @Test(.enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")))
    func rootOnlyFilesAreHiddenNotProblems() async throws {
        let sys = FakeSysfsTree()
        chmod(sys.root, 0o755)
        sys.device("class/dmi/id", ["sys_vendor": "Dell Inc.", "product_serial": "ABC123", "product_uuid": "x"])
        for file in ["product_serial", "product_uuid"] { chmod(sys.root + "/class/dmi/id/" + file, 0o400) }
        let proc = FakeSysfsTree()
        chmod(proc.root, 0o755)
        proc.write("sys/kernel/hostname", "box\n")
        let vigil = try ChildProcess(
            vigil: ["--sys-root", sys.root, "--proc-root", proc.root, "get", "device", "--json"],
            wrapper: ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"])
        #expect(await vigil.waitForExit())
        #expect(vigil.exitStatus == 0, "\(vigil.standardError)")
        let object = try #require(try VigilOutput.objects(vigil.standardOutput).first)
        let dmi = try #require(object["dmi"] as? [String: Any])
        #expect(dmi["hiddenFields"] as? [String] == ["product_serial", "product_uuid"])
        #expect(dmi["productSerial"] == nil && dmi["systemVendor"] as? String == "Dell Inc.")
        #expect((object["problems"] as? [String])?.isEmpty == true)

        let root = try ChildProcess(vigil: [
            "--sys-root", sys.root, "--proc-root", proc.root, "get", "device", "--json",
        ])
        #expect(await root.waitForExit())
        let rootDMI = try #require(try VigilOutput.objects(root.standardOutput).first?["dmi"] as? [String: Any])
        #expect(
            rootDMI["productSerial"] as? String == "ABC123" && (rootDMI["hiddenFields"] as? [String])?.isEmpty == true)
    }

    /// `vigil watch device` runs in a UTS namespace of its own; setting that namespace's hostname (through `nsenter`)
    /// is published, and the test's own hostname never changes.
    @Test func aHostnameSetInTheToolsOwnNamespaceIsPublished() async throws {
        guard getuid() == 0, let unshare = ChildProcess.installed("unshare"),
            let nsenter = ChildProcess.installed("nsenter")
        else {
            try skip("needs root, unshare(1) and nsenter(1) for a UTS namespace", expectedUnderCI: false)
        }
        let own = Self.kernelHostname()
        let vigil = try ChildProcess(
            vigil: ["watch", "device", "--json", "--count", "2"], wrapper: [unshare, "--uts"])
        #expect(
            await eventually { vigil.standardOutput.contains("\"hostname\":") },
            "no first reading: \(vigil.standardError)")
        let rename = try ChildProcess(nsenter, ["--target", "\(vigil.pid)", "--uts", "hostname", "vigil-renamed"])
        #expect(await rename.waitForExit())
        #expect(rename.exitStatus == 0, "\(rename.standardError)")
        #expect(await vigil.waitForExit(within: 20), "the rename was not published: \(vigil.standardOutput)")
        let hostnames = try VigilOutput.objects(vigil.standardOutput).compactMap { $0["hostname"] as? String }
        #expect(hostnames == [own, "vigil-renamed"])
        #expect(Self.kernelHostname() == own)
    }

    /// This process's hostname, as the kernel gives it.
    static func kernelHostname() -> String { ProcessProbe.readFile("/proc/sys/kernel/hostname") ?? "" }
}
