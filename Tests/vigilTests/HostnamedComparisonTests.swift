import Foundation
import Testing
import VigilTestSupport

/// `vigil get device` against systemd-hostnamed on this machine: what `hostnamectl` would print. hostnamed runs on a
/// private D-Bus (its own `dbus-daemon`, a socket in a temporary folder), so nothing of the machine's is touched, and
/// `busctl` reads its properties there (`hostnamectl` itself refuses to run where systemd is not PID 1).
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
        try #require(writeFile(folder.file("bus.conf"), Self.busConfiguration(address: address)))
        let bus = try ChildProcess(dbusDaemon, ["--config-file=" + folder.file("bus.conf"), "--nofork", "--nopidfile"])
        let onBus = [env, "DBUS_SYSTEM_BUS_ADDRESS=" + address]
        #expect(await eventually(within: 30) { FileManager.default.fileExists(atPath: folder.file("bus")) })
        let daemon = try ChildProcess(Self.hostnamed, [], wrapper: onBus)

        // hostnamed answers once it has taken its name on the bus; until then busctl fails, and is asked again.
        var properties: [String: Any]?
        for _ in 0..<60 where properties == nil {
            let query = try ChildProcess(
                busctl,
                [
                    "--system", "--json=short", "call", "org.freedesktop.hostname1", "/org/freedesktop/hostname1",
                    "org.freedesktop.DBus.Properties", "GetAll", "s", "org.freedesktop.hostname1",
                ], wrapper: onBus)
            if await query.waitForExit(), query.exitStatus == 0 { properties = Self.properties(query.standardOutput) }
            if properties == nil { try await Task.sleep(for: .milliseconds(250)) }
        }
        let hostnamed = try #require(properties, "hostnamed did not answer on the private bus: \(daemon.standardError)")

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
        await daemon.stop()
        await bus.stop()
    }

    /// A bus that only root on this machine uses, open to every call (hostnamed's own policy file is not needed).
    static func busConfiguration(address: String) -> String {
        """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>system</type>
          <listen>\(address)</listen>
          <auth>EXTERNAL</auth>
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
