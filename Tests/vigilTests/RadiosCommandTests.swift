import Foundation
import Glibc
import Testing
import VigilTestSupport

/// `vigil get/watch radios` on the real read path, inside umockdev: its preload library shows the child a sysfs with
/// one Wi-Fi rfkill switch (`phy0`, soft-blocked) and a `/dev/rfkill` that plays a script of reads. umockdev answers
/// no `RFKILL_IOCTL_MAX_SIZE`, as a kernel before 5.11 would not, so the events are the 8-byte ones.
@Suite(.timeLimit(.minutes(5))) struct RadiosCommandTests {
    static var umockdevRun: String? { ChildProcess.installed("umockdev-run") }

    /// umockdev's device description and the event script, written to `folder`.
    struct Testbed {
        let folder = TemporaryDirectory("vigil-umockdev-rfkill")

        /// `events`: the bytes of each read, with the milliseconds before it.
        init(events: [(delay: Int, bytes: [UInt8])]) {
            folder.write(
                "rfkill.umockdev",
                "P: /devices/virtual/misc/rfkill\nN: rfkill\nE: DEVNAME=/dev/rfkill\nE: MAJOR=10\nE: MINOR=242\n"
                    + "E: SUBSYSTEM=misc\nA: dev=10:242\n\n"
                    + "P: /devices/pci0000:00/0000:00:14.3/ieee80211/phy0/rfkill1\nE: SUBSYSTEM=rfkill\n"
                    + "E: RFKILL_NAME=phy0\nE: RFKILL_TYPE=wlan\nA: name=phy0\nA: type=wlan\nA: soft=1\nA: hard=0\n"
                    + "A: state=0\nA: index=1\nA: hard_block_reasons=0x0\n")
            folder.write(
                "rfkill.script", events.map { "r \($0.delay) " + Self.escaped($0.bytes) + "\n" }.joined())
        }

        /// umockdev's script escaping: a byte below 32 as `^` and the byte plus 64, `^` itself as "^`".
        static func escaped(_ bytes: [UInt8]) -> String {
            bytes.map { byte -> String in
                if byte < 32 { return "^" + String(UnicodeScalar(byte + 64)) }
                if byte == UInt8(ascii: "^") { return "^`" }
                return String(UnicodeScalar(byte))
            }.joined()
        }

        /// An 8-byte `struct rfkill_event` of switch 1 (Wi-Fi).
        static func event(op: UInt8, soft: UInt8, hard: UInt8, type: UInt8 = 1) -> [UInt8] {
            [1, 0, 0, 0, type, op, soft, hard]
        }

        func wrapper(_ umockdevRun: String) -> [String] {
            [
                umockdevRun, "-d", folder.file("rfkill.umockdev"), "-s", "/dev/rfkill=" + folder.file("rfkill.script"),
                "--",
            ]
        }
    }

    static func states(_ objects: [[String: Any]]) -> [String] {
        objects.filter { $0["status"] as? String == "ok" }.compactMap { object in
            guard let radio = (object["switches"] as? [[String: Any]])?.first else { return nil }
            return "soft \(radio["softBlocked"] as? Bool ?? false) hard \(radio["hardBlocked"] as? Bool ?? false)"
        }
    }

    @Test func getRadiosReadsSysfsAndFollowsTheEventDevice() async throws {
        guard let umockdevRun = Self.umockdevRun else {
            try skip("umockdev is not installed (.ci/setup installs it)", expectedUnderCI: false)
        }
        let testbed = Testbed(events: [(0, Testbed.event(op: 0, soft: 1, hard: 0))])
        let vigil = try ChildProcess(vigil: ["get", "radios", "--json"], wrapper: testbed.wrapper(umockdevRun))
        #expect(await vigil.waitForExit(within: 30))
        #expect(vigil.exitStatus == 0, "\(vigil.standardOutput)\(vigil.standardError)")
        let object = try #require(try VigilOutput.objects(vigil.standardOutput).first)
        #expect(object["source"] as? String == "radios" && object["status"] as? String == "ok")
        #expect(object["eventDevice"] as? String == "/dev/rfkill")
        let radio = try #require((object["switches"] as? [[String: Any]])?.first)
        #expect(radio["name"] as? String == "rfkill1" && radio["label"] as? String == "phy0")
        #expect(radio["type"] as? String == "wlan" && radio["index"] as? Int == 1)
        #expect(radio["softBlocked"] as? Bool == true && radio["hardBlocked"] as? Bool == false)
        #expect(radio["hardBlockReasons"] as? [String] == [])
    }

    /// The events change the switch; an unknown operation, an unknown type's change and a truncated last event are
    /// taken as the kernel gives them: applied, or answered by a re-read of sysfs (still soft-blocked).
    @Test func watchRadiosFollowsTheEventsAndResynchronizes() async throws {
        guard let umockdevRun = Self.umockdevRun else {
            try skip("umockdev is not installed (.ci/setup installs it)", expectedUnderCI: false)
        }
        // A second apart: the monitor applies the events one wake of its loop finds together (publishing the
        // result), so two events in one wake show one state. 300 ms apart, a ThreadSanitizer run on two loaded
        // cores once stalled the loop past the next event and missed the second state.
        let testbed = Testbed(events: [
            (0, Testbed.event(op: 0, soft: 1, hard: 0)),
            (1_000, Testbed.event(op: 2, soft: 0, hard: 0)),
            (1_000, Testbed.event(op: 2, soft: 0, hard: 1, type: 99)),
            (1_000, Testbed.event(op: 9, soft: 0, hard: 0)),
            (1_000, Testbed.event(op: 2, soft: 0, hard: 0)),
            (1_000, Array(Testbed.event(op: 2, soft: 0, hard: 1).prefix(5))),
        ])
        let vigil = try ChildProcess(vigil: ["watch", "radios", "--json"], wrapper: testbed.wrapper(umockdevRun))
        let sequence = [
            "soft true hard false", "soft false hard false", "soft false hard true", "soft true hard false",
            "soft false hard false", "soft true hard false",
        ]
        let followed = await eventually(within: 30) {
            Array(Self.states((try? VigilOutput.objects(vigil.standardOutput)) ?? []).prefix(sequence.count))
                == sequence
        }
        #expect(followed, "\(vigil.standardOutput)\(vigil.standardError)")
        #expect(await vigil.stop(with: SIGINT) == 130)
    }

    /// `vigil publish radios` sends the switches to a real broker, retained under `PREFIX/radios`, as for every
    /// source.
    @Test func publishRadiosRetainsTheSwitches() async throws {
        guard let umockdevRun = Self.umockdevRun else {
            try skip("umockdev is not installed (.ci/setup installs it)", expectedUnderCI: false)
        }
        if let missing = Mosquitto.missing { try skip(missing, expectedUnderCI: false) }
        let broker = try await Mosquitto()
        let testbed = Testbed(events: [(0, Testbed.event(op: 0, soft: 1, hard: 0))])
        let vigil = try ChildProcess(
            vigil: [
                "publish", "radios", "--broker", "mqtt://127.0.0.1:\(broker.port)", "--topic", "vigil/radios-test",
            ],
            wrapper: testbed.wrapper(umockdevRun))
        let topic = "vigil/radios-test/radios"
        // Subscribed after the publish started, as the other retained-message tests do.
        let late = try broker.subscribe(topic)
        func payloads() -> [[String: Any]] { Mosquitto.objects(late, topic: topic) }
        let published = await eventually(within: 30) { !Self.states(payloads()).isEmpty }
        #expect(published, "\(late.standardOutput)\n\(vigil.standardError)")
        #expect(payloads().last?["source"] as? String == "radios")
        #expect(Self.states(payloads()).last == "soft true hard false", "\(late.standardOutput)")
        await vigil.stop()
        await late.stop()
        await broker.stop()
    }
}
