import Foundation
import Testing
import VigilTestSupport

/// systemd-hostnamed on a bus of its own: its own `dbus-daemon` and socket, which starts hostnamed when it is first
/// called (D-Bus activation), so nothing of the machine's is touched; `busctl` reads its properties there
/// (`hostnamectl` itself refuses to run where systemd is not PID 1).
///
/// With a ``FakeRoot``, the bus and hostnamed run chrooted into it, in a mount namespace of their own.
struct HostnamedOnAPrivateBus {
    static let hostnamed = "/lib/systemd/systemd-hostnamed"

    /// The programs it needs, or a reason to skip.
    struct Tools {
        let dbusDaemon: String
        let busctl: String
        let env: String

        init() throws {
            guard getuid() == 0, let dbusDaemon = ChildProcess.installed("dbus-daemon"),
                let busctl = ChildProcess.installed("busctl"), access(HostnamedOnAPrivateBus.hostnamed, X_OK) == 0,
                let env = ChildProcess.installed("env")
            else {
                try skip(
                    "needs root, dbus-daemon(1), busctl(1) and systemd-hostnamed (.ci/setup)", expectedUnderCI: false)
            }
            (self.dbusDaemon, self.busctl, self.env) = (dbusDaemon, busctl, env)
        }
    }

    /// hostnamed's properties (`GetAll` of `org.freedesktop.hostname1`), by name: strings, booleans and numbers.
    ///
    /// A bus that fails the call is started afresh, up to three times: on a loaded machine the bus has reset
    /// busctl's connection while activating hostnamed, which says nothing about the values compared.
    static func properties(_ tools: Tools, root: FakeRoot? = nil) async throws -> [String: Any] {
        var failure = ""
        for _ in 1...3 {
            switch try await propertiesOnce(tools, root: root) {
            case .success(let properties): return properties
            case .failure(let why): failure = why.text
            }
        }
        throw BusFailure(text: "hostnamed did not answer in three tries; the last: \(failure)")
    }

    /// What went wrong with one bus, for the test's report.
    struct BusFailure: Error, CustomStringConvertible {
        let text: String
        var description: String { text }
    }

    private static func propertiesOnce(_ tools: Tools, root: FakeRoot?) async throws -> Result<
        [String: Any], BusFailure
    > {
        let folder = TemporaryDirectory("vigil-hostnamed")
        defer { folder.remove() }
        // Paths as the bus and hostnamed see them, and as this process sees them.
        let (inside, outside) = root.map { ("/bus", $0.bus) } ?? (folder.path, folder.path)
        let address = "unix:path=\(inside)/socket"
        // A try before may have left its socket in a fake root's bus folder; the wait below must see a new one.
        unlink(outside + "/socket")
        try #require(writeFile(outside + "/bus.conf", busConfiguration(address: address, services: inside)))
        // The bus holds the first call to hostnamed's name until hostnamed has taken it. In a fake root, sd-device
        // is told to take `/sys` as sysfs (it is a folder there).
        let fakeSysfs = root == nil ? "" : "SYSTEMD_DEVICE_VERIFY_SYSFS=0 "
        let service = """
            [D-BUS Service]
            Name=org.freedesktop.hostname1
            Exec=\(tools.env) \(fakeSysfs)DBUS_SYSTEM_BUS_ADDRESS=\(address) \(hostnamed)

            """
        try #require(writeFile(outside + "/org.freedesktop.hostname1.service", service))
        let busArguments = ["--config-file=\(inside)/bus.conf", "--nofork", "--nopidfile"]
        let bus =
            try root.map { try $0.run(tools.dbusDaemon, busArguments) }
            ?? ChildProcess(tools.dbusDaemon, busArguments)
        try #require(
            await eventually(within: 30) { FileManager.default.fileExists(atPath: outside + "/socket") },
            "the bus did not start: \(bus.standardError)")
        let outsideAddress = "--address=unix:path=\(outside)/socket"
        let query = try ChildProcess(
            tools.busctl,
            [
                outsideAddress, "--json=short", "call", "org.freedesktop.hostname1", "/org/freedesktop/hostname1",
                "org.freedesktop.DBus.Properties", "GetAll", "s", "org.freedesktop.hostname1",
            ])
        _ = await query.waitForExit()
        let properties = parse(query.standardOutput)
        // hostnamed would stay until its idle timeout, holding the bus's output; it is stopped first.
        let owner = try ChildProcess(
            tools.busctl,
            [
                outsideAddress, "call", "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                "GetConnectionUnixProcessID", "s", "org.freedesktop.hostname1",
            ])
        #expect(await owner.waitForExit())
        if let pid = pid_t(
            owner.standardOutput.split(separator: " ").last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "")
        {
            kill(pid, SIGTERM)
        }
        #expect(await bus.stop() != nil, "the bus did not stop: \(bus.standardError)")
        guard let properties else {
            return .failure(BusFailure(text: "busctl: \(query.standardError)\nbus: \(bus.standardError)"))
        }
        return .success(properties)
    }

    /// A bus that only root on this machine uses, open to every call (hostnamed's own policy file is not needed),
    /// starting the services described in `services`.
    static func busConfiguration(address: String, services: String) -> String {
        """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>\(address)</listen>
          <auth>EXTERNAL</auth>
          <servicedir>\(services)</servicedir>
          <policy context="default">
            <allow user="root"/>
            <allow own="*"/>
            <allow send_destination="*"/>
            <allow receive_sender="*"/>
          </policy>
        </busconfig>
        """
    }

    /// The properties of `busctl --json=short call … GetAll` (`{"type":"a{sv}","data":[{NAME:{"type","data"}}]}`).
    static func parse(_ text: String) -> [String: Any]? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
            let data = object["data"] as? [Any], let all = data.first as? [String: Any]
        else { return nil }
        return all.compactMapValues { ($0 as? [String: Any])?["data"] }
    }
}

/// A machine's root file system made of fixtures, for programs that only read fixed paths (`/sys/class/dmi/id`,
/// `/etc/os-release`): its own `etc`, `sys`, `run` and `bus` folders, and this machine's `/usr`, `/proc` and `/dev`
/// bound in, in a mount namespace of each program run in it, which is chrooted there.
///
/// The binds exist only in those namespaces, so removing the folder from this process never reaches the machine's
/// `/usr`. The root holds no `/.dockerenv`: a program run in it sees no container, as on a machine of its own.
final class FakeRoot: Sendable {
    let folder = TemporaryDirectory("vigil-root")
    var path: String { folder.path }
    var etc: String { path + "/etc" }
    var sys: String { path + "/sys" }
    /// Where a bus run in the root puts its socket and configuration (`/bus` inside).
    var bus: String { path + "/bus" }

    init() throws {
        for name in ["etc", "sys", "run", "bus", "usr", "proc", "dev", "tmp"] {
            try #require(mkdir(path + "/" + name, 0o755) == 0)
        }
        // The merged-/usr layout of Debian 12, so `/lib/systemd/…` and `/bin/…` resolve inside.
        for (link, target) in [("bin", "usr/bin"), ("lib", "usr/lib"), ("lib64", "usr/lib64"), ("sbin", "usr/sbin")] {
            try #require(symlink(target, path + "/" + link) == 0)
        }
        // The bus's policy names the user root.
        for name in ["passwd", "group"] {
            try FileManager.default.copyItem(atPath: "/etc/" + name, toPath: etc + "/" + name)
        }
    }

    deinit { folder.remove() }

    /// Copies a fixture machine's DMI attributes to `sys/class/dmi/id`, with what sysfs adds to a real device there:
    /// the `uevent` the kernel's `dmi_dev_uevent()` fills with the modalias, and the `subsystem` link udev reads the
    /// subsystem from.
    func installDMI(from fixture: String) throws {
        let dmi = sys + "/class/dmi/id"
        try FileManager.default.createDirectory(atPath: dmi, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: fixture) {
            try FileManager.default.copyItem(atPath: fixture + "/" + name, toPath: dmi + "/" + name)
        }
        let modalias = try String(contentsOfFile: dmi + "/modalias", encoding: .utf8)
        try #require(writeFile(dmi + "/uevent", "MODALIAS=" + modalias))
        try #require(symlink("../../dmi", dmi + "/subsystem") == 0)
    }

    /// Starts `program` chrooted into the root, in a mount namespace where this machine's `/usr`, `/proc` and `/dev`
    /// are bound into it.
    func run(_ program: String, _ arguments: [String]) throws -> ChildProcess {
        let binds = "for d in usr proc dev; do mount --rbind /$d \"$1/$d\"; done; exec chroot \"$@\""
        let unshare = try #require(ChildProcess.installed("unshare"), "unshare(1) is in util-linux")
        return try ChildProcess(
            unshare, ["--mount", "--propagation", "private", "/bin/sh", "-ec", binds, "sh", path, program] + arguments)
    }

    /// Writes the udev database entry of `sys/class/dmi/id` (`run/udev/data/+dmi:id`) by running udev's own rules and
    /// hwdb on it (`udevadm test` writes the entry it computes), where systemd-hostnamed reads the hardware vendor
    /// and model: `ID_VENDOR_FROM_DATABASE`, `ID_VENDOR`, `ID_MODEL`, ….
    func runUdevOnDMI(udevadm: String) async throws -> String {
        let test = try run("/usr/bin/env", ["SYSTEMD_DEVICE_VERIFY_SYSFS=0", udevadm, "test", "/sys/class/dmi/id"])
        #expect(await test.waitForExit())
        let entry = try? String(contentsOfFile: path + "/run/udev/data/+dmi:id", encoding: .utf8)
        return try #require(entry, "udevadm test wrote no entry: \(test.standardError)")
    }
}
