import Testing
import Vigil
import VigilSensors
import VigilTestSupport

/// A roam (`NL80211_CMD_ROAM` on the `mlme` group) through a replayed nl80211: the event is published and the
/// connection is read again, with the new access point and its channel.
@Suite(.timeLimit(.minutes(10)))
struct WiFiMonitorRoamTests {
    @Test func aRoamIsPublishedAndTheNewAccessPointIsRead() async throws {
        let loop = EventLoop()
        defer { loop.shutdown() }
        let kernel = ReplayNL80211Kernel(connected: true)
        let monitor = WiFiMonitorTests.monitor(kernel, loop: loop)
        let events = FutexMutex<[WiFiEvent]>([])
        let subscription = monitor.events.subscribe { event in events.withLock { $0.append(event) } }
        defer { subscription.dispose() }
        try monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        #expect(
            await eventually(within: 20) {
                WiFiMonitorTests.status(monitor)?.interfaces.first?.connection?.bssid == "02:00:00:00:01:00"
            })

        // The station moves to another access point of Test-WIFI on 5180 MHz; the one it left stays in the scan
        // results, no longer associated.
        let newBSSID: [UInt8] = [0x02, 0, 0, 0, 0x01, 0x01]
        let left = try #require(Fixtures.bytes("nl80211/msg-new-scan-results-dump.bin"))
        kernel.set(
            interfaces: [
                ReplayNL80211Kernel.interface(
                    index: ReplayNL80211Kernel.interfaceIndex, name: "wlan0", ssidBytes: Array("Test-WIFI".utf8),
                    frequency: 5180)
            ],
            scan: [
                left,
                ReplayNL80211Kernel.associatedBSS(
                    interface: ReplayNL80211Kernel.interfaceIndex, bssid: newBSSID, ssid: Array("Test-WIFI".utf8),
                    frequency: 5180, signalMBm: -5500),
            ],
            stations: [])
        monitor.inject(datagram: try #require(ReplayNL80211Kernel.roamEvent(to: newBSSID)))

        #expect(
            await eventually(within: 20) {
                WiFiMonitorTests.status(monitor)?.interfaces.first?.connection?.bssid == "02:00:00:00:01:01"
            })
        let status = try #require(WiFiMonitorTests.status(monitor))
        let connection = try #require(status.interfaces.first?.connection)
        #expect(connection.ssid == "Test-WIFI" && connection.frequency == 5180 && connection.signal == -55)
        #expect(status.interfaces.first?.frequency == 5180)
        let roamed = WiFiEvent(
            .roamed(bssid: "02:00:00:00:01:01"), interfaceIndex: Int(ReplayNL80211Kernel.interfaceIndex),
            interfaceName: "wlan0")
        #expect(status.lastEvent == roamed)
        #expect(events.withLock { $0 } == [roamed])
        #expect(roamed.description == "wlan0: roamed to 02:00:00:00:01:01")
    }
}
