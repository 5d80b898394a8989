import Foundation
import Testing
import VigilTestSupport

/// `vigil list` and `vigil watch` for the sysfs and procfs sources, end to end, on fake roots.
@Suite(.timeLimit(.minutes(10))) struct SystemCatalogCommandTests {
    @Test func listSaysPlainlyWhatAnEmptyMachineLacks() async throws {
        let tree = FakeSysfsTree()
        tree.makeDirectory("class/power_supply")
        let vigil = try ChildProcess(vigil: ["--sys-root", tree.root, "list"])
        #expect(await vigil.waitForExit())
        #expect(vigil.exitStatus == 0)
        let lines = vigil.standardOutput.split(separator: "\n")
        func line(_ id: String) -> String { lines.first { $0.hasPrefix(id + " ") }.map(String.init) ?? "" }
        #expect(line("battery").contains("this machine has no battery"))
        #expect(line("backlight").contains("this machine has no backlight"))
        #expect(line("displays").contains("no DRM driver"))
        #expect(line("inventory").hasSuffix("available"))
        #expect(line("hwmon").contains("this machine has no hardware-monitoring chips"))
        #expect(line("power").hasSuffix("available"))
        for id in ["cpu", "memory", "storage", "clock", "sleep"] { #expect(line(id).hasSuffix("available"), "\(id)") }
    }

    @Test func watchReadsTheFakeRootsAsJSONAndStopsOnSIGINT() async throws {
        let sys = FakeSysfsTree()
        sys.device("class/power_supply/BAT0", FakeMachine.energyBattery)
        let proc = FakeSysfsTree()
        proc.write("meminfo", "MemTotal: 1000 kB\nMemFree: 250 kB\nMemAvailable: 500 kB\n")
        let vigil = try ChildProcess(vigil: [
            "--sys-root", sys.root, "--proc-root", proc.root, "watch", "battery", "memory", "--json",
        ])
        #expect(
            await eventually {
                vigil.standardOutput.contains("\"source\":\"battery\"") && vigil.standardOutput.contains("usedFraction")
            })
        var capacity: Int?
        var used: Double?
        for line in vigil.standardOutput.split(separator: "\n") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let reading: [String: Any]? = object
            if object["source"] as? String == "battery", let supplies = reading?["supplies"] as? [[String: Any]] {
                capacity = supplies.first?["capacityPercent"] as? Int
                #expect(reading?["powerSource"] as? String == "on battery")
            }
            if object["source"] as? String == "memory", let fraction = reading?["usedFraction"] as? Double {
                used = fraction
            }
        }
        #expect(capacity == 62)
        #expect(used == 0.5)
        vigil.signal(SIGINT)
        #expect(await vigil.waitForExit())
        #expect(vigil.exitStatus == 130)
    }

    @Test func getDisplaysPrintsTheConnectorsAsALineAndAsJSON() async throws {
        let machine = FakeMachine.empty()
        machine.addDisplays()
        let line = try ChildProcess(vigil: ["--sys-root", machine.sys.root, "get", "displays"])
        #expect(await line.waitForExit())
        #expect(line.exitStatus == 0, "\(line.standardError)")
        #expect(line.standardOutput.contains("card0-eDP-1 (eDP, internal): connected"))
        #expect(line.standardOutput.contains("BOE NV156FHM-N4G, product 0x07AF"))
        #expect(line.standardOutput.contains("card0-HDMI-A-1 (HDMI-A): disconnected"))
        let json = try ChildProcess(vigil: ["--sys-root", machine.sys.root, "get", "displays", "--json"])
        #expect(await json.waitForExit())
        #expect(json.exitStatus == 0, "\(json.standardError)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        #expect(object["source"] as? String == "displays")
        let connectors = try #require(object["connectors"] as? [[String: Any]], "\(object)")
        let panel = try #require(connectors.first { $0["name"] as? String == "card0-eDP-1" })
        let edid = try #require(panel["edid"] as? [String: Any])
        #expect(edid["manufacturer"] as? String == "BOE")
        #expect(edid["productCode"] as? Int == 1967)
        #expect((edid["size"] as? [String: Any])?["kind"] as? String == "aspectRatio")
    }

    @Test func getInventoryPrintsTheDevicesAsALineAndAsJSON() async throws {
        let machine = FakeMachine.empty()
        machine.addInventory()
        let roots = ["--sys-root", machine.sys.root, "--proc-root", machine.proc.root]
        let line = try ChildProcess(vigil: roots + ["get", "inventory"])
        #expect(await line.waitForExit())
        #expect(line.exitStatus == 0, "\(line.standardError)")
        #expect(line.standardOutput.contains("sound cards: card0 PCH (HDA Intel PCH)"), "\(line.standardOutput)")
        #expect(line.standardOutput.contains("Bluetooth: hci0 (btusb, rfkill0 unblocked)"))
        #expect(line.standardOutput.contains("input0 \"Lid Switch\" switch (host, event0)"))
        // A fake tree's nodes are not under /dev: the capabilities are unknown, saying why.
        #expect(line.standardOutput.contains("video0 capabilities unknown (/dev/video0 is unavailable: not asked"))
        let json = try ChildProcess(vigil: roots + ["get", "inventory", "--json"])
        #expect(await json.waitForExit())
        #expect(json.exitStatus == 0, "\(json.standardError)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        #expect(object["source"] as? String == "inventory")
        let inputs = try #require(object["inputDevices"] as? [[String: Any]], "\(object)")
        #expect(inputs.map { $0["kind"] as? String } == ["switch", "keyboard", "touchpad"])
        #expect(inputs.first?["busType"] as? Int == 0x19)
        let cards = try #require(object["soundCards"] as? [[String: Any]])
        #expect(cards.first?["driver"] as? String == "HDA-Intel")
        let modems = try #require(object["modems"] as? [[String: Any]])
        #expect(modems.first?["networkInterfaces"] as? [String] == ["wwp0s20f0u3i4"])
    }
}
