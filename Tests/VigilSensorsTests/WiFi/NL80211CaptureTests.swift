import Testing
import VigilTestSupport

@testable import VigilSensors

/// nl80211 messages captured from wpa_supplicant, iw and hostapd on mac80211_hwsim (`Tests/Fixtures/nl80211`, whose
/// README gives the decoded values these tests expect), decoded by ``NL80211``.
@Suite(.timeLimit(.minutes(5)))
struct NL80211CaptureTests {
    /// The one message of a `msg-` capture.
    static func message(_ name: String) throws -> GenericNetlinkMessage {
        let bytes = try #require(Fixtures.bytes("nl80211/" + name), "missing fixture \(name)")
        let parsed = GenericNetlinkParser.parse(bytes)
        #expect(parsed.malformed == 0)
        guard parsed.parts.count == 1, case .message(let message) = parsed.parts[0] else {
            Issue.record("\(name) is not one message: \(parsed.parts)")
            throw CaptureError()
        }
        return message
    }

    struct CaptureError: Error {}

    static func event(_ name: String) throws -> WiFiEvent? { NL80211.event(from: try message(name)) }

    @Test func connectEvent() throws {
        let message = try Self.message("msg-connect-event.bin")
        #expect(message.header.type == 0x32 && message.command == 46)
        let event = try #require(NL80211.event(from: message))
        #expect(event.kind == .connected(bssid: "02:00:00:00:01:00", status: 0, timedOut: false))
        #expect(event.interfaceIndex == 467)
        #expect(event.description.contains("connected to 02:00:00:00:01:00"))
    }

    @Test func disconnectEventByThisMachine() throws {
        let event = try #require(try Self.event("msg-disconnect-event-reason3.bin"))
        #expect(event.kind == .disconnected(reason: 3, byAccessPoint: false))
        #expect(event.interfaceIndex == 467)
    }

    @Test func disconnectEventByTheAccessPoint() throws {
        // The captured event with NL80211_ATTR_DISCONNECTED_BY_AP (a flag) appended, as the kernel sends it when the
        // AP deauthenticates the station.
        var message = try Self.message("msg-disconnect-event-reason3.bin")
        var flag = NetlinkAttributeWriter()
        flag.append(NL80211.Attribute.disconnectedByAccessPoint, bytes: [])
        message.attributes += flag.bytes
        #expect(NL80211.event(from: message)?.kind == .disconnected(reason: 3, byAccessPoint: true))
    }

    @Test func deauthenticationAndDisassociationReasonsFromTheirFrames() throws {
        #expect(try Self.event("msg-deauthenticate-event-reason2.bin")?.kind == .deauthenticated(reason: 2))
        #expect(try Self.event("msg-disassociate-event-reason2.bin")?.kind == .disassociated(reason: 2))
        // Without its frame, no reason can be read; the event stays, with its interface.
        let bare = try #require(try Self.event("msg-deauthenticate-event-noframe.bin"))
        #expect(bare.kind == .deauthenticated(reason: nil) && bare.interfaceIndex == 778)
    }

    @Test func authenticationAndAssociationStatusFromTheirFrames() throws {
        #expect(try Self.event("msg-authenticate-event-sae-commit.bin")?.kind == .authenticated(status: 0))
        #expect(try Self.event("msg-associate-event.bin")?.kind == .associated(status: 0))
    }

    @Test func scanEvents() throws {
        #expect(try Self.event("msg-trigger-scan-event.bin")?.kind == .scanStarted)
        #expect(try Self.event("msg-new-scan-results-dump.bin")?.kind == .scanResults)
    }

    @Test func unmodelledCommandsAreNotEvents() throws {
        #expect(try Self.event("msg-frame-tx-status-event.bin") == nil)
        #expect(try Self.event("msg-notify-cqm-event.bin") == nil)
    }

    @Test func scanResultOfADump() throws {
        let message = try Self.message("msg-new-scan-results-dump.bin")
        #expect(message.header.flags == 0x2 && message.header.sequence == 2_509_141_148)
        let bss = try #require(NL80211.scannedBSS(from: message))
        #expect(bss.bssid == "02:00:00:00:01:00")
        #expect(bss.ssid == "Test-WIFI")
        #expect(bss.frequency == 2412)
        #expect(bss.signal == -30)
        #expect(bss.interfaceIndex == 467)
        #expect(!bss.isAssociated, "the capture has no NL80211_BSS_STATUS")
        #expect(
            NL80211.scannedBSS(
                from: GenericNetlinkMessage(
                    header: message.header, command: message.command, version: message.version,
                    attributes: ReplayNL80211Kernel.associated(
                        Array(Fixtures.bytes("nl80211/msg-new-scan-results-dump.bin")!)
                    )
                    .dropFirst(20).map { $0 }))?.isAssociated == true)
    }

    @Test func scanResultOfIwsDump() throws {
        // A genl- capture has no netlink header: give it one with the family id the README records (0x2e).
        let payload = try #require(Fixtures.bytes("nl80211/genl-new-scan-results-reply.bin"))
        let message = GenericNetlinkMessage(
            header: NetlinkMessageHeader(
                length: UInt32(16 + payload.count), type: 0x2E, flags: 2, sequence: 1, port: 0),
            command: payload[0], version: payload[1], attributes: Array(payload[4...]))
        let bss = try #require(NL80211.scannedBSS(from: message))
        #expect(bss.bssid == "d6:b2:6a:a8:bc:b1")
        #expect(bss.ssid == "Test-WIFI")
        #expect(bss.frequency == 2412 && bss.signal == -30 && bss.interfaceIndex == 21)
    }

    @Test func aZeroLengthAttributeIsAFlagNotAFailure() throws {
        let bytes = try #require(Fixtures.bytes("nl80211/attrs-wiphy-dump-excerpt-ax211.bin"))
        let decoded = bytes.withUnsafeBytes { raw -> (UInt32?, Bool, UInt16?)? in
            let buffer = NetlinkBytes(raw)
            guard let attributes = RouteAttributes(buffer, range: 0..<buffer.count) else { return nil }
            return (attributes.uint32(1), attributes.has(102), attributes.integer(102, as: UInt16.self))
        }
        let (wiphy, hasEthertype, ethertype) = try #require(decoded)
        #expect(wiphy == 1 && hasEthertype && ethertype == nil)
    }

    @Test func aNestedAttributeThatLiesHidesOnlyItself() throws {
        // The BSS nest of the captured scan result with its first child's length raised past the nest's end.
        var message = try Self.message("msg-new-scan-results-dump.bin")
        let bssOffset = 8 + 8 + 12  // generation, ifindex and wdev precede it in the attribute region
        #expect(message.attributes[bssOffset + 2] == 47)
        message.attributes[bssOffset + 4] = 0xF0
        message.attributes[bssOffset + 5] = 0x0F
        #expect(NL80211.scannedBSS(from: message) == nil)
        #expect(NL80211.event(from: message)?.kind == .scanResults, "the message's other attributes still read")
        #expect(NL80211.event(from: message)?.interfaceIndex == 467)
    }

    @Test func stationStatistics() throws {
        let header = NetlinkMessageHeader(length: 0, type: 0x32, flags: 2, sequence: 1, port: 0)
        let message = GenericNetlinkMessage(
            header: header, command: NL80211.Command.newStation, version: 1,
            attributes: ReplayNL80211Kernel.station(signal: -47))
        let (address, statistics) = try #require(NL80211.station(from: message))
        #expect(address == "02:00:00:01:00:00" || address == "02:00:00:00:01:00")
        #expect(statistics.signal == -47 && statistics.averageSignal == -49)
        #expect(statistics.transmitBitrate == 866.7 && statistics.receiveBitrate == 650)
        #expect(statistics.connectedSeconds == 120)
    }

    @Test func multiLinkInterface() throws {
        let header = NetlinkMessageHeader(length: 0, type: 0x32, flags: 2, sequence: 1, port: 0)
        let attributes = ReplayNL80211Kernel.interface(
            index: 5, name: "wlan0", ssid: true, links: [(2, 6115), (0, 2437)])
        let interface = try #require(
            NL80211.interface(
                from: GenericNetlinkMessage(
                    header: header, command: NL80211.Command.newInterface, version: 1, attributes: attributes)))
        #expect(interface.links.map(\.id) == [0, 2])
        #expect(interface.links.map(\.frequency) == [2437, 6115])
        #expect(interface.links.first?.address == "02:00:00:00:00:10")
        #expect(interface.links.first?.channelWidth?.megahertz == 80)
        #expect(interface.ssid == "Test-WIFI" && interface.type == .station && interface.channelWidth?.megahertz == 20)
    }

    @Test func multiLinkConnectionFromItsAssociatedLinks() {
        let interface = WiFiInterface(
            index: 5, name: "wlan0", type: .station,
            links: [WiFiLink(id: 0, channelWidth: WiFiChannelWidth(rawValue: 3))])
        let links = [
            NL80211.ScannedBSS(
                interfaceIndex: 5, isAssociated: true, bssid: "02:00:00:00:02:01", ssid: "MLO", frequency: 6115,
                signal: -60, linkID: 2, mldAddress: "02:00:00:00:02:00"),
            NL80211.ScannedBSS(
                interfaceIndex: 5, isAssociated: true, bssid: "02:00:00:00:02:02", ssid: "MLO", frequency: 2437,
                signal: -40, linkID: 0, mldAddress: "02:00:00:00:02:00"),
        ]
        let connection = WiFiMonitor.connection(of: links, interface: interface)
        #expect(connection?.bssid == "02:00:00:00:02:02" && connection?.mldAddress == "02:00:00:00:02:00")
        #expect(connection?.links.map(\.id) == [0, 2])
        #expect(connection?.links.first?.channelWidth?.megahertz == 80)
        #expect(WiFiMonitor.connection(of: [], interface: interface) == nil)
    }

    @Test func ssidsThatAreNotTextAreEscaped() {
        #expect(WiFiSSID(bytes: Array("Café Wi-Fi".utf8)).description == "Café Wi-Fi")
        #expect(WiFiSSID(bytes: [0x63, 0x61, 0x66, 0xE9]).description == "caf\\xe9")
        #expect(WiFiSSID(bytes: [0x61, 0x0A, 0x5C]).description == "a\\x0a\\\\")
        #expect(WiFiSSID(bytes: [0, 0]).description == "\\x00\\x00")
        #expect(NL80211.ssid(inElements: [0, 3, 0x61, 0x62]) == nil, "an element past the end")
        #expect(NL80211.ssid(inElements: [1, 1, 0x82, 0, 2, 0x68, 0x69]) == "hi")
    }

    @Test func everyPrefixOfEveryAttributeRegionDecodesWithoutCrashing() throws {
        for name in Fixtures.names("nl80211") where name.hasPrefix("msg-") {
            let message = try Self.message(name)
            for cut in 0...message.attributes.count {
                var shorter = message
                shorter.attributes = Array(message.attributes[..<cut])
                _ = NL80211.event(from: shorter)
                _ = NL80211.scannedBSS(from: shorter)
                _ = NL80211.interface(from: shorter)
                _ = NL80211.station(from: shorter)
            }
        }
    }

    /// The fuzz target's seeds are captures the decoders read: each still gives its event.
    @Test func theFuzzCorpusIsCaptures() {
        let expected: [String: WiFiEvent.Kind] = [
            "msg-connect-event": .connected(bssid: "02:00:00:00:01:00", status: 0, timedOut: false),
            "msg-deauthenticate-event-reason2": .deauthenticated(reason: 2),
            "msg-disconnect-event-reason3": .disconnected(reason: 3, byAccessPoint: false),
            "msg-new-scan-results-dump": .scanResults,
            "msg-trigger-scan-event": .scanStarted,
        ]
        #expect(FuzzCorpus.names("nl80211") == expected.keys.sorted())
        for (name, kind) in expected {
            let parts = GenericNetlinkParser.parse(FuzzCorpus.input("nl80211", name) ?? []).parts
            guard case .message(let message) = parts.first else {
                Issue.record("\(name): no message")
                continue
            }
            #expect(NL80211.event(from: message)?.kind == kind, "\(name)")
        }
    }
}
