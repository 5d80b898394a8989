import VigilSensors

extension ReplayNL80211Kernel {
    /// An `NL80211_CMD_ROAM` event, as the kernel sends it on the `mlme` group when the station moves to `bssid`.
    ///
    /// The captures hold no roam, so it is built from the captured CONNECT event (`msg-connect-event.bin`): the same
    /// family, wiphy, interface (467) and association request and response elements, with the command changed to ROAM
    /// (47), the MAC changed to `bssid`, and the status code left out, as `nl80211_send_roamed()` sends none. Like the
    /// kernel's, it carries no frequency: the new channel is for the monitor to read.
    ///
    /// - Returns: The whole message, or `nil` when the capture is missing or cannot be read.
    package static func roamEvent(to bssid: [UInt8]) -> [UInt8]? {
        guard let capture = Fixtures.bytes("nl80211/msg-connect-event.bin"),
            case .message(let connect)? = GenericNetlinkParser.parse(capture).parts.first
        else { return nil }
        let region = connect.attributes
        var attributes = NetlinkAttributeWriter()
        var offset = 0
        while offset + 4 <= region.count {
            let length = Int(region[offset]) | Int(region[offset + 1]) << 8
            let type = UInt16(region[offset + 2]) | UInt16(region[offset + 3]) << 8
            guard length >= 4, offset + length <= region.count else { return nil }
            switch type {
            case NL80211.Attribute.mac: attributes.append(type, bytes: bssid)
            case NL80211.Attribute.statusCode: break
            default: attributes.append(type, bytes: Array(region[(offset + 4)..<(offset + length)]))
            }
            offset += (length + 3) & ~3
        }
        return ReplayGenericNetlinkTransport.message(
            family: connect.header.type, command: NL80211.Command.roam, version: connect.version, sequence: 0,
            attributes: attributes.bytes)
    }
}
