import Foundation
import Glibc
import Testing

/// `vigil watch network` and `vigil watch devices` end to end, inside a namespace of the test's own.
@Suite(
    .timeLimit(.minutes(10)),
    .enabled(if: NetlinkTestNamespace.isRoot, "needs root to create network namespaces (ip netns add)"))
struct VigilNetworkCommandTests {
    @Test func watchNetworkJSONInNamespaceShowsANewInterface() async throws {
        let namespace = try NetlinkTestNamespace()
        defer { namespace.remove() }
        let vigil = try VigilProcess(["watch", "network", "--json", "--netns", namespace.name])
        defer { if vigil.isRunning { vigil.signal(SIGKILL) } }
        #expect(await eventually(within: 20) { vigil.standardOutput.contains("\n") }, "\(vigil.standardError)")
        let first = try #require(vigil.standardOutput.split(separator: "\n").first)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: Any])
        let reading = try #require(object["reading"] as? [String: Any])
        #expect(object["source"] as? String == "network")
        #expect(reading["isConnected"] as? Bool == false)
        let interfaces = try #require(reading["interfaces"] as? [[String: Any]])
        #expect(interfaces.map { $0["name"] as? String } == ["lo"], "the first line is the complete first dump")

        try namespace.ip("link", "add", "cli0", "type", "veth", "peer", "name", "cli1")
        #expect(await eventually(within: 20) { vigil.standardOutput.contains("\"name\":\"cli0\"") })
        vigil.signal(SIGINT)
        #expect(await vigil.waitForExit())
        #expect(vigil.exitStatus == 0)
    }

    @Test func watchDevicesInNamespacePrintsUevents() async throws {
        let namespace = try NetlinkTestNamespace()
        defer { namespace.remove() }
        let vigil = try VigilProcess(["watch", "devices", "--netns", namespace.name])
        defer { if vigil.isRunning { vigil.signal(SIGKILL) } }
        #expect(await eventually(within: 20) { vigil.standardError.contains("watching") }, "\(vigil.standardError)")
        try namespace.ip("link", "add", "cli2", "type", "veth", "peer", "name", "cli3")
        #expect(
            await eventually(within: 20) { vigil.standardOutput.contains("devices: add net /devices/virtual/net/cli2") }
        )
        vigil.signal(SIGINT)
        #expect(await vigil.waitForExit())
        #expect(vigil.exitStatus == 0)
    }
}
