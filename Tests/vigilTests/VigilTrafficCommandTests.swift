import Foundation
import Glibc
import Testing
import VigilSensors
import VigilTestSupport

/// Traffic counters end to end, in namespaces of the test's own joined by a veth: `vigil watch network` prints
/// rates from the second reading on, and `vigil serve` exports the counters of a watched namespace as `ip` counts
/// them.
@Suite(
    .timeLimit(.minutes(10)),
    .enabled(if: NetlinkTestNamespace.isRoot, "needs root to create network namespaces (ip netns add)"))
struct VigilTrafficCommandTests {
    /// The JSON objects of the lines printed so far.
    private func objects(_ output: String) -> [[String: Any]] {
        output.split(separator: "\n").compactMap { line in
            try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        }
    }

    private func v0(_ object: [String: Any]) -> [String: Any]? {
        (object["interfaces"] as? [[String: Any]])?.first { $0["name"] as? String == "v0" }
    }

    @Test func watchNetworkJSONCarriesCountersAndRatesFromTheSecondReading() async throws {
        let veth = try VethTransfer()
        defer { veth.remove() }
        let vigil = try ChildProcess(vigil: [
            "watch", "network", "--json", "--netns", veth.near.name, "--interval", "200ms",
        ])
        defer { if vigil.isRunning { vigil.signal(SIGKILL) } }
        #expect(await eventually(within: 20) { vigil.standardOutput.contains("\n") }, "\(vigil.standardError)")
        let first = try #require(objects(vigil.standardOutput).first.flatMap(v0))
        let traffic = try #require(first["traffic"] as? [String: Any])
        #expect((traffic["transmit"] as? [String: Any])?["bytes"] is NSNumber)
        #expect(first["rates"] == nil, "one reading has no rate")

        var rates: [String: Any]?
        let moving = await eventually(within: 30) {
            try? veth.sendDatagrams(5, payload: 1000)
            rates = objects(vigil.standardOutput).compactMap { self.v0($0)?["rates"] as? [String: Any] }.last {
                ($0["transmitBytesPerSecond"] as? Double ?? 0) > 0
            }
            return rates != nil
        }
        #expect(moving, "\(vigil.standardOutput.suffix(2000))")
        #expect(rates?["transmitPacketsPerSecond"] as? Double ?? 0 > 0)
        #expect(rates?["receiveBytesPerSecond"] as? Double == 0, "nothing answers the silent peer")
        // Once the datagrams stop, a refresh finds the counters still and the rate falls to zero.
        #expect(
            await eventually(within: 30) {
                let last = objects(vigil.standardOutput).last.flatMap(v0)?["rates"] as? [String: Any]
                return last?["transmitBytesPerSecond"] as? Double == 0
            })
        vigil.signal(SIGINT)
        #expect(await vigil.waitForExit())
        #expect(vigil.exitStatus == 130)
    }

    @Test func watchNetworkLinesShowTheRates() async throws {
        let veth = try VethTransfer()
        defer { veth.remove() }
        let vigil = try ChildProcess(vigil: ["watch", "network", "--netns", veth.near.name, "--interval", "200ms"])
        defer { if vigil.isRunning { vigil.signal(SIGKILL) } }
        #expect(await eventually(within: 20) { vigil.standardOutput.contains("v0: ") }, "\(vigil.standardError)")
        let shown = await eventually(within: 30) {
            try? veth.sendDatagrams(5, payload: 1000)
            return vigil.standardOutput.split(separator: "\n").contains { line in
                let v0 = line.split(separator: "; ").first { $0.hasPrefix("v0: ") } ?? ""
                return v0.contains(" pkt/s, tx ") && !v0.contains("tx 0 B/s")
            }
        }
        #expect(shown, "\(vigil.standardOutput.suffix(2000))")
        vigil.signal(SIGINT)
        #expect(await vigil.waitForExit())
    }

    /// `--netns`: the counters come with the watched namespace's links, not from vigil's own `/proc/net/dev`.
    @Test func serveExportsTheCountersOfAWatchedNamespaceAsIPCountsThem() async throws {
        let veth = try VethTransfer()
        defer { veth.remove() }
        let (serve, port) = try startServe(["network", "--netns", veth.near.name])
        try veth.sendDatagrams(4, payload: 500)
        var oracle = try VethTransfer.ipTraffic("v0", in: veth.near)
        var exposition = ""
        func sample(_ name: String) -> Double? {
            let prefix = name + #"{interface="v0"} "#
            return exposition.split(separator: "\n").first { $0.hasPrefix(prefix) }.flatMap {
                Double($0.dropFirst(prefix.count))
            }
        }
        let agreed = await eventually(within: 30) {
            exposition = LoopbackClient.get(port: port, "/metrics")?.body ?? ""
            oracle = (try? VethTransfer.ipTraffic("v0", in: veth.near)) ?? oracle
            return sample("vigil_network_transmit_packets_total") == Double(oracle.transmit.packets)
                && sample("vigil_network_transmit_bytes_total") == Double(oracle.transmit.bytes)
        }
        #expect(agreed, "ip: \(oracle); \(exposition)")
        #expect(oracle.transmit.packets >= 4)
        #expect(sample("vigil_network_receive_packets_total") == Double(oracle.receive.packets))
        #expect(sample("vigil_network_transmit_errs_total") == 0 && sample("vigil_network_receive_drop_total") == 0)
        #expect(exposition.contains("# TYPE vigil_network_transmit_bytes_total counter"))
        #expect(await serve.stop() == 143)
    }
}
