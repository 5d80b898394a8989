import Foundation
import Glibc
import Testing
import VigilTestSupport

/// `vigil publish` end to end against a real `mosquitto` started by each test, read with `mosquitto_sub -v`.
@Suite(.timeLimit(.minutes(10)), .disabled(if: Mosquitto.missing != nil, "\(Mosquitto.missing ?? "")"))
struct VigilPublishBrokerTests {
    /// `vigil publish` on `broker` under a topic prefix of its own.
    private func publish(_ broker: Mosquitto, prefix: String, _ extra: [String]) throws -> ChildProcess {
        try ChildProcess(vigil: ["publish", "--broker", "mqtt://127.0.0.1:\(broker.port)", "--topic", prefix] + extra)
    }

    /// The lines `PREFIX/SUBTOPIC PAYLOAD` that `subscriber` printed for `subtopic`.
    private func lines(_ subscriber: ChildProcess, _ topic: String) -> [Substring] {
        subscriber.standardOutput.split(separator: "\n").filter { $0.hasPrefix(topic + " ") }
    }

    /// Expects `PREFIX/status online` as the latest status, and a reading with a value for each of `sources`.
    private func expectOnlineAndReadings(
        _ subscriber: ChildProcess, _ prefix: String, _ sources: [String], _ vigil: ChildProcess
    ) async {
        let online = await eventually(within: 15) {
            lines(subscriber, prefix + "/status").last == "\(prefix)/status online"
        }
        #expect(online, "\(subscriber.standardOutput)\n\(vigil.standardError)")
        for source in sources {
            let reading = await eventually(within: 15) {
                lines(subscriber, prefix + "/" + source).contains { $0.contains(#""status":"ok""#) }
            }
            #expect(reading, "no \(source) reading: \(subscriber.standardOutput)\n\(vigil.standardError)")
        }
    }

    @Test func publishesOnlineEveryReadingAndTheWillAfterSIGKILL() async throws {
        let broker = try await Mosquitto()
        let watched = TemporaryDirectory("vigil-watched")
        let folder = watched.path
        let subscriber = try broker.subscribe("vigil/#")
        let vigil = try publish(broker, prefix: "vigil/test", ["memory", "storage", "files", folder])
        await expectOnlineAndReadings(subscriber, "vigil/test", ["memory", "storage"], vigil)
        // Retained: a subscriber that comes later still gets the state (and the status).
        let late = try broker.subscribe("vigil/test/memory")
        #expect(await eventually(within: 15) { late.standardOutput.contains(#""source":"memory""#) })
        _ = FileManager.default.createFile(atPath: folder + "/touched", contents: nil)
        #expect(
            await eventually(within: 15) {
                lines(subscriber, "vigil/test/files").contains { $0.contains(folder + "/touched") }
            })
        let envelope = try #require(
            lines(subscriber, "vigil/test/memory").last?.split(separator: " ", maxSplits: 1).last)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(envelope.utf8)) as? [String: Any])
        #expect(object["source"] as? String == "memory" && object["time"] is String && object["status"] is String)

        await vigil.stop(with: SIGKILL)
        #expect(
            await eventually(within: 15) { lines(subscriber, "vigil/test/status").last == "vigil/test/status offline" },
            "no will after SIGKILL: \(subscriber.standardOutput)")
        await subscriber.stop()
        await late.stop()
        await broker.stop()
    }

    /// The `device` source's payload is the envelope `vigil get device --json` prints, retained under
    /// `PREFIX/device`.
    @Test func publishesTheDeviceIdentityRetained() async throws {
        let broker = try await Mosquitto()
        let sys = FakeSysfsTree()
        sys.device(
            "class/dmi/id", ["sys_vendor": "LENOVO", "product_version": "ThinkPad T14 Gen 1", "chassis_type": "10"])
        let proc = FakeSysfsTree()
        proc.write("sys/kernel/hostname", "kiosk-07\n")
        // An etc of its own: with the machine's /etc, a container's markers (this CI machine is one) decide the chassis.
        let etc = FakeSysfsTree()
        let vigil = try publish(
            broker, prefix: "vigil/device-test",
            ["device", "--sys-root", sys.root, "--proc-root", proc.root, "--etc-root", etc.root])
        let subscriber = try broker.subscribe("vigil/device-test/device")
        #expect(
            await eventually(within: 15) { !lines(subscriber, "vigil/device-test/device").isEmpty },
            "\(subscriber.standardOutput)\n\(vigil.standardError)")
        let envelope = try #require(
            lines(subscriber, "vigil/device-test/device").last?.split(separator: " ", maxSplits: 1).last)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(envelope.utf8)) as? [String: Any])
        #expect(object["source"] as? String == "device" && object["status"] as? String == "ok")
        #expect(object["hostname"] as? String == "kiosk-07" && object["chassis"] as? String == "laptop")
        #expect(
            object["hardwareVendor"] as? String == "Lenovo"
                && object["hardwareModel"] as? String == "ThinkPad T14 Gen 1")
        await vigil.stop()
        await subscriber.stop()
        await broker.stop()
    }

    /// The `sleep` source goes the same way: its state, statistics included, retained under `PREFIX/sleep`.
    @Test func publishesTheSleepStateRetained() async throws {
        let broker = try await Mosquitto()
        let machine = FakeMachine.empty()
        machine.addSuspendStatistics()
        let vigil = try publish(broker, prefix: "vigil/sleep-test", ["sleep", "--sys-root", machine.sys.root])
        let late = try broker.subscribe("vigil/sleep-test/sleep")
        #expect(
            await eventually(within: 15) { !lines(late, "vigil/sleep-test/sleep").isEmpty },
            "\(late.standardOutput)\n\(vigil.standardError)")
        let envelope = try #require(
            lines(late, "vigil/sleep-test/sleep").last?.split(separator: " ", maxSplits: 1).last)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(envelope.utf8)) as? [String: Any])
        #expect(object["source"] as? String == "sleep" && object["status"] as? String == "ok")
        #expect(object["wakes"] as? Int == 0 && object["suspendedSeconds"] is Double)
        #expect((object["statistics"] as? [String: Any])?["successes"] as? Int == 12, "\(object)")
        await vigil.stop()
        await late.stop()
        await broker.stop()
    }

    /// The `inventory` source's payload, retained under `PREFIX/inventory`: the devices by kind.
    @Test func publishesTheDeviceInventoryRetained() async throws {
        let broker = try await Mosquitto()
        let machine = FakeMachine.empty()
        machine.addInventory()
        let vigil = try publish(
            broker, prefix: "vigil/inventory-test",
            ["inventory", "--sys-root", machine.sys.root, "--proc-root", machine.proc.root])
        let subscriber = try broker.subscribe("vigil/inventory-test/inventory")
        #expect(
            await eventually(within: 15) { !lines(subscriber, "vigil/inventory-test/inventory").isEmpty },
            "\(subscriber.standardOutput)\n\(vigil.standardError)")
        let envelope = try #require(
            lines(subscriber, "vigil/inventory-test/inventory").last?.split(separator: " ", maxSplits: 1).last)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(envelope.utf8)) as? [String: Any])
        #expect(object["source"] as? String == "inventory" && object["status"] as? String == "ok")
        let adapters = try #require(object["bluetoothAdapters"] as? [[String: Any]], "\(object)")
        #expect(adapters.first?["name"] as? String == "hci0")
        let cameras = try #require(object["cameras"] as? [[String: Any]])
        #expect((cameras.first?["nodes"] as? [[String: Any]])?.count == 2)
        await vigil.stop()
        await subscriber.stop()
        await broker.stop()
    }

    @Test func publishesTheDisplaysOfAFakeTreeRetainedWithTheirEDID() async throws {
        let broker = try await Mosquitto()
        let machine = FakeMachine.empty()
        machine.addDisplays()
        let vigil = try ChildProcess(vigil: [
            "--sys-root", machine.sys.root, "publish", "--broker", "mqtt://127.0.0.1:\(broker.port)", "--topic",
            "vigil/screens", "displays",
        ])
        let subscriber = try broker.subscribe("vigil/screens/#")
        await expectOnlineAndReadings(subscriber, "vigil/screens", ["displays"], vigil)
        // Retained: a subscriber that comes later gets the connectors.
        let late = try broker.subscribe("vigil/screens/displays")
        #expect(await eventually(within: 15) { late.standardOutput.contains(#""source":"displays""#) })
        let envelope = try #require(
            lines(late, "vigil/screens/displays").last?.split(separator: " ", maxSplits: 1).last)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(envelope.utf8)) as? [String: Any])
        let connectors = try #require(object["connectors"] as? [[String: Any]], "\(object)")
        let panel = try #require(connectors.first { $0["name"] as? String == "card0-eDP-1" })
        #expect((panel["edid"] as? [String: Any])?["manufacturer"] as? String == "BOE")
        #expect(panel["isInternal"] as? Bool == true)
        await vigil.stop(with: SIGTERM)
        await subscriber.stop()
        await late.stop()
        await broker.stop()
    }

    @Test func reconnectsByItselfAfterTheBrokerRestartsAndDeliversTheLatestReadings() async throws {
        let broker = try await Mosquitto()
        let vigil = try publish(broker, prefix: "vigil/restart", ["--qos", "1", "memory", "storage"])
        #expect(
            await eventually(within: 15) { vigil.standardError.contains("connected to 127.0.0.1:\(broker.port)") },
            "\(vigil.standardError)")
        await broker.stop()
        #expect(
            await eventually(within: 15) { vigil.standardError.contains("reconnecting in") }, "\(vigil.standardError)")
        try await broker.start()
        // The restarted broker has no persistence: whatever it has now, vigil sent after reconnecting.
        let subscriber = try broker.subscribe("vigil/restart/#", qos: 1)
        await expectOnlineAndReadings(subscriber, "vigil/restart", ["memory", "storage"], vigil)
        #expect(vigil.standardError.components(separatedBy: "connected to 127.0.0.1").count - 1 >= 2)
        #expect(await vigil.stop() != nil)
        #expect(
            await eventually(within: 15) {
                lines(subscriber, "vigil/restart/status").last == "vigil/restart/status offline"
            })
        await subscriber.stop()
        await broker.stop()
    }

    @Test func homeAssistantDiscoveryConfigsAreRetainedAndPointAtTheState() async throws {
        let broker = try await Mosquitto()
        let vigil = try publish(broker, prefix: "vigil/ha", ["--homeassistant", "memory"])
        let subscriber = try broker.subscribe("homeassistant/#")
        #expect(
            await eventually(within: 15) { subscriber.standardOutput.contains("/memory/config ") },
            "\(subscriber.standardOutput)\n\(vigil.standardError)")
        let line = try #require(
            subscriber.standardOutput.split(separator: "\n").first { $0.contains("/memory/config ") })
        let parts = line.split(separator: " ", maxSplits: 1)
        #expect(parts[0].hasPrefix("homeassistant/sensor/vigil_"))
        let config = try #require(try JSONSerialization.jsonObject(with: Data(parts[1].utf8)) as? [String: Any])
        #expect(config["state_topic"] as? String == "vigil/ha/memory")
        let availability = config["availability"] as? [[String: Any]] ?? []
        #expect(availability.map { $0["topic"] as? String } == ["vigil/ha/status", "vigil/ha/memory"])
        #expect(config["availability_mode"] as? String == "all")
        #expect(config["unit_of_measurement"] as? String == "%")
        #expect((config["value_template"] as? String)?.contains("usedFraction") == true)
        #expect(config["unique_id"] is String && config["name"] is String)
        await vigil.stop()
        await subscriber.stop()
        await broker.stop()
    }

    /// A real Mosquitto with a password file: the password from `VIGIL_MQTT_PASSWORD` connects; a wrong one ends
    /// `vigil publish` with status 1 and Mosquitto's reason instead of retrying it forever.
    @Test func aPasswordFromTheEnvironmentConnectsAndAWrongOneEndsTheRun() async throws {
        let broker = try await Mosquitto(users: ["kiosk": "s3cret"])
        let arguments = ["publish", "--broker", "mqtt://127.0.0.1:\(broker.port)", "--username", "kiosk", "memory"]
        let good = try ChildProcess(vigil: arguments, environment: ["VIGIL_MQTT_PASSWORD": "s3cret"])
        #expect(
            await eventually(within: 15) { good.standardError.contains("connected to 127.0.0.1") },
            "\(good.standardError)")
        #expect(await good.stop() == 143)
        let bad = try ChildProcess(vigil: arguments, environment: ["VIGIL_MQTT_PASSWORD": "wrong"])
        #expect(await bad.waitForExit(within: 30))
        #expect(bad.exitStatus == 1, "\(bad.standardError)")
        #expect(
            bad.standardError.contains("not authorized") || bad.standardError.contains("bad user name or password"),
            "\(bad.standardError)")
        await broker.stop()
    }

    @Test func idleCPUStaysNearZeroWithASubscriberAttached() async throws {
        let broker = try await Mosquitto()
        let watched = TemporaryDirectory("vigil-watched")
        let folder = watched.path
        let subscriber = try broker.subscribe("vigil/#")
        let vigil = try publish(broker, prefix: "vigil/idle", ["files", folder])
        #expect(await eventually(within: 15) { subscriber.standardOutput.contains("vigil/idle/status online") })
        try await Task.sleep(for: .milliseconds(300))
        let before = try #require(vigil.cpuSeconds)
        try await Task.sleep(for: .seconds(2))
        let after = try #require(vigil.cpuSeconds)
        // An idle publisher sleeps in epoll_wait; 0.2 s of CPU in 2 s would be a busy loop on a loaded machine.
        #expect(after - before < 0.2, "vigil publish used \(after - before) s of CPU in 2 s while idle")
        await vigil.stop()
        await subscriber.stop()
        await broker.stop()
    }
}

/// `vigil publish` against a loopback listener that misbehaves: it survives, says why, and connects again.
@Suite(.timeLimit(.minutes(10))) struct VigilPublishMisbehavingBrokerTests {
    @Test(arguments: FakeBroker.Behavior.survivable)
    func survivesReconnectsAndSaysSo(behavior: FakeBroker.Behavior) async throws {
        let broker = try FakeBroker(behavior)
        defer { broker.stop() }
        let path = try #require(ChildProcess.vigil, "build the vigil product first (swift build)")
        let vigil = try ChildProcess(
            path, ["publish", "--broker", "mqtt://127.0.0.1:\(broker.port)", "--keep-alive", "2", "memory"])
        let expected =
            switch behavior {
            case .garbage: "protocol error"
            case .closesMidPacket: "closed the connection in the middle of a packet"
            case .neverReads: "no answer from 127.0.0.1:\(broker.port)"
            default: "?"
            }
        #expect(await eventually(within: 30) { vigil.standardError.contains(expected) }, "\(vigil.standardError)")
        #expect(await eventually(within: 30) { broker.accepted >= 2 }, "no second connection: \(vigil.standardError)")
        #expect(vigil.isRunning, "vigil exited: \(vigil.standardError)")
        #expect(await vigil.stop() != nil)
    }

    /// A broker that pushes QoS 1 messages and never reads loses its connection, with the reason, instead of
    /// growing vigil's buffer of acknowledgements without bound (22 to 106 MB before).
    @Test func aBrokerThatPushesAndNeverReadsIsDroppedWithBoundedMemory() async throws {
        let broker = try FakeBroker(.pushesAndNeverReads)
        defer { broker.stop() }
        let vigil = try ChildProcess(vigil: ["publish", "--broker", "mqtt://127.0.0.1:\(broker.port)", "memory"])
        #expect(await eventually(within: 30) { vigil.standardError.contains("connected to") }, "\(vigil.standardError)")
        let before = ProcessProbe.residentKilobytes(of: vigil.pid) ?? 0
        #expect(
            await eventually(within: 30) { vigil.standardError.contains("does not read the acknowledgements") },
            "\(vigil.standardError)")
        let resident = ProcessProbe.residentKilobytes(of: vigil.pid) ?? 0
        // Growth, and not under AddressSanitizer, whose quarantine and shadow grow with every allocation the flood
        // makes, bounded buffers and all; ThreadSanitizer shadows what is touched too, less.
        if !runsUnderAddressSanitizer {
            let shadow = runsUnderThreadSanitizer ? 65_536 : 0
            #expect(resident - before < 40_000 + shadow, "VmRSS \(before) kB connected, \(resident) kB at the drop")
        }
        #expect(await vigil.stop() != nil)
    }

    /// A broker that ends each session right after accepting it (another client took the ID over) meets a growing
    /// delay, not a reconnect every half second (25 sessions in 10 s before), and the log says what to suspect.
    @Test func sessionsEndedAtOnceMeetAGrowingBackoffAndALogLine() async throws {
        let broker = try FakeBroker(.endsEachSession)
        defer { broker.stop() }
        let start = ContinuousClock.now
        let vigil = try ChildProcess(vigil: ["publish", "--broker", "mqtt://127.0.0.1:\(broker.port)", "memory"])
        #expect(await eventually(within: 60) { broker.accepted >= 5 }, "\(vigil.standardError)")
        // Delays of 0.25–0.5 s, then 0.5–1, 1–2 and 2–4 s: the fifth session at 3.75 s at the earliest (with the delay
        // reset at each CONNACK, by 2 s).
        #expect(ContinuousClock.now - start >= .seconds(3.5), "5 sessions in \(ContinuousClock.now - start)")
        #expect(vigil.standardError.contains("ended the last 3 sessions"), "\(vigil.standardError)")
        #expect(vigil.standardError.contains("client ID \"vigil-"), "\(vigil.standardError)")
        #expect(await vigil.stop() != nil)
    }

    /// `--interval SOURCE=DURATION` must name a source that is published, and take a duration; a mistake is a usage
    /// error, not a setting silently ignored.
    @Test(arguments: [
        (["--interval", "cpuu=1s", "cpu"], "cpuu is not among the sources"),
        (["--interval", "0s", "cpu"], "--interval"),
        (["--interval", "files=1s", "files", "/tmp"], "does not poll"),
    ])
    func refusesAnIntervalItCannotApply(extra: [String], message: String) async throws {
        let vigil = try ChildProcess(vigil: ["publish", "--broker", "mqtt://127.0.0.1:1"] + extra)
        #expect(await vigil.waitForExit())
        #expect(vigil.exitStatus == 2 && vigil.standardError.contains(message), "\(vigil.standardError)")
    }

    /// Refused credentials end `vigil publish` with status 1 and the broker's reason, instead of retrying forever.
    @Test func refusedCredentialsEndTheRunWithStatusOne() async throws {
        let broker = try FakeBroker(.refusesCredentials)
        defer { broker.stop() }
        let vigil = try ChildProcess(vigil: [
            "publish", "--broker", "mqtt://127.0.0.1:\(broker.port)", "--username", "u", "memory",
        ])
        #expect(await vigil.waitForExit(within: 30))
        #expect(vigil.exitStatus == 1, "\(vigil.standardError)")
        #expect(vigil.standardError.contains("bad user name or password"), "\(vigil.standardError)")
        #expect(broker.accepted == 1)
    }
}
