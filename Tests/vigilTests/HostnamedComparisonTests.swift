import Foundation
import Testing
import VigilTestSupport

/// `vigil get device` against systemd-hostnamed on this machine: what `hostnamectl` would print. hostnamed runs on a
/// private D-Bus (its own `dbus-daemon`, a socket in a temporary folder, which starts hostnamed when it is first
/// called), so nothing of the machine's is touched, and `busctl` reads its properties there (`hostnamectl` itself
/// refuses to run where systemd is not PID 1).
@Suite(.timeLimit(.minutes(10))) struct HostnamedComparisonTests {
    static let hostnamed = "/lib/systemd/systemd-hostnamed"

    @Test func getDeviceSaysWhatHostnamedSays() async throws {
        guard getuid() == 0, let dbusDaemon = ChildProcess.installed("dbus-daemon"),
            let busctl = ChildProcess.installed("busctl"), access(Self.hostnamed, X_OK) == 0,
            let env = ChildProcess.installed("env")
        else {
            try skip("needs root, dbus-daemon(1), busctl(1) and systemd-hostnamed (.ci/setup)", expectedUnderCI: true)
        }
        let folder = TemporaryDirectory("vigil-hostnamed")
        defer { folder.remove() }
        let address = "unix:path=" + folder.file("bus")
        try #require(writeFile(folder.file("bus.conf"), Self.busConfiguration(address: address, services: folder.path)))
        // The bus starts hostnamed for the first call to its name and holds that call until the name is taken.
        let service =
            "[D-BUS Service]\nName=org.freedesktop.hostname1\nExec=\(env) DBUS_SYSTEM_BUS_ADDRESS=\(address) \(Self.hostnamed)\n"
        try #require(writeFile(folder.file("org.freedesktop.hostname1.service"), service))
        let bus = try ChildProcess(dbusDaemon, ["--config-file=" + folder.file("bus.conf"), "--nofork", "--nopidfile"])
        try #require(await eventually(within: 30) { FileManager.default.fileExists(atPath: folder.file("bus")) })
        let query = try ChildProcess(
            busctl,
            [
                "--address=" + address, "--json=short", "call", "org.freedesktop.hostname1",
                "/org/freedesktop/hostname1", "org.freedesktop.DBus.Properties", "GetAll", "s",
                "org.freedesktop.hostname1",
            ])
        #expect(await query.waitForExit())
        let hostnamed = try #require(
            Self.properties(query.standardOutput), "busctl: \(query.standardError)\nbus: \(bus.standardError)")

        let vigil = try ChildProcess(vigil: ["get", "device", "--json"])
        #expect(await vigil.waitForExit())
        let device = try #require(try VigilOutput.objects(vigil.standardOutput).first, "\(vigil.standardError)")
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
            #expect(
                (ours as? String ?? "") == theirs, "\(name): hostnamed \"\(theirs)\", vigil \(String(describing: ours))"
            )
        }
        // hostnamed would stay until its idle timeout, holding the bus's output; it is stopped first.
        let owner = try ChildProcess(
            busctl,
            [
                "--address=" + address, "call", "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                "GetConnectionUnixProcessID", "s", "org.freedesktop.hostname1",
            ])
        #expect(await owner.waitForExit())
        if let pid = pid_t(
            owner.standardOutput.split(separator: " ").last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "")
        {
            kill(pid, SIGTERM)
        }
        #expect(await bus.stop() != nil, "the bus did not stop: \(bus.standardError)")
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
    static func properties(_ text: String) -> [String: Any]? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
            let data = object["data"] as? [Any], let all = data.first as? [String: Any]
        else { return nil }
        return all.compactMapValues { ($0 as? [String: Any])?["data"] }
    }
}
