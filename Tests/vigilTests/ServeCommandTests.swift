import Foundation
import Glibc
import Testing
import VigilTestSupport

/// `vigil serve` end to end: the built binary, promtool, and a real Prometheus server, all on loopback.
@Suite(.timeLimit(.minutes(10)))
struct ServeCommandTests {
    /// A fake machine whose values are hostile to an exposition writer: quotes, backslashes and newlines in names
    /// and labels, values at their limits and beyond what a Double holds.
    static func hostileMachine(_ scratch: TemporaryDirectory) -> (sys: String, proc: String) {
        let sys = "sys"
        let battery = "class/power_supply/BAT\"0\\x"
        for (name, value) in [
            "type": "Battery", "status": "Discharging", "present": "1", "technology": "Li-ion", "cycle_count": "123",
            "voltage_now": "11850000", "power_now": "9450000", "energy_full_design": "57020000",
            "energy_full": "50120000", "energy_now": "31500000", "capacity": "162", "capacity_level": "Normal",
            "temp": "-400",
        ] {
            scratch.write("\(sys)/\(battery)/\(name)", value + "\n")
        }
        scratch.write("\(sys)/class/power_supply/AC\nline/type", "Mains\n")
        scratch.write("\(sys)/class/power_supply/AC\nline/online", "1\n")
        scratch.write("\(sys)/class/thermal/thermal_zone0/type", "acpi\"tz\\\n")
        scratch.write("\(sys)/class/thermal/thermal_zone0/temp", "1000000\n")
        scratch.write("\(sys)/class/thermal/thermal_zone0/trip_point_0_type", "critical\n")
        scratch.write("\(sys)/class/thermal/thermal_zone0/trip_point_0_temp", "-274000\n")
        scratch.write("\(sys)/class/thermal/thermal_zone1/type", "x\n")
        scratch.write("\(sys)/class/thermal/thermal_zone1/temp", "not a number\n")
        scratch.write("\(sys)/class/hwmon/hwmon0/name", "k10temp\n")
        scratch.write("\(sys)/class/hwmon/hwmon0/temp1_input", "-273150\n")
        scratch.write("\(sys)/class/hwmon/hwmon0/temp1_label", "Tdie \"quoted\" \\ back\n")
        scratch.write("\(sys)/class/hwmon/hwmon0/fan1_input", "1000000\n")
        scratch.write("\(sys)/class/hwmon/hwmon0/in0_input", "-1000000\n")
        scratch.write("\(sys)/class/hwmon/hwmon0/in1_input", "99999999999999999999\n")
        scratch.write("\(sys)/class/backlight/panel\"1/brightness", "4800\n")
        scratch.write("\(sys)/class/backlight/panel\"1/max_brightness", "9600\n")
        scratch.write("\(sys)/class/backlight/panel\"1/actual_brightness", "20000\n")
        // A display whose EDID names it with a quote and a backslash, which the info metric's label must escape.
        let drm = FakeSysfsTree(root: scratch.path + "/" + sys)
        drm.device("class/drm/card0-DP-1", ["status": "connected", "enabled": "enabled", "modes": "2560x1440"])
        var edid = Fixtures.edid("monitor-dell-u2719d-dp-cta.bin") ?? []
        if let name = stride(from: 54, to: 126, by: 18).first(where: { edid.count >= 128 && edid[$0 + 3] == 0xFC }) {
            edid[name + 5] = UInt8(ascii: "\"")
            edid[name + 6] = UInt8(ascii: "\\")
            edid[127] = 0 &- edid[0..<127].reduce(0, &+)
        }
        drm.write("class/drm/card0-DP-1/edid", bytes: edid)
        // Input devices and a sound card whose names hold a quote, a backslash and a newline; the first is a lid switch
        // whose node is nowhere under the tool's /dev, so it is not up.
        let lid = drm.classDevice(
            "input", "input0", parent: nil,
            [
                "name": "Lid \"Switch\" \\", "id/bustype": "0019", "id/product": "0005", "capabilities/ev": "21",
                "capabilities/sw": "1",
            ])
        drm.makeDirectory(lid + "/event0")
        drm.link(lid + "/event0/device", to: "..")
        drm.link("class/input/event0", to: "../../" + lid + "/event0")
        drm.classDevice("input", "input1", parent: nil, ["name": "line\nbreak", "capabilities/ev": "ffffffff"])
        scratch.write("proc/asound/cards", " 0 [Q\"uote         ]: USB-Audio - a \\ b\n   long\n")
        let devices: [(String, [String: String])] = [
            (
                "bmi160",
                ["in_accel_x_raw": "100", "in_accel_y_raw": "-981", "in_accel_z_raw": "0", "in_accel_scale": "0.01"]
            ),
            ("light\"\\", ["in_illuminance_raw": "-5", "in_illuminance_scale": "0.5"]),
            ("prox", ["in_proximity_raw": "2147483647", "in_proximity_nearlevel": "10"]),
            ("baro", ["in_pressure_input": "0"]),
            ("magn", ["in_magn_x_raw": "1", "in_magn_y_raw": "2", "in_magn_z_raw": "3", "in_magn_scale": "1e308"]),
            ("gyro", ["in_anglvel_x_raw": "9223372036854775807", "in_anglvel_y_raw": "0", "in_anglvel_z_raw": "0"]),
        ]
        for (index, (name, files)) in devices.enumerated() {
            let device = "\(sys)/bus/iio/devices/iio:device\(index)"
            scratch.write("\(device)/name", name + "\n")
            for (file, text) in files { scratch.write("\(device)/\(file)", text + "\n") }
        }
        scratch.write("\(sys)/class/dmi/id/sys_vendor", "Vendor \"quoted\" \\ back\n")
        scratch.write("\(sys)/class/dmi/id/product_name", "line\nbreak\n")
        scratch.write("\(sys)/class/dmi/id/chassis_type", "300\n")
        // Suspend statistics with a device name that needs escaping and counters at the kernel's `%u` maximum.
        for (name, value) in [
            "success": "4294967295", "fail": "1", "failed_freeze": "1", "last_failed_dev": "usb\"1\\x",
            "last_failed_errno": "-16", "last_failed_step": "freeze", "total_hw_sleep": "18446744073709551615",
        ] {
            scratch.write("\(sys)/power/suspend_stats/\(name)", value + "\n")
        }
        scratch.write("proc/sys/kernel/hostname", "host\"\\name\n")
        scratch.write("proc/stat", "cpu  10 0 10 100 0\ncpu0 5 0 5 50 0\ncpu1 5 0 5 50 0\n")
        scratch.write(
            "proc/meminfo",
            "MemTotal: 17179869184 kB\nMemFree: 0 kB\nMemAvailable: 17179869184 kB\nSwapTotal: 1 kB\nSwapFree: 2 kB\n")
        scratch.write(
            "proc/pressure/memory",
            "some avg10=100.00 avg60=0.00 avg300=0.00 total=18446744073709551615\n"
                + "full avg10=99.99 avg60=0.01 avg300=0.00 total=0\n")
        return (scratch.path + "/" + sys, scratch.path + "/proc")
    }

    @Test func promtoolAcceptsTheExpositionOfEverySourceOnAHostileFakeMachine() async throws {
        guard let promtool = ChildProcess.installed("promtool") else {
            try skip(
                "promtool is not installed (Debian package prometheus; .ci/setup installs it)", expectedUnderCI: false)
        }
        let scratch = TemporaryDirectory("vigil-promtool")
        let (sys, proc) = Self.hostileMachine(scratch)
        let watched = scratch.path + "/watched"
        scratch.write("watched/.keep", "")
        let (serve, port) = try startServe(
            ["files", watched], globals: ["--sys-root", sys, "--proc-root", proc])
        scratch.write("dev/.keep", "")
        let (all, allPort) = try startServe(
            [], globals: ["--sys-root", sys, "--proc-root", proc, "--dev-root", scratch.path + "/dev"])
        var exposition = ""
        let families = [
            "vigil_power_supply_capacity_ratio", "vigil_thermal_zone_temp_celsius", "vigil_hwmon_temp_celsius",
            "vigil_backlight_brightness_ratio", "vigil_accelerometer_meters_per_second_squared",
            "vigil_ambient_light_lux", "vigil_cpu_busy_ratio", "vigil_memory_total_bytes",
            "vigil_pressure_memory_waiting_seconds_total", "vigil_network_up", "vigil_filesystem_size_bytes",
            "vigil_clock_changes_total", "vigil_netlink_overflows_total", "vigil_display_connected",
            "vigil_display_info", "vigil_dmi_info", "vigil_uname_info", "vigil_device_info",
            "vigil_suspend_slept_seconds_total", "vigil_suspend_failed_steps_total", "vigil_suspend_last_failure_info",
            "vigil_inventory_devices", "vigil_inventory_input_info", "vigil_inventory_sound_card_info",
            "vigil_switch_device_up",
        ]
        let complete = eventually(timeout: 30) {
            exposition = LoopbackClient.get(port: allPort, "/metrics")?.body ?? ""
            return families.allSatisfy { exposition.contains("\n" + $0) }
        }
        let missing = families.filter { !exposition.contains("\n" + $0) }
        #expect(complete, "missing families \(missing) in:\n\(exposition)")
        // The display's info names it (the quote and backslash escaped) and never carries its serial number.
        #expect(exposition.contains(#"manufacturer="DEL",name="\"\\LL U2719D",product="415A""#), "\(exposition)")
        // The inventory counts by kind and names input devices and sound cards, escaped.
        #expect(exposition.contains(#"vigil_inventory_devices{kind="input"} 2"#), "\(exposition)")
        #expect(exposition.contains(#"name="Lid \"Switch\" \\""#), "\(exposition)")
        #expect(exposition.contains(#"name="line\nbreak""#), "\(exposition)")
        #expect(exposition.contains(#"id="Q\"uote""#), "\(exposition)")
        #expect(!exposition.contains("H07VSS2") && !exposition.contains("1144075351"))
        #expect(
            exposition.contains(#"vigil_switch_device_up{device="event0",name="Lid \"Switch\" \\"} 0"#),
            "\(exposition)")
        let files = LoopbackClient.get(port: port, "/metrics")?.body ?? ""
        #expect(files.contains("vigil_file_events_total{kind=\"created\",path=\"\(watched)\"} 0"))
        for (name, text) in [("all", exposition), ("files", files)] {
            scratch.write("\(name).prom", text)
            let check = try ChildProcess(promtool, ["check", "metrics"], standardInput: scratch.path + "/\(name).prom")
            #expect(await check.waitForExit())
            #expect(
                check.exitStatus == 0 && check.standardOutput.isEmpty && check.standardError.isEmpty,
                "promtool check metrics (\(name)): \(check.standardOutput)\(check.standardError)\n\(text)")
        }
        #expect(await all.stop() == 143)
        #expect(await serve.stop() == 143)
    }

    @Test func writesATextfileAtomicallyAtAnInterval() async throws {
        let scratch = TemporaryDirectory("vigil-textfile")
        let target = scratch.path + "/vigil.prom"
        let child = try ChildProcess(vigil: ["serve", "memory", "clock", "--textfile", target, "--interval", "200ms"])
        var first = ""
        #expect(
            eventually(timeout: 20) {
                first = readWholeFile(target) ?? ""
                return first.contains("vigil_clock_changes_total 0")
            })
        #expect(first.hasPrefix("# HELP vigil_source_up"))
        // Rewritten: the file's inode changes with each rename.
        let inode = { (try? FileManager.default.attributesOfItem(atPath: target)[.systemFileNumber]) as? UInt64 }
        let before = inode()
        #expect(eventually(timeout: 20) { inode() != before })
        let status = await child.stop()
        #expect(status == 143, "exit status \(status.map(String.init) ?? "none"): \(child.standardError)")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: scratch.path).filter {
            $0.hasSuffix(".tmp")
        }
        #expect(leftovers.isEmpty)
    }

    @Test(arguments: [
        (["serve", "--listen", "localhost:1"], "--listen"), (["serve", "nope"], "unknown source"),
        (["serve", "--interval", "5s"], "--interval"),
        (["serve", "--textfile", "/x", "--interval", "0s"], "--interval"),
        (["serve", "files"], "needs PATH"),
    ])
    func refusesBadCommandLinesWithStatus2(arguments: [String], message: String) async throws {
        let child = try ChildProcess(vigil: arguments)
        #expect(await child.waitForExit())
        #expect(child.exitStatus == 2)
        #expect(child.standardError.contains(message), "\(child.standardError)")
    }

    @Test func printsItsHelp() async throws {
        for arguments in [["serve", "--help"], ["help", "serve"]] {
            let child = try ChildProcess(vigil: arguments)
            #expect(await child.waitForExit())
            #expect(child.exitStatus == 0)
            #expect(child.standardOutput.contains("vigil serve [--listen ADDRESS:PORT]"))
        }
    }

    @Test func staysNearlyIdleUnderTenScrapesASecond() async throws {
        let scratch = TemporaryDirectory("vigil-serve-cpu")
        let (serve, port) = try startServe(["cpu", "memory", "pressure", "files", scratch.path])
        let client = try LoopbackClient(port: port)
        let before = try #require(serve.cpuSeconds)
        let start = ContinuousClock.now
        for _ in 0..<50 {
            client.send("GET /metrics HTTP/1.1\r\nHost: a\r\n\r\n")
            #expect(client.readResponse()?.status == 200)
            usleep(100_000)
        }
        let elapsed = ContinuousClock.now - start
        let used = try #require(serve.cpuSeconds) - before
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        // Generous: a scrape renders a few kilobytes; measured well under 5 % on the CI machine.
        #expect(used < 0.25 * seconds, "vigil serve used \(used) s of CPU in \(seconds) s at 10 scrapes a second")
        print("vigil serve CPU: \(used) s in \(seconds) s with 10 scrapes a second")
        #expect(await serve.stop() == 143)
    }

    @Test func aRealPrometheusScrapesItAndSeesAFileEventCounterRise() async throws {
        guard let prometheus = ChildProcess.installed("prometheus") else {
            try skip(
                "prometheus is not installed (Debian package prometheus; .ci/setup installs it)", expectedUnderCI: false
            )
        }
        let scratch = TemporaryDirectory("vigil-prometheus")
        let watched = scratch.path + "/watched"
        scratch.write("watched/.keep", "")
        let (serve, vigilPort) = try startServe(["files", watched])
        scratch.write(
            "prometheus.yml",
            """
            global:
              scrape_interval: 1s
            scrape_configs:
              - job_name: vigil
                static_configs:
                  - targets: ["127.0.0.1:\(vigilPort)"]

            """)
        let (server, prometheusPort) = try await startPrometheus(prometheus, in: scratch)
        func query(_ expression: String) -> Double? { prometheusValue(port: prometheusPort, expression) }
        #expect(
            await eventually(within: 90) { query("up{job=\"vigil\"}") == 1 },
            "Prometheus never scraped vigil: \(server.standardError.suffix(2000))")
        let counter = "sum(vigil_file_events_total{job=\"vigil\",kind=\"created\"})"
        #expect(await eventually(within: 30) { query(counter) == 0 })
        #expect(FileManager.default.createFile(atPath: watched + "/touched", contents: nil))
        #expect(await eventually(within: 60) { (query(counter) ?? 0) >= 1 }, "the counter did not rise")
        #expect(await serve.stop() == 143)
        #expect(await server.stop() != nil)
    }
}
