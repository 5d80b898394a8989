import Foundation
import Glibc
import Testing
import VigilTestSupport

/// The Home Assistant discovery configs `vigil publish --homeassistant` sends, rendered by a real Jinja2 against every
/// payload a run published: pending, unavailable and elements gone from a later reading included. Jinja2 runs with
/// `StrictUndefined`, so a template that reads a field a payload lacks fails here as it raised `UndefinedError` in
/// Home Assistant.
@Suite(.timeLimit(.minutes(5)))
struct HomeAssistantTemplateTests {
    /// A Python with Jinja2: the one `.ci/setup` installs from PyPI into a virtual environment, else the system's.
    static var pythonWithJinja: String? {
        let home = String(cString: getenv("HOME") ?? strdup("/root"))
        let cache = getenv("XDG_CACHE_HOME").map { String(cString: $0) } ?? home + "/.cache"
        for python in [cache + "/vigil-ci/venv/bin/python3", "/usr/bin/python3"] {
            guard access(python, X_OK) == 0 else { continue }
            var status: Int32 = 0
            var child: pid_t = 0
            let argv: [UnsafeMutablePointer<CChar>?] = [strdup(python), strdup("-c"), strdup("import jinja2"), nil]
            defer { for pointer in argv { free(pointer) } }
            guard posix_spawn(&child, python, nil, nil, argv, nil) == 0 else { continue }
            waitpid(child, &status, 0)
            if status == 0 { return python }
        }
        return nil
    }

    /// Renders every config's value template and availability templates against every payload of its state topic.
    static let renderer = #"""
        import json, sys
        from jinja2 import Environment, StrictUndefined
        env = Environment(undefined=StrictUndefined)
        configs, payloads = {}, {}
        for line in open(sys.argv[1], encoding="utf-8"):
            topic, _, payload = line.rstrip("\n").partition(" ")
            if topic.startswith("homeassistant/"):
                configs[topic] = json.loads(payload)
            else:
                payloads.setdefault(topic, []).append(payload)
        failures, rendered, kinds = [], 0, set()
        for topic, config in configs.items():
            state = payloads.get(config["state_topic"], [])
            if not state:
                failures.append(f"{topic}: no payload on {config['state_topic']}")
            for payload in state:
                value_json = json.loads(payload)
                kinds.add(value_json["status"])
                try:
                    value = env.from_string(config["value_template"]).render(value_json=value_json, value=payload)
                    online = [env.from_string(a["value_template"]).render(value_json=value_json, value=payload)
                              for a in config.get("availability", []) if a["topic"] == config["state_topic"]]
                except Exception as error:
                    failures.append(f"{topic} on {payload[:160]}: {type(error).__name__}: {error}")
                    continue
                rendered += 1
                if online != (["online"] if value_json["status"] == "ok" else ["offline"]):
                    failures.append(f"{topic}: availability {online} for status {value_json['status']}")
                if value != "None" and topic.startswith("homeassistant/binary_sensor/"):
                    if value not in (config["payload_on"], config["payload_off"]):
                        failures.append(f"{topic}: {value!r} is neither on nor off on {payload[:160]}")
                elif value != "None":
                    try:
                        float(value)
                    except ValueError:
                        failures.append(f"{topic}: {value!r} is not a number on {payload[:160]}")
        print(json.dumps({"configs": len(configs), "rendered": rendered, "statuses": sorted(kinds),
                          "failures": failures}))
        """#

    @Test func everyTemplateRendersEveryPayloadOfARun() async throws {
        guard let python = Self.pythonWithJinja else {
            try skip("no Python with Jinja2 (.ci/setup installs Jinja2 from PyPI)", expectedUnderCI: false)
        }
        let broker = try await Mosquitto()
        let scratch = TemporaryDirectory("vigil-jinja")
        let sys = FakeSysfsTree(root: scratch.path + "/sys")
        sys.device("class/power_supply/BAT0", FakeMachine.energyBattery)
        scratch.write("sys/class/thermal/thermal_zone0/type", "acpitz\n")
        scratch.write("sys/class/thermal/thermal_zone0/temp", "45000\n")
        scratch.write("sys/class/thermal/thermal_zone1/type", "x86_pkg_temp\n")
        scratch.write("sys/class/thermal/thermal_zone1/temp", "52000\n")
        // A HID hub's heading and quaternion: the compass (with a true heading) and the attitude's angles.
        let iio = FakeIIOTree(at: sys.root)
        iio.addHeadingChannel(0, raw: "1234")
        iio.addQuaternionChannel(1, raw: "0 0 7071068 7071068", scale: "0.0000001")
        let subscriber = try broker.subscribe("#")
        let vigil = try ChildProcess(vigil: [
            "--sys-root", sys.root, "publish", "--broker", "mqtt://127.0.0.1:\(broker.port)", "--topic", "vigil/j",
            "--homeassistant", "--interval", "100ms", "--declination", "10", "thermal", "battery", "memory", "cpu",
            "storage", "compass", "attitude", "network", "reach", "127.0.0.1:9", "::1",
        ])
        let configs = { subscriber.standardOutput.components(separatedBy: "/config ").count - 1 }
        #expect(
            await eventually(within: 30) { configs() >= 14 }, "\(subscriber.standardOutput)\n\(vigil.standardError)")
        // Later readings without what the configs were made from: a zone without a temperature, a battery gone, then
        // a thermal class that cannot be read at all (unavailable).
        scratch.write("sys/class/thermal/thermal_zone1/temp", "nan\n")
        _ = try? FileManager.default.removeItem(atPath: sys.root + "/class/power_supply/BAT0")
        #expect(await eventually(within: 10) { subscriber.standardOutput.contains("cannot parse") })
        _ = try? FileManager.default.removeItem(atPath: sys.root + "/class/thermal")
        scratch.write("sys/class/thermal", "not a directory\n")
        #expect(
            await eventually(within: 10) {
                subscriber.standardOutput.split(separator: "\n").contains {
                    $0.hasPrefix("vigil/j/thermal ") && $0.contains(#""status":"unavailable""#)
                }
            }, "\(subscriber.standardOutput)")
        #expect(await vigil.stop() != nil)
        await subscriber.stop()
        await broker.stop()
        scratch.write("run.txt", subscriber.standardOutput)
        let render = try ChildProcess(python, ["-c", Self.renderer, scratch.path + "/run.txt"])
        #expect(await render.waitForExit())
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(render.standardOutput.utf8)) as? [String: Any],
            "\(render.standardOutput)\(render.standardError)")
        #expect((report["failures"] as? [String])?.isEmpty == true, "\(report["failures"] ?? "")")
        #expect((report["configs"] as? Int ?? 0) >= 14 && (report["rendered"] as? Int ?? 0) >= 18, "\(report)")
        // The network's traffic counters, for every interface but loopback this machine has (CI's has eth0).
        let interfaces = (try? FileManager.default.contentsOfDirectory(atPath: "/sys/class/net")) ?? []
        let counted = interfaces.filter { $0 != "lo" && $0.allSatisfy { $0.isLetter || $0.isNumber } }
        for interface in counted {
            for direction in ["receive", "transmit"] {
                #expect(
                    subscriber.standardOutput.contains("/network_\(interface)_\(direction)_bytes/config "),
                    "no \(direction) counter of \(interface)")
            }
        }
        #expect(!subscriber.standardOutput.contains("/network_lo_"), "loopback has no sensor")
        #expect(subscriber.standardOutput.contains(#""state_class":"total_increasing""#) || counted.isEmpty)
        for object in ["compass", "compass_true", "attitude_yaw", "attitude_pitch", "attitude_roll"] {
            #expect(subscriber.standardOutput.contains("/\(object)/config "), "no \(object) sensor")
        }
        // reach: a connectivity binary sensor per target, and one for the port of the target that has one.
        for object in ["reach_127_0_0_1_9", "reach___1", "reach_tcp_127_0_0_1_9"] {
            #expect(
                subscriber.standardOutput.contains("homeassistant/binary_sensor/")
                    && subscriber.standardOutput.contains("/\(object)/config "), "no \(object) binary sensor")
        }
        #expect(!subscriber.standardOutput.contains("/reach_tcp___1/config "), "no port, no TCP sensor")
        #expect((report["statuses"] as? [String])?.contains("unavailable") == true, "\(report)")
    }
}
