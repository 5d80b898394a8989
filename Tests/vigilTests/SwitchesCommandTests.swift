import Foundation
import Glibc
import Testing
import VigilTestSupport

/// `vigil get/watch switches` on the real read path, inside umockdev: its preload library shows the child a sysfs
/// and `/dev` of emulated evdev devices (the lid and the tablet-mode switch of `testdata/input/README.md`), answers
/// their `EVIOCGSW` from an ioctl script and plays an evemu recording into the lid's node.
@Suite(.timeLimit(.minutes(5))) struct SwitchesCommandTests {
    static var umockdevRun: String? { ChildProcess.installed("umockdev-run") }

    /// umockdev's device description, ioctl answers and events for a testbed, written to `folder`.
    struct Testbed {
        let folder = TemporaryDirectory("vigil-umockdev")

        /// An ACPI lid at `event0` (closed when `lidClosed`), libinput's tablet-mode switch device at `event3`
        /// (tablet mode on), and the lid opening then closing again as evemu events.
        init(lidClosed: Bool = true) {
            folder.write(
                "switches.umockdev",
                Self.device(path: "/devices/LNXSYSTM:00/LNXSYBUS:00/PNP0C0D:00/input/input0", event: 0, minor: 64)
                    + "E: NAME=\"Lid Switch\"\nE: ID_INPUT_SWITCH=1\nA: name=Lid Switch\n"
                    + "A: capabilities/ev=21\nA: capabilities/sw=1\nA: capabilities/key=0\n"
                    + "A: id/bustype=0019\nA: id/vendor=0000\nA: id/product=0005\n\n"
                    + Self.device(path: "/devices/platform/i2c-0/input/input3", event: 3, minor: 67)
                    + "E: NAME=\"Unreliable Tablet Mode Switch device\"\nE: ID_INPUT_SWITCH=1\n"
                    + "A: name=Unreliable Tablet Mode Switch device\n"
                    + "A: capabilities/ev=23\nA: capabilities/sw=2\nA: capabilities/key=30000 0 0 0 0\n"
                    + "A: id/bustype=0018\nA: id/vendor=0123\nA: id/product=0456\n")
            // EVIOCGID as the README derives it; EVIOCGSW: the lid closed (bit 0), tablet mode on (bit 1).
            folder.write(
                "event0.ioctl",
                "@DEV /dev/input/event0\nEVIOCGID 0 1900000005000000\n"
                    + "EVIOCGSW(0) 8 \(lidClosed ? "01" : "00")00000000000000\n")
            folder.write(
                "event3.ioctl", "@DEV /dev/input/event3\nEVIOCGID 0 1800230156040000\nEVIOCGSW(0) 8 0200000000000000\n")
            // The lid opens, then closes: one EV_SW event and a SYN_REPORT each (README "Event stream").
            folder.write(
                "event0.events",
                "# EVEMU 1.2\nE: 0.300000 0005 0000 0\nE: 0.300000 0000 0000 0\n"
                    + "E: 0.600000 0005 0000 1\nE: 0.600000 0000 0000 0\n")
        }

        /// The evdev node's block and its input device's first lines.
        static func device(path: String, event: Int, minor: Int) -> String {
            "P: \(path)/event\(event)\nN: input/event\(event)\nE: DEVNAME=/dev/input/event\(event)\nE: MAJOR=13\n"
                + "E: MINOR=\(minor)\nE: SUBSYSTEM=input\nA: dev=13:\(minor)\nL: device=../../input\(event)\n\n"
                + "P: \(path)\nE: SUBSYSTEM=input\n"
        }

        func wrapper(_ umockdevRun: String, events: Bool) -> [String] {
            [
                umockdevRun, "-d", folder.file("switches.umockdev"),
                "-i", "/dev/input/event0=" + folder.file("event0.ioctl"),
                "-i", "/dev/input/event3=" + folder.file("event3.ioctl"),
            ] + (events ? ["-e", "/dev/input/event0=" + folder.file("event0.events")] : []) + ["--"]
        }
    }

    static func lidStates(_ object: [String: Any]) -> [String] {
        let devices = object["devices"] as? [[String: Any]] ?? []
        return devices.flatMap { ($0["states"] as? [[String: Any]] ?? []).compactMap { $0["state"] as? String } }
    }

    @Test func getSwitchesReadsTheStateAtOpen() async throws {
        guard let umockdevRun = Self.umockdevRun else {
            try skip("umockdev is not installed (.ci/setup installs it)", expectedUnderCI: false)
        }
        let testbed = Testbed()
        let vigil = try ChildProcess(
            vigil: ["get", "switches", "--json"], wrapper: testbed.wrapper(umockdevRun, events: false))
        #expect(await vigil.waitForExit(within: 30))
        #expect(vigil.exitStatus == 0, "\(vigil.standardOutput)\(vigil.standardError)")
        let object = try #require(try VigilOutput.objects(vigil.standardOutput).first)
        #expect(object["source"] as? String == "switches" && object["status"] as? String == "ok")
        let devices = try #require(object["devices"] as? [[String: Any]])
        #expect(devices.map { $0["node"] as? String } == ["event0", "event3"])
        #expect(devices.map { $0["name"] as? String } == ["Lid Switch", "Unreliable Tablet Mode Switch device"])
        #expect(devices.map { $0["path"] as? String } == ["/dev/input/event0", "/dev/input/event3"])
        let states = devices.map { ($0["states"] as? [[String: Any]])?.first }
        #expect(states.map { $0?["switch"] as? String } == ["lid", "tablet_mode"])
        #expect(states.map { $0?["on"] as? Bool } == [true, true])
        #expect(states.map { $0?["state"] as? String } == ["closed", "on"])
    }

    @Test func getSwitchesPrintsOneLine() async throws {
        guard let umockdevRun = Self.umockdevRun else {
            try skip("umockdev is not installed (.ci/setup installs it)", expectedUnderCI: false)
        }
        let testbed = Testbed(lidClosed: false)
        let vigil = try ChildProcess(vigil: ["get", "switches"], wrapper: testbed.wrapper(umockdevRun, events: false))
        #expect(await vigil.waitForExit(within: 30))
        #expect(vigil.exitStatus == 0, "\(vigil.standardError)")
        #expect(
            vigil.standardOutput
                == "switches: Lid Switch (event0): lid open; Unreliable Tablet Mode Switch device (event3): "
                + "tablet_mode on\n")
    }

    @Test func watchSwitchesFollowsTheLidEvents() async throws {
        guard let umockdevRun = Self.umockdevRun else {
            try skip("umockdev is not installed (.ci/setup installs it)", expectedUnderCI: false)
        }
        let testbed = Testbed()
        let vigil = try ChildProcess(
            vigil: ["watch", "switches", "--json"], wrapper: testbed.wrapper(umockdevRun, events: true))
        let sequence = ["closed", "on", "open", "on", "closed", "on"]
        func observed() -> [String] {
            let lines = vigil.standardOutput.split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
            return lines.filter { $0["status"] as? String == "ok" }.flatMap(Self.lidStates)
        }
        let followed = await eventually(within: 30) { Array(observed().prefix(sequence.count)) == sequence }
        #expect(followed, "\(vigil.standardOutput)\(vigil.standardError)")
        let objects = try VigilOutput.objects(vigil.standardOutput).filter { $0["status"] as? String == "ok" }
        // The event's change carries its time; the state read at open has none.
        let lids = objects.map { (($0["devices"] as? [[String: Any]])?.first?["states"] as? [[String: Any]])?.first }
        #expect(lids.first??["changed"] == nil)
        #expect(lids.dropFirst().allSatisfy { VigilOutput.isRFC3339Microseconds($0?["changed"]) })
        #expect(await vigil.stop(with: SIGINT) == 130)
    }

    /// `vigil publish switches` sends the switches' states read at open to a real broker, retained under
    /// `PREFIX/switches`, as for every source.
    @Test func publishSwitchesRetainsTheStates() async throws {
        guard let umockdevRun = Self.umockdevRun else {
            try skip("umockdev is not installed (.ci/setup installs it)", expectedUnderCI: false)
        }
        if let missing = Mosquitto.missing { try skip(missing, expectedUnderCI: false) }
        let broker = try await Mosquitto()
        let testbed = Testbed()
        let vigil = try ChildProcess(
            vigil: [
                "publish", "switches", "--broker", "mqtt://127.0.0.1:\(broker.port)", "--topic", "vigil/switches-test",
            ], wrapper: testbed.wrapper(umockdevRun, events: false))
        let topic = "vigil/switches-test/switches"
        // Subscribed after the publish started, as the other retained-message tests do.
        let late = try broker.subscribe(topic)
        func payloads() -> [[String: Any]] { Mosquitto.objects(late, topic: topic) }
        let published = await eventually(within: 30) { payloads().contains { $0["status"] as? String == "ok" } }
        #expect(published, "\(late.standardOutput)\n\(vigil.standardError)")
        let object = try #require(payloads().last { $0["status"] as? String == "ok" })
        #expect(object["source"] as? String == "switches")
        #expect(Self.lidStates(object) == ["closed", "on"], "\(object)")
        await vigil.stop()
        await late.stop()
        await broker.stop()
    }
}
