import Testing
import VigilSensors
import VigilTestSupport

/// `vigil` with the `wifi` source on this machine's kernel: where nl80211 is missing, every command says what is.
@Suite(.timeLimit(.minutes(5)))
struct WiFiCommandTests {
    @Test func withoutNL80211ListAndGetSayWhatIsMissing() async throws {
        guard try GenericNetlinkClient.open().family(named: "nl80211") == nil else {
            try skip("this kernel has nl80211 (cfg80211 is loaded)", expectedUnderCI: true)
        }
        let list = try ChildProcess(vigil: ["list"])
        #expect(await list.waitForExit())
        let row = list.standardOutput.split(separator: "\n").first { $0.hasPrefix("wifi ") }
        #expect(row?.contains("unavailable (no such device)") == true, "\(list.standardOutput)")
        let get = try ChildProcess(vigil: ["get", "wifi"])
        #expect(await get.waitForExit())
        #expect(get.exitStatus == 1)
        #expect(get.standardError.contains("no Wi-Fi driver is loaded"), "\(get.standardError)")
    }
}
