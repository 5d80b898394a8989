/// Something that happened on a wireless interface, as nl80211 announces it on its `mlme`, `scan` and `config`
/// groups.
public struct WiFiEvent: Hashable, Sendable, Encodable, CustomStringConvertible {
    /// What happened.
    public enum Kind: Hashable, Sendable, Encodable {
        /// A connection attempt ended: `status` is the IEEE 802.11 status code (0 for success); `timedOut` when the
        /// access point never answered.
        case connected(bssid: String?, status: Int, timedOut: Bool)
        /// The connection ended: `reason` is the IEEE 802.11 reason code when the kernel gives one, and
        /// `byAccessPoint` whether the access point ended it (else this machine did).
        case disconnected(reason: Int?, byAccessPoint: Bool)
        /// The station moved to another access point of the same network.
        case roamed(bssid: String?)
        /// Authentication finished, with the IEEE 802.11 status code of the frame when there was one.
        case authenticated(status: Int?)
        /// The station was deauthenticated, with the reason code of the frame when there was one.
        case deauthenticated(reason: Int?)
        /// Association finished, with the IEEE 802.11 status code of the frame when there was one.
        case associated(status: Int?)
        /// The station was disassociated, with the reason code of the frame when there was one.
        case disassociated(reason: Int?)
        /// A scan started.
        case scanStarted
        /// A scan finished and new results are available.
        case scanResults
        /// A scan was aborted.
        case scanAborted
        /// The channel changed (a channel switch announced by the access point, or ordered locally).
        case channelSwitched(frequency: Int?)
        /// A wireless interface was added.
        case interfaceAdded
        /// A wireless interface was removed.
        case interfaceRemoved
    }

    /// What happened.
    public var kind: Kind
    /// The interface index it happened on, when the kernel says.
    public var interfaceIndex: Int?
    /// The interface name, when known.
    public var interfaceName: String?

    /// Creates an event record.
    public init(_ kind: Kind, interfaceIndex: Int? = nil, interfaceName: String? = nil) {
        self.kind = kind
        self.interfaceIndex = interfaceIndex
        self.interfaceName = interfaceName
    }

    /// `wlan0: disconnected (reason 3, by the access point)`.
    public var description: String {
        let prefix = (interfaceName ?? interfaceIndex.map { "interface \($0)" } ?? "wifi") + ": "
        switch kind {
        case .connected(let bssid, let status, let timedOut):
            let to = bssid.map { " to \($0)" } ?? ""
            if status == 0 { return prefix + "connected\(to)" }
            return prefix + "connection\(to) failed (status \(status)\(timedOut ? ", timed out" : ""))"
        case .disconnected(let reason, let byAccessPoint):
            let why = reason.map { "reason \($0), " } ?? ""
            return prefix + "disconnected (\(why)\(byAccessPoint ? "by the access point" : "by this machine"))"
        case .roamed(let bssid): return prefix + "roamed" + (bssid.map { " to \($0)" } ?? "")
        case .authenticated(let status): return prefix + "authenticated" + (status.map { " (status \($0))" } ?? "")
        case .deauthenticated(let reason):
            return prefix + "deauthenticated" + (reason.map { " (reason \($0))" } ?? "")
        case .associated(let status): return prefix + "associated" + (status.map { " (status \($0))" } ?? "")
        case .disassociated(let reason): return prefix + "disassociated" + (reason.map { " (reason \($0))" } ?? "")
        case .scanStarted: return prefix + "scan started"
        case .scanResults: return prefix + "new scan results"
        case .scanAborted: return prefix + "scan aborted"
        case .channelSwitched(let frequency):
            return prefix + "channel switched" + (frequency.map { " to \($0) MHz" } ?? "")
        case .interfaceAdded: return prefix + "interface added"
        case .interfaceRemoved: return prefix + "interface removed"
        }
    }
}
