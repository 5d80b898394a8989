import Vigil
import VigilSensors

/// A kernel with nl80211, replayed: the controller resolves `nl80211` (id 0x32, as in the captures of
/// `Tests/Fixtures/nl80211`), and the interface, scan and station dumps answer from what the test sets, or come back
/// interrupted (``interruptDumps(of:times:)``) or failed (``failDumps(of:errno:)``).
///
/// The captures hold no interface or station replies, so those are built here from `linux/nl80211.h`'s attribute
/// numbers; the scan results are the captured `msg-new-scan-results-dump.bin` (the hwsim AP `Test-WIFI`,
/// 02:00:00:00:01:00, 2412 MHz, −30 dBm), marked associated when the test says the station is connected.
package final class ReplayNL80211Kernel: Sendable {
    /// nl80211's id in the captures.
    package static let familyID: UInt16 = 0x32
    /// The groups the replayed family offers.
    package static let groups: [String: UInt32] = ["config": 5, "scan": 6, "regulatory": 7, "mlme": 8]
    /// The captured station's interface index.
    package static let interfaceIndex: UInt32 = 467

    private struct Scenario {
        var interfaces: [[UInt8]]
        var scan: [[UInt8]]
        var stations: [[UInt8]]
        /// How many of the next dumps of each command to answer as interrupted.
        var interruptions: [UInt8: Int] = [:]
        /// The error (a negative errno) every dump of a command is answered with.
        var failures: [UInt8: Int32] = [:]
    }

    private let scenario: FutexMutex<Scenario>
    /// Every transport made so far (one per monitor run).
    private let transports = FutexMutex<[ReplayGenericNetlinkTransport]>([])

    /// A kernel whose station `wlan0` is connected to the captured AP, or not.
    package init(connected: Bool = true) {
        scenario = FutexMutex(Scenario(interfaces: [], scan: [], stations: []))
        setConnected(connected)
    }

    /// Connects `wlan0` to the captured AP (or disconnects it) in what the dumps return.
    package func setConnected(_ connected: Bool, signal: Int8 = -42) {
        let scan = Fixtures.bytes("nl80211/msg-new-scan-results-dump.bin") ?? []
        scenario.withLock { scenario in
            scenario.interfaces = [Self.interface(index: Self.interfaceIndex, name: "wlan0", ssid: connected)]
            scenario.scan = [connected ? Self.associated(scan) : scan]
            scenario.stations = connected ? [Self.station(signal: signal)] : []
        }
    }

    /// Replaces the dumps' answers.
    package func set(interfaces: [[UInt8]], scan: [[UInt8]], stations: [[UInt8]]) {
        scenario.withLock { scenario in
            scenario.interfaces = interfaces
            scenario.scan = scan
            scenario.stations = stations
        }
    }

    /// Answers the next `count` dumps of `command` as interrupted: torn (none of their parts) and ended by an
    /// `NLMSG_DONE` with `NLM_F_DUMP_INTR`, as the kernel ends a dump whose table changed under it. Dumps after those
    /// are answered in full again.
    package func interruptDumps(of command: UInt8, times count: Int = 1) {
        scenario.withLock { $0.interruptions[command] = count }
    }

    /// Answers every dump of `command` with the error `errno` (as the kernel answers a scan dump for an interface
    /// removed since the interface dump, `ENODEV`), or in full again when `errno` is nil.
    package func failDumps(of command: UInt8, errno: Int32?) {
        scenario.withLock { $0.failures[command] = errno }
    }

    /// The requests of every client made so far.
    package var requests: [GenericNetlinkMessage] { transports.withLock { $0.flatMap(\.requests) } }

    /// A new client on a new replayed transport.
    package func client() -> GenericNetlinkClient {
        // Weak: the kernel keeps its transports, so a strong capture would never be released.
        let transport = ReplayGenericNetlinkTransport { [weak self] request in self?.answer(request) ?? [] }
        transports.withLock { $0.append(transport) }
        return GenericNetlinkClient(transport: transport)
    }

    private func answer(_ request: GenericNetlinkMessage) -> [ReplayGenericNetlinkTransport.Datagram] {
        let sequence = request.header.sequence
        typealias Replay = ReplayGenericNetlinkTransport
        if request.header.type == GenericNetlinkFamily.controllerID {
            guard request.attributes.count >= 12, Array(request.attributes[4..<11]) == Array("nl80211".utf8) else {
                return [.init(Replay.error(sequence: sequence, code: -2))]
            }
            var attributes = NetlinkAttributeWriter()
            attributes.append(2, string: "nl80211")
            attributes.append(1, bytes: [UInt8(Self.familyID), 0])
            attributes.append(3, uint32: 1)
            attributes.appendNested(7) { list in
                for (position, (name, id)) in Self.groups.sorted(by: { $0.value < $1.value }).enumerated() {
                    list.appendNested(UInt16(position + 1)) { group in
                        group.append(2, uint32: id)
                        group.append(1, string: name)
                    }
                }
            }
            return [
                .init(
                    Replay.message(
                        family: 0x10, command: 1, version: 2, sequence: sequence, attributes: attributes.bytes)),
                .init(Replay.error(sequence: sequence, code: 0)),
            ]
        }
        guard request.header.flags & GenericNetlinkMessage.dumpFlag != 0 else {
            return [.init(Replay.error(sequence: sequence, code: -95))]
        }
        if let errno = scenario.withLock({ $0.failures[request.command] }) {
            return [.init(Replay.error(sequence: sequence, code: -errno))]
        }
        let interrupted = scenario.withLock { scenario -> Bool in
            guard let remaining = scenario.interruptions[request.command], remaining > 0 else { return false }
            scenario.interruptions[request.command] = remaining - 1
            return true
        }
        if interrupted {
            return [.init(Replay.done(sequence: sequence, flags: NetlinkMessageHeader.dumpInterruptedFlag))]
        }
        let parts = scenario.withLock { scenario -> [[UInt8]] in
            switch request.command {
            case NL80211.Command.getInterface:
                return scenario.interfaces.map {
                    Replay.message(
                        family: Self.familyID, command: NL80211.Command.newInterface, flags: 2, sequence: sequence,
                        attributes: $0)
                }
            case NL80211.Command.getScan:
                return scenario.scan.map { Replay.resequenced($0, sequence) }
            case NL80211.Command.getStation:
                return scenario.stations.map {
                    Replay.message(
                        family: Self.familyID, command: NL80211.Command.newStation, flags: 2, sequence: sequence,
                        attributes: $0)
                }
            default:
                return []
            }
        }
        return parts.map { .init($0) } + [.init(Replay.done(sequence: sequence))]
    }

    // MARK: messages the captures lack

    /// A GET_INTERFACE reply's attributes: a station on phy 0, 2412 MHz, 20 MHz wide, connected to `Test-WIFI` when
    /// `ssid` is true.
    package static func interface(index: UInt32, name: String, ssid: Bool, links: [(id: UInt8, frequency: UInt32)] = [])
        -> [UInt8]
    {
        interface(index: index, name: name, ssidBytes: ssid ? Array("Test-WIFI".utf8) : nil, links: links)
    }

    /// A GET_INTERFACE reply's attributes: a station on phy 0, on `frequency`, 20 MHz wide, with `NL80211_ATTR_SSID`
    /// (the network it is connected to) when `ssidBytes` is given.
    package static func interface(
        index: UInt32, name: String, ssidBytes: [UInt8]?, frequency: UInt32 = 2412,
        links: [(id: UInt8, frequency: UInt32)] = []
    ) -> [UInt8] {
        var attributes = NetlinkAttributeWriter()
        attributes.append(NL80211.Attribute.interfaceIndex, uint32: index)
        attributes.append(NL80211.Attribute.interfaceName, string: name)
        attributes.append(NL80211.Attribute.wiphy, uint32: 0)
        attributes.append(NL80211.Attribute.interfaceType, uint32: 2)
        attributes.append(NL80211.Attribute.mac, bytes: [0x02, 0, 0, 0, 0, 0])
        attributes.append(NL80211.Attribute.frequency, uint32: frequency)
        attributes.append(NL80211.Attribute.channelWidth, uint32: 1)
        if let ssidBytes { attributes.append(NL80211.Attribute.ssid, bytes: ssidBytes) }
        if !links.isEmpty {
            attributes.appendNested(NL80211.Attribute.mloLinks) { list in
                for (position, link) in links.enumerated() {
                    list.appendNested(UInt16(position + 1)) { entry in
                        entry.append(NL80211.Attribute.mloLinkID, bytes: [link.id])
                        entry.append(NL80211.Attribute.mac, bytes: [0x02, 0, 0, 0, 0, link.id + 0x10])
                        entry.append(NL80211.Attribute.frequency, uint32: link.frequency)
                        entry.append(NL80211.Attribute.channelWidth, uint32: 3)
                    }
                }
            }
        }
        return attributes.bytes
    }

    /// A GET_STATION reply's attributes for the captured AP: signal, average, 866.7/650 Mbit/s, 120 s connected.
    package static func station(signal: Int8) -> [UInt8] {
        var attributes = NetlinkAttributeWriter()
        attributes.append(NL80211.Attribute.interfaceIndex, uint32: interfaceIndex)
        attributes.append(NL80211.Attribute.mac, bytes: [0x02, 0, 0, 0, 0x01, 0])
        attributes.appendNested(NL80211.Attribute.stationInfo) { info in
            info.append(NL80211.StationInfo.signal, bytes: [UInt8(bitPattern: signal)])
            info.append(NL80211.StationInfo.averageSignal, bytes: [UInt8(bitPattern: signal - 2)])
            info.appendNested(NL80211.StationInfo.transmitBitrate) {
                $0.append(NL80211.StationInfo.rateBitrate32, uint32: 8667)
            }
            info.appendNested(NL80211.StationInfo.receiveBitrate) {
                $0.append(NL80211.StationInfo.rateBitrate16, bytes: [0x64, 0x19])
            }
            info.append(NL80211.StationInfo.connectedTime, uint32: 120)
        }
        return attributes.bytes
    }

    /// A NEW_SCAN_RESULTS dump part for an associated access point (sequence 0: the replay sets it).
    package static func associatedBSS(
        interface: UInt32, bssid: [UInt8], ssid: [UInt8], frequency: UInt32, signalMBm: Int32, linkID: UInt8? = nil,
        mldAddress: [UInt8]? = nil
    ) -> [UInt8] {
        var attributes = NetlinkAttributeWriter()
        attributes.append(NL80211.Attribute.interfaceIndex, uint32: interface)
        attributes.appendNested(NL80211.Attribute.bss) { bss in
            bss.append(NL80211.BSS.bssid, bytes: bssid)
            bss.append(NL80211.BSS.frequency, uint32: frequency)
            bss.append(NL80211.BSS.signalMBm, uint32: UInt32(bitPattern: signalMBm))
            bss.append(NL80211.BSS.status, uint32: NL80211.BSS.associated)
            bss.append(NL80211.BSS.informationElements, bytes: [0, UInt8(ssid.count)] + ssid)
            if let linkID { bss.append(NL80211.BSS.mloLinkID, bytes: [linkID]) }
            if let mldAddress { bss.append(NL80211.BSS.mldAddress, bytes: mldAddress) }
        }
        return ReplayGenericNetlinkTransport.message(
            family: familyID, command: NL80211.Command.newScanResults, flags: 2, sequence: 0,
            attributes: attributes.bytes)
    }

    /// A captured NEW_SCAN_RESULTS message whose BSS (its last attribute) gains `NL80211_BSS_STATUS` associated.
    package static func associated(_ capture: [UInt8]) -> [UInt8] {
        var status = NetlinkAttributeWriter()
        status.append(NL80211.BSS.status, uint32: NL80211.BSS.associated)
        var bytes = capture + status.bytes
        var offset = 20
        while offset + 4 <= capture.count {
            let length = Int(capture[offset]) | Int(capture[offset + 1]) << 8
            let type = (Int(capture[offset + 2]) | Int(capture[offset + 3]) << 8) & 0x3FFF
            if type == Int(NL80211.Attribute.bss) {
                let grown = UInt16(length + status.bytes.count)
                bytes[offset] = UInt8(grown & 0xFF)
                bytes[offset + 1] = UInt8(grown >> 8)
            }
            guard length >= 4 else { break }
            offset += (length + 3) & ~3
        }
        let total = UInt32(bytes.count)
        withUnsafeBytes(of: total.littleEndian) { bytes.replaceSubrange(0..<4, with: $0) }
        return bytes
    }
}
