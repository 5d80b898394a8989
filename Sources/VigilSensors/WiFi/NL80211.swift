/// The numbers of nl80211 (`linux/nl80211.h`) that Vigil reads, and the decoding of its messages into Vigil's Wi-Fi
/// types.
///
/// Every decoder takes one ``GenericNetlinkMessage`` and returns `nil` for a message it does not model or cannot
/// read; an attribute that lies about its length hides only the nested group it is in, where that leaves the rest
/// meaningful. Nesting is known from the attribute's id, since the kernel often leaves out `NLA_F_NESTED`.
package enum NL80211 {
    /// The family's name, resolved through `nlctrl`.
    package static let familyName = "nl80211"
    /// The multicast groups the source joins.
    package static let groups = ["mlme", "scan", "config"]

    /// Commands (`enum nl80211_commands`).
    package enum Command {
        package static let getInterface: UInt8 = 5
        package static let newInterface: UInt8 = 7
        package static let deleteInterface: UInt8 = 8
        package static let getStation: UInt8 = 17
        package static let newStation: UInt8 = 19
        package static let getScan: UInt8 = 32
        package static let triggerScan: UInt8 = 33
        package static let newScanResults: UInt8 = 34
        package static let scanAborted: UInt8 = 35
        package static let authenticate: UInt8 = 37
        package static let associate: UInt8 = 38
        package static let deauthenticate: UInt8 = 39
        package static let disassociate: UInt8 = 40
        package static let connect: UInt8 = 46
        package static let roam: UInt8 = 47
        package static let disconnect: UInt8 = 48
        package static let channelSwitchNotify: UInt8 = 88
    }

    /// Top-level attributes (`enum nl80211_attrs`).
    package enum Attribute {
        package static let wiphy: UInt16 = 1
        package static let interfaceIndex: UInt16 = 3
        package static let interfaceName: UInt16 = 4
        package static let interfaceType: UInt16 = 5
        package static let mac: UInt16 = 6
        package static let stationInfo: UInt16 = 21
        package static let frequency: UInt16 = 38
        package static let bss: UInt16 = 47
        package static let frame: UInt16 = 51
        package static let ssid: UInt16 = 52
        package static let reasonCode: UInt16 = 54
        package static let timedOut: UInt16 = 65
        package static let disconnectedByAccessPoint: UInt16 = 71
        package static let statusCode: UInt16 = 72
        package static let channelWidth: UInt16 = 159
        package static let mloLinks: UInt16 = 312
        package static let mloLinkID: UInt16 = 313
        package static let mldAddress: UInt16 = 314
    }

    /// Attributes nested in ``Attribute/bss`` (`enum nl80211_bss`).
    package enum BSS {
        package static let bssid: UInt16 = 1
        package static let frequency: UInt16 = 2
        package static let informationElements: UInt16 = 6
        package static let signalMBm: UInt16 = 7
        package static let status: UInt16 = 9
        package static let beaconInformationElements: UInt16 = 11
        package static let mloLinkID: UInt16 = 21
        package static let mldAddress: UInt16 = 22
        /// `NL80211_BSS_STATUS_ASSOCIATED`.
        package static let associated: UInt32 = 1
    }

    /// Attributes nested in ``Attribute/stationInfo`` (`enum nl80211_sta_info`) and its rates (`nl80211_rate_info`).
    package enum StationInfo {
        package static let signal: UInt16 = 7
        package static let transmitBitrate: UInt16 = 8
        package static let averageSignal: UInt16 = 13
        package static let receiveBitrate: UInt16 = 14
        package static let connectedTime: UInt16 = 16
        package static let rateBitrate16: UInt16 = 1
        package static let rateBitrate32: UInt16 = 5
    }

    /// A GET_INTERFACE reply (or NEW_INTERFACE event) as an interface, without its connection.
    package static func interface(from message: GenericNetlinkMessage) -> WiFiInterface? {
        guard message.command == Command.newInterface else { return nil }
        return message.withAttributes { attributes in
            guard let index = attributes.uint32(Attribute.interfaceIndex), index > 0 else { return nil }
            let name = attributes.string(Attribute.interfaceName) ?? "if\(index)"
            return WiFiInterface(
                index: Int(index), name: name,
                type: WiFiInterfaceType(rawValue: attributes.uint32(Attribute.interfaceType) ?? 0),
                address: address(attributes, Attribute.mac), wiphy: attributes.uint32(Attribute.wiphy).map(Int.init),
                frequency: attributes.uint32(Attribute.frequency).map(Int.init),
                channelWidth: attributes.uint32(Attribute.channelWidth).map(WiFiChannelWidth.init(rawValue:)),
                ssid: attributes.raw(Attribute.ssid).map { WiFiSSID(bytes: $0) },
                links: links(attributes))
        }
    }

    /// One BSS of a GET_SCAN dump: the interface it was seen on, whether the interface is associated with it, and
    /// what it says of itself.
    package struct ScannedBSS: Hashable, Sendable {
        package var interfaceIndex: Int?
        package var isAssociated: Bool
        package var bssid: String
        package var ssid: WiFiSSID?
        package var frequency: Int?
        package var signal: Double?
        package var linkID: Int?
        package var mldAddress: String?
    }

    /// A NEW_SCAN_RESULTS reply with its BSS; `nil` without a BSS or its address.
    package static func scannedBSS(from message: GenericNetlinkMessage) -> ScannedBSS? {
        guard message.command == Command.newScanResults else { return nil }
        return message.withAttributes { attributes in
            guard let bss = attributes.nested(Attribute.bss), let bssid = address(bss, BSS.bssid) else { return nil }
            let elements = bss.raw(BSS.informationElements) ?? bss.raw(BSS.beaconInformationElements) ?? []
            return ScannedBSS(
                interfaceIndex: attributes.uint32(Attribute.interfaceIndex).map(Int.init),
                isAssociated: bss.uint32(BSS.status) == BSS.associated, bssid: bssid,
                ssid: ssid(inElements: elements), frequency: bss.uint32(BSS.frequency).map(Int.init),
                signal: bss.integer(BSS.signalMBm, as: Int32.self).map { Double($0) / 100 },
                linkID: bss.uint8(BSS.mloLinkID).map(Int.init), mldAddress: address(bss, BSS.mldAddress))
        }
    }

    /// A NEW_STATION reply: the station's address and its statistics.
    package static func station(from message: GenericNetlinkMessage) -> (address: String?, WiFiStationStatistics)? {
        guard message.command == Command.newStation else { return nil }
        return message.withAttributes { attributes in
            guard let info = attributes.nested(Attribute.stationInfo) else { return nil }
            let statistics = WiFiStationStatistics(
                signal: info.integer(StationInfo.signal, as: Int8.self).map(Int.init),
                averageSignal: info.integer(StationInfo.averageSignal, as: Int8.self).map(Int.init),
                transmitBitrate: bitrate(info.nested(StationInfo.transmitBitrate)),
                receiveBitrate: bitrate(info.nested(StationInfo.receiveBitrate)),
                connectedSeconds: info.uint32(StationInfo.connectedTime).map(Int.init))
            return (address(attributes, Attribute.mac), statistics)
        }
    }

    /// An event of the `mlme`, `scan` or `config` groups; `nil` for a command Vigil does not model.
    package static func event(from message: GenericNetlinkMessage) -> WiFiEvent? {
        message.withAttributes { attributes -> WiFiEvent? in
            let index = attributes.uint32(Attribute.interfaceIndex).map(Int.init)
            let name = attributes.string(Attribute.interfaceName)
            let frame = attributes.raw(Attribute.frame)
            let kind: WiFiEvent.Kind
            switch message.command {
            case Command.connect:
                let bssid = address(attributes, Attribute.mac) ?? address(attributes, Attribute.mldAddress)
                // Without a status code the attempt failed: the kernel leaves it out only on a timeout.
                let status = attributes.integer(Attribute.statusCode, as: UInt16.self).map(Int.init) ?? 1
                kind = .connected(bssid: bssid, status: status, timedOut: attributes.has(Attribute.timedOut))
            case Command.disconnect:
                kind = .disconnected(
                    reason: attributes.integer(Attribute.reasonCode, as: UInt16.self).map(Int.init),
                    byAccessPoint: attributes.has(Attribute.disconnectedByAccessPoint))
            case Command.roam:
                kind = .roamed(bssid: address(attributes, Attribute.mac) ?? address(attributes, Attribute.mldAddress))
            case Command.authenticate: kind = .authenticated(status: frameField(frame, at: 28))
            case Command.associate: kind = .associated(status: frameField(frame, at: 26))
            case Command.deauthenticate: kind = .deauthenticated(reason: frameField(frame, at: 24))
            case Command.disassociate: kind = .disassociated(reason: frameField(frame, at: 24))
            case Command.triggerScan: kind = .scanStarted
            case Command.newScanResults: kind = .scanResults
            case Command.scanAborted: kind = .scanAborted
            case Command.channelSwitchNotify:
                kind = .channelSwitched(frequency: attributes.uint32(Attribute.frequency).map(Int.init))
            case Command.newInterface: kind = .interfaceAdded
            case Command.deleteInterface: kind = .interfaceRemoved
            default: return nil
            }
            return WiFiEvent(kind, interfaceIndex: index, interfaceName: name)
        }
    }

    /// The per-link records of `NL80211_ATTR_MLO_LINKS`, by link id; an entry without an id is left out.
    static func links(_ attributes: RouteAttributes) -> [WiFiLink] {
        attributes.nestedList(Attribute.mloLinks).compactMap { link -> WiFiLink? in
            guard let id = link.uint8(Attribute.mloLinkID) else { return nil }
            return WiFiLink(
                id: Int(id), address: address(link, Attribute.mac),
                frequency: link.uint32(Attribute.frequency).map(Int.init),
                channelWidth: link.uint32(Attribute.channelWidth).map(WiFiChannelWidth.init(rawValue:)))
        }.sorted { $0.id < $1.id }
    }

    /// A 6-byte address attribute as colon-separated hex; `nil` when absent or not 6 bytes.
    static func address(_ attributes: RouteAttributes, _ type: UInt16) -> String? {
        guard let raw = attributes.raw(type), raw.count == 6 else { return nil }
        return raw.map { byte in
            let hex = String(byte, radix: 16)
            return hex.count == 1 ? "0" + hex : hex
        }.joined(separator: ":")
    }

    /// A bitrate (`nl80211_rate_info`) in Mbit/s: the 32-bit field, else the 16-bit one, both in 100 kbit/s.
    static func bitrate(_ rate: RouteAttributes?) -> Double? {
        guard let rate else { return nil }
        guard
            let value = rate.uint32(StationInfo.rateBitrate32).map(UInt64.init)
                ?? rate.integer(StationInfo.rateBitrate16, as: UInt16.self).map(UInt64.init)
        else { return nil }
        return Double(value) / 10
    }

    /// The SSID element (id 0) of a run of IEEE 802.11 information elements; `nil` without one or when an element's
    /// length runs past the end.
    package static func ssid(inElements elements: [UInt8]) -> WiFiSSID? {
        var offset = 0
        while offset + 2 <= elements.count {
            let id = elements[offset]
            let length = Int(elements[offset + 1])
            guard offset + 2 + length <= elements.count else { return nil }
            if id == 0 { return length <= 32 ? WiFiSSID(bytes: elements[(offset + 2)..<(offset + 2 + length)]) : nil }
            offset += 2 + length
        }
        return nil
    }

    /// A little-endian 16-bit field of an IEEE 802.11 management frame, or `nil` when the frame is too short.
    static func frameField(_ frame: [UInt8]?, at offset: Int) -> Int? {
        guard let frame, frame.count >= offset + 2 else { return nil }
        return Int(frame[offset]) | Int(frame[offset + 1]) << 8
    }
}
