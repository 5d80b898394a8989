import Foundation
import Glibc
import Testing
import VigilTestSupport

/// `vigil watch network` and `vigil watch devices` end to end, inside a namespace of the test's own.
@Suite(
    .timeLimit(.minutes(10)),
    .enabled(if: NetlinkTestNamespace.isRoot, "needs root to create network namespaces (ip netns add)"))
struct VigilNetworkCommandTests {
    @Test func watchNetworkJSONInNamespaceShowsANewInterface() async throws {
        let namespace = try NetlinkTestNamespace()
        defer { namespace.remove() }
        let vigil = try ChildProcess(vigil: ["watch", "network", "--json", "--netns", namespace.name])
        defer { if vigil.isRunning { vigil.signal(SIGKILL) } }
        #expect(await eventually(within: 20) { vigil.standardOutput.contains("\n") }, "\(vigil.standardError)")
        let first = try #require(vigil.standardOutput.split(separator: "\n").first)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: Any])
        let reading = object
        #expect(object["source"] as? String == "network")
        #expect(reading["isConnected"] as? Bool == false)
        #expect(object["status"] as? String == "ok")
        #expect(object["network"] as? String == "unsatisfied")
        #expect(object["networkReason"] as? String == "no interface is up")
        let interfaces = try #require(reading["interfaces"] as? [[String: Any]])
        #expect(interfaces.map { $0["name"] as? String } == ["lo"], "the first line is the complete first dump")

        try namespace.ip("link", "add", "cli0", "type", "veth", "peer", "name", "cli1")
        #expect(await eventually(within: 20) { vigil.standardOutput.contains("\"name\":\"cli0\"") })
        vigil.signal(SIGINT)
        #expect(await vigil.waitForExit())
        #expect(vigil.exitStatus == 130)
    }

    @Test func watchDevicesInNamespacePrintsUevents() async throws {
        let namespace = try NetlinkTestNamespace()
        defer { namespace.remove() }
        let vigil = try ChildProcess(vigil: ["watch", "devices", "--netns", namespace.name])
        defer { if vigil.isRunning { vigil.signal(SIGKILL) } }
        #expect(await eventually(within: 20) { vigil.standardError.contains("watching") }, "\(vigil.standardError)")
        try namespace.ip("link", "add", "cli2", "type", "veth", "peer", "name", "cli3")
        #expect(
            await eventually(within: 20) { vigil.standardOutput.contains("devices: add net /devices/virtual/net/cli2") }
        )
        vigil.signal(SIGINT)
        #expect(await vigil.waitForExit())
        #expect(vigil.exitStatus == 130)
    }

    @Test func watchNetworkChangesPrintsOneLinePerIPChange() async throws {
        let namespace = try NetlinkTestNamespace()
        defer { namespace.remove() }
        let vigil = try ChildProcess(vigil: ["watch", "network", "--changes", "--netns", namespace.name])
        defer { if vigil.isRunning { vigil.signal(SIGKILL) } }
        #expect(
            await eventually(within: 20) { vigil.standardOutput.contains("network: status ") }, "\(vigil.standardError)"
        )
        #expect(vigil.standardOutput.split(separator: "\n").count == 1, "the first snapshot only sets the baseline")
        func lines() -> [String] { vigil.standardOutput.split(separator: "\n").dropFirst().map(String.init) }

        try namespace.ip("link", "add", "dummy7", "type", "veth", "peer", "name", "peer7")
        #expect(await eventually(within: 20) { lines().contains { $0.hasPrefix("network: link add dummy7") } })
        try namespace.ip("address", "add", "10.77.0.1/24", "dev", "dummy7")
        #expect(
            await eventually(within: 20) { lines().contains("network: address add 10.77.0.1/24 dev dummy7") },
            "\(lines())")
        try namespace.ip("link", "del", "dummy7")
        #expect(await eventually(within: 20) { lines().contains("network: link del dummy7") }, "\(lines())")
        vigil.signal(SIGINT)
        #expect(await vigil.waitForExit())
        #expect(vigil.exitStatus == 130)
        let all = lines()
        #expect(all.filter { $0.hasPrefix("network: link add") }.count == 2, "dummy7 and its peer: \(all)")
        #expect(all.filter { $0.hasPrefix("network: address add") }.count == 1, "\(all)")
        #expect(all.allSatisfy { $0.count < 200 }, "one short line per change: \(all)")
    }

    @Test func watchDevicesSubsystemFiltersUevents() async throws {
        let namespace = try NetlinkTestNamespace()
        defer { namespace.remove() }
        let vigil = try ChildProcess(vigil: [
            "watch", "devices", "--subsystem", "queues", "--json", "--netns", namespace.name,
        ])
        defer { if vigil.isRunning { vigil.signal(SIGKILL) } }
        #expect(await eventually(within: 20) { vigil.standardError.contains("watching") }, "\(vigil.standardError)")
        try namespace.ip("link", "add", "cli4", "type", "veth", "peer", "name", "cli5")
        #expect(await eventually(within: 20) { vigil.standardOutput.contains("cli4") }, "\(vigil.standardOutput)")
        vigil.signal(SIGINT)
        #expect(await vigil.waitForExit())
        let objects = try VigilOutput.objects(vigil.standardOutput)
        #expect(!objects.isEmpty)
        #expect(objects.allSatisfy { $0["subsystem"] as? String == "queues" })
    }
}
