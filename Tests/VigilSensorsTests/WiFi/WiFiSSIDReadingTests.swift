import Foundation
import Testing
import Vigil
import VigilSensors
import VigilTestSupport

/// A network whose name is not UTF-8, read through a replayed nl80211: the reading keeps the exact bytes, its JSON
/// (what `vigil … --json` prints) carries them as an array of byte values, and its text shows them escaped.
@Suite(.timeLimit(.minutes(10)))
struct WiFiSSIDReadingTests {
    /// `café` in Latin-1: 0xE9 alone is not UTF-8.
    static let latin1: [UInt8] = [0x63, 0x61, 0x66, 0xE9]

    /// The part of a `wifi` reading's JSON the test reads: the names must decode as arrays of bytes.
    struct JSONShape: Decodable {
        struct Interface: Decodable {
            struct Connection: Decodable { var ssid: [UInt8] }
            var ssid: [UInt8]
            var connection: Connection
        }
        var interfaces: [Interface]
    }

    @Test func anSSIDThatIsNotUTF8IsBytesInJSONAndEscapedInText() async throws {
        let loop = EventLoop()
        defer { loop.shutdown() }
        let kernel = ReplayNL80211Kernel()
        let index = ReplayNL80211Kernel.interfaceIndex
        kernel.set(
            interfaces: [ReplayNL80211Kernel.interface(index: index, name: "wlan0", ssidBytes: Self.latin1)],
            scan: [
                ReplayNL80211Kernel.associatedBSS(
                    interface: index, bssid: [0x02, 0, 0, 0, 0x01, 0], ssid: Self.latin1, frequency: 2412,
                    signalMBm: -3000)
            ],
            stations: [])
        let monitor = WiFiMonitorTests.monitor(kernel, loop: loop)
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        #expect(await eventually(within: 20) { WiFiMonitorTests.status(monitor)?.isConnected == true })
        let reading = monitor.readings.value
        let ssid = try #require(reading.value?.interfaces.first?.connection?.ssid)
        #expect(ssid.bytes == Self.latin1 && ssid.string == nil)

        // JSON: the array of the bytes, never a string with U+FFFD in place of 0xE9.
        let json = try JSONEncoder().encode(reading)
        let text = String(decoding: json, as: UTF8.self)
        let decoded = try JSONDecoder().decode(JSONShape.self, from: json)
        #expect(decoded.interfaces.map(\.connection.ssid) == [Self.latin1], "\(text)")
        #expect(decoded.interfaces.map(\.ssid) == [Self.latin1], "\(text)")
        #expect(!text.contains("caf"), "no look-alike string of the name: \(text)")

        // Text: the byte that is not UTF-8 escaped, as `iw` shows it.
        #expect(
            reading.description == #"wlan0 managed connected to "caf\xe9" (02:00:00:00:01:00) 2412 MHz -30 dBm"#,
            "\(reading.description)")
    }
}
